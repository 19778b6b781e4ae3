// Text -> tokens -> embeddings (+ positions) -> seeded multi-head attention: what the attention scenes show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "attention.hpp"
#include "positions.hpp"

namespace attn {

struct PipelineConfig {
  int d_model = 16;
  int heads = 4;
  Scheme positions = Scheme::None;  // none | sinusoidal | learned | rope | alibi
  bool causal = false;
  std::uint64_t seed = 7;
  int learned_slots = 128;
  double base = 10000.0;
};

struct PipelineResult {
  std::vector<std::string> tokens;  // (T,) at most kMaxTokens
  int dropped_tokens = 0;           // tokens cut from the end of a longer text
  Mat embeddings;                   // (T, D) seeded token embeddings
  Mat position_table;               // (T, D) for additive schemes, else empty
  Mat inputs;                       // (T, D) embeddings + position table
  MhaResult mha;                    // output (T, D) and every head's scores and weights (T, T)
  std::vector<HeadStats> stats;     // (H,)
};

// Tokenizes `text` (cutting it to kMaxTokens tokens) and runs the seeded attention layer on it.
// Throws InputError for an empty text, heads not dividing d_model, or a text longer than a learned table.
PipelineResult run_pipeline(const std::string& text, const PipelineConfig& config);

// The same layer on given tokens (used by the shuffle test): tokens (T,) -> result.
PipelineResult run_pipeline(const std::vector<std::string>& tokens, const PipelineConfig& config);

// The additive position table of a scheme for positions 0 .. t-1: (t, D), or empty for none/rope/alibi.
Mat additive_positions(const PipelineConfig& config, int t);

// Schemes a pipeline accepts, for messages and menus.
const std::vector<Scheme>& pipeline_schemes();

}  // namespace attn
