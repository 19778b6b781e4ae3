// The shuffle test on a sentence: the seeded attention layer on the tokens in their own order and shuffled,
// with no positions, with positions that belong to slots, and with positions wrongly attached to words.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"
#include "pipeline.hpp"

namespace attn {

// One way of shuffling: what the original blends look like in the new order next to what the layer gives.
struct ShuffleCase {
  Mat original;        // (T, D) layer output on the tokens in their own order
  Mat expected;        // (T, D) permute_rows(original, perm): the original blends, rows in the new order
  Mat shuffled;        // (T, D) layer output on the shuffled input
  ShuffleCheck check;  // compare_shuffled(original, shuffled, perm): allclose means the order was invisible
};

struct ShuffleStudy {
  std::vector<std::string> tokens;    // (T,) the tokens, cut to kMaxTokens
  int dropped_tokens = 0;             // tokens cut from the end of a longer list
  std::vector<std::string> shuffled;  // (T,) shuffled[i] = tokens[perm[i]]
  std::vector<int> perm;              // (T,)
  Scheme scheme = Scheme::None;       // the position scheme of the `slots` and `words` cases
  ShuffleCase none;   // no positions at all: attention is permutation equivariant (allclose true)
  ShuffleCase slots;  // slot i of the new order gets position i (the table added after shuffling)
  ShuffleCase words;  // each word keeps its old position (the table added before shuffling, or
                      // RoPE/ALiBi given position ids perm): the new order is invisible again
};

// tokens (T,), perm (T,) a permutation of 0 .. T-1 (after cutting to kMaxTokens). The `none` case runs
// config with Scheme::None; `slots` and `words` run config.positions (every pipeline scheme; with None
// they equal `none`). The weights are those of run_pipeline, so `original` equals run_pipeline's output.
// Throws InputError for an empty token list, a bad permutation, or a bad config (as run_pipeline).
ShuffleStudy shuffle_study(const std::vector<std::string>& tokens, const PipelineConfig& config,
                           const std::vector<int>& perm);

}  // namespace attn
