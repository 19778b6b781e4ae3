// The role scores of a pretrained model's heads on a repeated random segment (Olsson et al., 2022).
#include "core/lm/lm_roles.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace attn::lm {

LmRoles lm_head_roles(const LmModel& model, int segment, std::uint64_t seed) {
  require_range(segment, 1, kMaxTokens / 2, "the repeated segment's length");
  LmRoles r;
  r.segment = segment;
  Rng rng(seed);
  const int first = model.vocab() > 3 ? 3 : 0, span = model.vocab() - first;
  for (int i = 0; i < segment; ++i) {
    r.ids.push_back(first + static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(span)));
  }
  for (int i = 0; i < segment; ++i) r.ids.push_back(r.ids[static_cast<size_t>(i)]);
  const LmForward f = lm_forward(model, r.ids);
  const int t = 2 * segment;
  for (size_t l = 0; l < f.layers.size(); ++l) {
    for (size_t h = 0; h < f.layers[l].weights.size(); ++h) {
      const Mat& w = f.layers[l].weights[h];  // (T, T)
      double match = 0, first_token = 0;
      for (int i = segment; i < t; ++i) match += w(i, i - segment + 1);
      for (int i = 0; i < t; ++i) first_token += w(i, 0);
      train::HeadRole role;
      role.layer = static_cast<int>(l), role.head = static_cast<int>(h);
      role.scores = {{"previous_token", train::previous_token_weight(w)},
                     {"induction", match / segment},
                     {"first_token", first_token / t}};
      role.role = train::role_of(role.scores);
      r.heads.push_back(role);
    }
  }
  return r;
}

int lm_role_segment(const LmModel& model) {
  return std::min({32, model.max_len / 2, kMaxTokens / 2});
}

}  // namespace attn::lm
