// The lesson's seeded refund router (untrained, its weights drawn from a seed): tokens -> embeddings
// (+ positions) -> multi-head attention -> mean pool -> linear -> softmax over two labels. The trainable
// refund router is train::Model (core/train/model.hpp).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "attention.hpp"
#include "positions.hpp"

namespace attn {

struct SeededRouterConfig {
  int d_model = 16;
  int heads = 4;
  Scheme positions = Scheme::None;  // one of schemes_for(kUseRouter)
  std::uint64_t seed = 7;
  int learned_slots = 128;
};

struct SeededRouterResult {
  std::vector<std::string> tokens;
  Mat inputs;           // (T, D) embeddings plus additive positions
  MhaResult attention;  // per-head weights for display
  RowVec pooled;        // (D,) mean over tokens of the attention output
  std::array<float, 2> probabilities;
  int label;         // index into SeededRouter::labels()
  float confidence;  // probabilities[label]
};

class SeededRouter {
 public:
  explicit SeededRouter(const SeededRouterConfig& config);
  static const std::array<std::string, 2>& labels();
  const SeededRouterConfig& config() const { return config_; }
  // Throws InputError for empty text, too many tokens, or a text longer than a learned table.
  SeededRouterResult classify(const std::string& text) const;

 private:
  SeededRouterConfig config_;
  MhaWeights attention_;
  Mat classifier_;  // (D, 2)
  RowVec bias_;     // (2,)
};

}  // namespace attn
