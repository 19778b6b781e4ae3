// The encoder block: MHA -> add -> LayerNorm -> feed-forward -> add -> LayerNorm, every step kept.
#pragma once

#include "attention.hpp"

namespace attn {

struct EncoderWeights {
  MhaWeights attention;
  RowVec ln1_gain, ln1_bias;  // (D,)
  Mat w1;                     // (D, F)
  RowVec b1;                  // (F,)
  Mat w2;                     // (F, D)
  RowVec b2;                  // (D,)
  RowVec ln2_gain, ln2_bias;  // (D,)
  int d_ff() const { return static_cast<int>(w1.cols()); }
  // The same weights as one transformer layer's (a copy; vectors as (1, n)).
  LayerWeightsT<float> layer() const;
  // Seeded random weights; LayerNorm gains 1 and biases 0.
  static EncoderWeights random(int d_model, int heads, int d_ff, std::uint64_t seed);
};

struct EncoderResult {
  Mat input;      // (T, D) x
  MhaResult mha;  // attention with every head's weights
  Mat residual1;  // (T, D) x + Attn(x)
  Mat norm1;      // (T, D) LayerNorm(residual1)
  Mat hidden;     // (T, F) ReLU(norm1 W1 + b1)
  Mat ffn;        // (T, D) hidden W2 + b2
  Mat residual2;  // (T, D) norm1 + ffn
  Mat output;     // (T, D) LayerNorm(residual2)
};

// x (T, D) -> every intermediate of one encoder block.
EncoderResult encoder_block(const Mat& x, const EncoderWeights& w, const AttentionOptions& opt);

}  // namespace attn
