// The scheme table (the lines of schemes.def) and the lookups every list of schemes is made from.
#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/schemes/scheme.hpp"

namespace attn {

#define ATTN_SCHEME(id, def) extern const SchemeDef def;
#include "core/schemes/schemes.def"
#undef ATTN_SCHEME

const std::vector<const SchemeDef*>& scheme_table() {
  static const std::vector<const SchemeDef*> table = {
#define ATTN_SCHEME(id, def) &def,
#include "core/schemes/schemes.def"
#undef ATTN_SCHEME
  };
  return table;
}

const SchemeDef& scheme_def(Scheme s) {
  const auto& table = scheme_table();
  const auto i = static_cast<size_t>(s);
  return *table[i < table.size() ? i : 0];
}

std::vector<Scheme> schemes_for(unsigned uses) {
  std::vector<Scheme> out;
  for (const SchemeDef* d : scheme_table()) {
    if ((d->uses & uses) == uses) out.push_back(d->id);
  }
  return out;
}

Scheme parse_scheme(const std::string& name, const std::vector<Scheme>& allowed) {
  for (Scheme s : allowed) {
    if (scheme_def(s).name == name) return s;
  }
  throw InputError("unknown position scheme '" + name + "'; allowed: " + scheme_list(allowed));
}

std::string scheme_name(Scheme s) {
  return scheme_def(s).name;
}

std::string scheme_list(const std::vector<Scheme>& schemes) {
  std::string out;
  for (Scheme s : schemes) out += (out.empty() ? "" : "|") + scheme_name(s);
  return out;
}

Mat added_positions(Scheme s, int t, const SchemeArgs& args) {
  const SchemeDef& d = scheme_def(s);
  return d.added ? d.added(range_positions(t), args) : Mat();
}

}  // namespace attn
