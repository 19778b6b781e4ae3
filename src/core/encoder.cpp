// One transformer encoder block with every intermediate kept for display.
#include "encoder.hpp"

#include <cmath>

#include "error.hpp"
#include "ops.hpp"
#include "positions.hpp"
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

LayerWeightsT<float> EncoderWeights::layer() const {
  LayerWeightsT<float> l;
  l.w_qkv = attention.w_qkv;
  l.w_o = attention.w_o;
  l.ln1_gain = ln1_gain, l.ln1_bias = ln1_bias;
  l.w1 = w1, l.b1 = b1, l.w2 = w2, l.b2 = b2;
  l.ln2_gain = ln2_gain, l.ln2_bias = ln2_bias;
  return l;
}

EncoderResult encoder_block(const Mat& x, const EncoderWeights& w, const AttentionOptions& opt) {
  const Eigen::Index d = x.cols();
  if (w.w1.rows() != d || w.w2.cols() != d || w.w2.rows() != w.w1.cols() || w.b1.size() != w.w1.cols() ||
      w.b2.size() != d) {
    throw_input_error({"the feed-forward weights do not fit d_model ", d,
                       ": w1 must be (D, F), b1 (F), w2 (F, D), b2 (D)"});
  }
  for (const auto* m : {&w.w1, &w.w2}) require_finite(*m, "the feed-forward weights");
  const std::vector<int> positions = require_attention_inputs(x, w.attention, opt);  // (T,)
  for (const RowVec* v : {&w.ln1_gain, &w.ln1_bias, &w.ln2_gain, &w.ln2_bias}) {
    if (v->size() != d)
      throw_input_error({"LayerNorm gain and bias need ", d, " entries, one per dimension"});
  }
  // one post-norm transformer layer with a ReLU feed-forward
  TransformerConfig c = attention_layer_config(static_cast<int>(d), w.attention.heads, opt);
  c.norm = Norm::PostLayerNorm;
  c.d_ff = w.d_ff();
  const LayerWeightsT<float> layer = w.layer();
  LayerCapture L;
  layer_forward(c, layer, x, L, &positions);
  require_finite_heads(L, opt.causal);
  EncoderResult r;
  r.input = x;
  r.residual1 = std::move(L.residual1);
  r.norm1 = std::move(L.norm1);
  r.hidden = std::move(L.hidden);
  r.ffn = std::move(L.ffn);
  r.residual2 = std::move(L.residual2);
  r.output = std::move(L.output);
  r.mha = take_heads(L);
  for (const Mat* m : {&r.residual1, &r.norm1, &r.hidden, &r.ffn, &r.residual2, &r.output})
    require_finite_result(*m, "the encoder block");
  return r;
}

}  // namespace attn
