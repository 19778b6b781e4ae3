// The scheme table (the lines of schemes.def) and the lookups every list of schemes is made from.
#include <algorithm>

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

template <class S>
void set_head_bias(const SchemeDef& scheme, ops::HeadMask& mask, int head, int heads, const MatT<S>* table,
                   int span) {
  mask.alibi_slope = 0.0f;
  mask.distance_bias.clear();
  if (scheme.score_bias) scheme.score_bias(mask, head, heads);
  const DistanceBuckets* d = scheme.distance;
  if (!d) return;
  const bool trained = table && table->size() > 0;
  if (trained && (table->rows() != heads || table->cols() != d->buckets)) {
    throw_input_error({"the distance bias table is ", table->rows(), " x ", table->cols(), "; ", heads,
                       " heads of ", d->buckets, " buckets need ", heads, " x ", d->buckets});
  }
  // entry M + distance, distance -M .. M: M is max_distance, or less when no two positions are that far apart
  const int reach = std::clamp(span, 0, d->max_distance);
  mask.distance_bias.resize(static_cast<size_t>(2 * reach + 1));
  for (int distance = -reach; distance <= reach; ++distance) {
    const int b = d->bucket(distance, mask.causal);
    mask.distance_bias[static_cast<size_t>(distance + reach)] =
        trained ? static_cast<double>((*table)(head, b)) : d->initial(head, heads, b);
  }
}

template void set_head_bias(const SchemeDef&, ops::HeadMask&, int, int, const MatT<float>*, int);
template void set_head_bias(const SchemeDef&, ops::HeadMask&, int, int, const MatT<double>*, int);

Mat initial_distance_table(const SchemeDef& scheme, int heads) {
  const DistanceBuckets* d = scheme.distance;
  if (!d) return Mat();
  Mat t(heads, d->buckets);
  for (int h = 0; h < heads; ++h) {
    for (int b = 0; b < d->buckets; ++b) t(h, b) = static_cast<float>(d->initial(h, heads, b));
  }
  return t;
}

Mat added_positions(Scheme s, int t, const SchemeArgs& args) {
  const SchemeDef& d = scheme_def(s);
  return d.added ? d.added(range_positions(t), args) : Mat();
}

}  // namespace attn
