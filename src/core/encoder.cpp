// One transformer encoder block with every intermediate kept for display.
#include "encoder.hpp"

#include <cmath>

#include "error.hpp"
#include "ops.hpp"
#include "rng.hpp"

namespace attn {

EncoderWeights EncoderWeights::random(int d_model, int heads, int d_ff, std::uint64_t seed) {
  require_range(d_ff, 1, 4 * kMaxDModel, "the feed-forward width d_ff");
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_weight_count(4LL * d_model * d_model + 2LL * d_model * d_ff,
                       "an encoder block (4 x d_model^2 + 2 x d_model x d_ff)");
  EncoderWeights w;
  w.attention = MhaWeights::random(d_model, heads, mix_seed(seed, 1));
  Rng rng(mix_seed(seed, 2));
  w.w1 = rng.normal_matrix(d_model, d_ff, 1.0f / std::sqrt(static_cast<float>(d_model)));
  w.b1 = RowVec::Zero(d_ff);
  w.w2 = rng.normal_matrix(d_ff, d_model, 1.0f / std::sqrt(static_cast<float>(d_ff)));
  w.b2 = RowVec::Zero(d_model);
  w.ln1_gain = w.ln2_gain = RowVec::Ones(d_model);
  w.ln1_bias = w.ln2_bias = RowVec::Zero(d_model);
  return w;
}

namespace {

// LayerNorm of each row with eps 1e-5 (ops::layer_norm_forward). x (T, D), gain/bias (D,) -> (T, D)
Mat normalise(const Mat& x, const RowVec& gain, const RowVec& bias) {
  if (gain.size() != x.cols() || bias.size() != x.cols()) {
    throw_input_error({"LayerNorm gain and bias need ", x.cols(), " entries, one per dimension"});
  }
  Mat y, xhat, rstd;
  ops::layer_norm_forward<float>(x, gain, bias, y, xhat, rstd);
  return y;
}

}  // namespace

EncoderResult encoder_block(const Mat& x, const EncoderWeights& w, const AttentionOptions& opt) {
  const Eigen::Index d = x.cols();
  if (w.w1.rows() != d || w.w2.cols() != d || w.w2.rows() != w.w1.cols() || w.b1.size() != w.w1.cols() ||
      w.b2.size() != d) {
    throw_input_error({"the feed-forward weights do not fit d_model ", d,
                       ": w1 must be (D, F), b1 (F), w2 (F, D), b2 (D)"});
  }
  for (const auto* m : {&w.w1, &w.w2}) require_finite(*m, "the feed-forward weights");
  EncoderResult r;
  r.input = x;
  // 1. multi-head attention: (T, D)
  r.mha = multi_head(x, w.attention, opt);
  // 2. add the residual and normalise
  r.residual1 = x + r.mha.output;
  r.norm1 = normalise(r.residual1, w.ln1_gain, w.ln1_bias);
  // 3. feed-forward: (T, F) hidden with ReLU, back to (T, D)
  ops::matmul_rows<float>(r.norm1, w.w1, r.hidden);
  r.hidden = (r.hidden.rowwise() + w.b1).cwiseMax(0.0f);
  ops::matmul_rows<float>(r.hidden, w.w2, r.ffn);
  r.ffn.rowwise() += w.b2;
  // 4. add the second residual and normalise
  r.residual2 = r.norm1 + r.ffn;
  r.output = normalise(r.residual2, w.ln2_gain, w.ln2_bias);
  for (const Mat* m : {&r.residual1, &r.norm1, &r.hidden, &r.ffn, &r.residual2, &r.output})
    require_finite_result(*m, "the encoder block");
  return r;
}

}  // namespace attn
