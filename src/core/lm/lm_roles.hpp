// Each head of a pretrained language model measured on a repeated random segment: its previous-token,
// induction (prefix-matching) and first-token scores, and the name the heads-with-jobs rule gives it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/lm/lm_model.hpp"
#include "core/train/head_roles.hpp"

namespace attn::lm {

struct LmRoles {
  int segment = 0;
  std::vector<int> ids;                // (2 segment): the segment, then the same again
  std::vector<train::HeadRole> heads;  // layer-major; scores previous_token, induction, first_token
};

// `segment` ids drawn uniformly from 3 .. V-1 (ids 0 to 2 are often special; all ids when V <= 3) with
// Rng(seed), repeated once; per head, over that one sequence: the mean weight from i to i - 1 (i >= 1), the
// mean weight over the repeat's positions i >= segment on i - segment + 1 (the token after the earlier
// occurrence of token i), and the mean weight on position 0. Throws InputError when 2 x segment does not fit
// the model's context.
LmRoles lm_head_roles(const LmModel& model, int segment, std::uint64_t seed);

// The segment the roles are measured on: up to 32 ids, repeated within the model's context (below 2: the
// context is too short to measure them).
int lm_role_segment(const LmModel& model);

}  // namespace attn::lm
