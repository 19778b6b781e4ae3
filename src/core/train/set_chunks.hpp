// A set of emails evaluated a chunk at a time: the chunks (twins kept together) and the tally that adds the
// chunks' measures up to the whole set's, so a caller can stop between chunks.
#pragma once

#include <cstddef>
#include <vector>

#include "core/train/data.hpp"
#include "core/train/trainer.hpp"

namespace attn::train {

// Chunks of about `per_chunk` emails, both orders of a (pair, template) twin in the same chunk.
std::vector<std::vector<Example>> twin_chunks(const std::vector<Example>& emails, size_t per_chunk);
// Chunks of `per_chunk` emails in their order (the last one may be shorter).
std::vector<std::vector<Example>> plain_chunks(const std::vector<Example>& emails, size_t per_chunk);

// The sum of evaluate_set over chunks; total() equals evaluate_set on the whole set when the chunks are
// twin_chunks of it (up to float rounding of the loss).
struct SetTally {
  int examples = 0, right = 0, twins = 0, both = 0;
  double loss = 0.0;
  float max_pair_difference = 0.0f;
  void add(const SetMetrics& chunk);
  SetMetrics total() const;
};

}  // namespace attn::train
