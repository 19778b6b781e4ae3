// Head roles as JSON, and the --off / --ablate options of `attention_cli train`.
#include "head_json.hpp"

#include "core/error.hpp"

namespace attn::cli {

json roles_json(const std::vector<train::HeadRole>& roles) {
  json out = json::array();
  for (const auto& r : roles) {
    json scores(json::value_t::object);
    for (const auto& s : r.scores) scores[s.name] = tidy(s.value);
    out.push_back({{"layer", r.layer}, {"head", r.head}, {"role", r.role}, {"scores", scores}});
  }
  return out;
}

HeadSwitch heads_off(const std::string& off, const std::string& ablate, int layers, int heads) {
  if (ablate != "zero" && ablate != "mean") {
    throw InputError("--ablate must be zero or mean, not '" + ablate + "'");
  }
  return train::parse_heads_off(off, layers, heads);
}

std::vector<HeadSwitch> single_heads(int layers, int heads,
                                     const std::vector<std::vector<std::vector<double>>>& means) {
  std::vector<HeadSwitch> out;
  for (int l = 0; l < layers; ++l) {
    for (int h = 0; h < heads; ++h) {
      out.push_back(train::single_head_off(layers, heads, l, h));
      out.back().mean = means;
    }
  }
  return out;
}

}  // namespace attn::cli
