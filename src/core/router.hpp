// The lesson's refund router: tokens -> embeddings (+ positions) -> multi-head attention -> mean pool
// -> linear -> softmax over two labels.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "attention.hpp"
#include "positions.hpp"

namespace attn {

struct RouterConfig {
  int d_model = 16;
  int heads = 4;
  Scheme positions = Scheme::None;  // none | sinusoidal | learned | rope
  std::uint64_t seed = 7;
  int learned_slots = 128;
};

struct RouterResult {
  std::vector<std::string> tokens;
  Mat inputs;                 // (T, D) embeddings plus additive positions
  MhaResult attention;        // per-head weights for display
  RowVec pooled;              // (D,) mean over tokens of the attention output
  std::array<float, 2> probabilities;
  int label;                  // index into RefundRouter::labels()
  float confidence;           // probabilities[label]
};

class RefundRouter {
 public:
  explicit RefundRouter(const RouterConfig& config);
  static const std::array<std::string, 2>& labels();
  const RouterConfig& config() const { return config_; }
  // Throws InputError for empty text, too many tokens, or a text longer than a learned table.
  RouterResult classify(const std::string& text) const;

 private:
  RouterConfig config_;
  MhaWeights attention_;
  Mat classifier_;  // (D, 2)
  RowVec bias_;     // (2,)
};

}  // namespace attn
