// The trainable models' forward pass, hand-written backward pass and shape checks (Params live in
// params.cpp).
#include "core/train/model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "core/ops.hpp"

namespace attn::train {
namespace {

bool has_ffn(const ModelConfig& c) {
  return c.d_ff > 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// [SECTION] Model: construction and checks
// ---------------------------------------------------------------------------------------------------

template <class S>
ModelT<S>::ModelT(const ModelConfig& c) : config(c), params(ParamsT<S>::init(c)) {}

template <class S>
ModelT<S>::ModelT(const ModelConfig& c, ParamsT<S> p) : config(c), params(std::move(p)) {
  validate();
}

template <class S>
void ModelT<S>::validate() const {
  const auto expected = ParamsT<S>::expected_shapes(config);
  const auto actual = params.named_tensors();
  size_t i = 0;
  for (const auto& [name, shape] : expected) {
    if (i >= actual.size() || actual[i].first != name) {
      throw_input_error({"the model parameters have no tensor '", name, "' of shape (", shape.first, ", ",
                         shape.second, ")"});
    }
    const auto& m = *actual[i].second;
    if (m.rows() != shape.first || m.cols() != shape.second) {
      throw_input_error({"the tensor '", name, "' has shape (", m.rows(), ", ", m.cols(), "); expected (",
                         shape.first, ", ", shape.second, ")"});
    }
    if (!m.allFinite()) throw_input_error({"the tensor '", name, "' holds a NaN or infinite value"});
    ++i;
  }
  if (i != actual.size()) {
    throw_input_error(
        {"the model parameters have an unexpected tensor '", actual[i].first, "' for this config"});
  }
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] Forward
// ---------------------------------------------------------------------------------------------------

template <class S>
ForwardT<S> ModelT<S>::forward(const std::vector<int>& ids) const {
  ForwardT<S> f;
  forward(ids, f);
  return f;
}

template <class S>
TransformerConfig ModelT<S>::transformer() const {
  TransformerConfig t;
  t.d_model = config.d_model;
  t.heads = config.heads;
  t.layers = config.layers;
  t.d_ff = config.d_ff;
  t.norm = config.norm;
  t.positions = config.positions;
  t.causal = config.causal;
  t.vocab = config.vocab;
  return t;
}

template <class S>
void ModelT<S>::forward(const std::vector<int>& ids, ForwardT<S>& f, const HeadSwitch* off) const {
  const ModelConfig& c = config;
  const SchemeDef& scheme = scheme_def(c.positions);
  const int t = static_cast<int>(ids.size());
  const int d = c.d_model, dk = d / c.heads;
  if (params.token_embedding.rows() != c.vocab || params.token_embedding.cols() != d ||
      static_cast<int>(params.layers.size()) != c.layers || params.classifier_w.cols() != c.classes) {
    throw InputError(
        "the model's weights do not fit its config; build it with Model(config) or Model(config, params)");
  }
  const char* text = c.output == Output::NextToken ? "sequence" : "email";  // what the model reads
  if (t == 0) throw_input_error({"the ", text, " has no tokens; the model needs at least one"});
  if (t > kMaxTokens) throw_input_error({"the ", text, " has ", t, " tokens; allowed: 1 to ", kMaxTokens});
  if (scheme.trained_table && t > c.max_len) {
    throw_input_error({"position ", c.max_len, " is past the end of the learned table: it has ", c.max_len,
                       " slots (positions 0 to ", c.max_len - 1,
                       "); a learned table cannot stretch to longer text (this ", text, " has ", t,
                       " tokens)"});
  }
  for (int i = 0; i < t; ++i) {
    if (ids[static_cast<size_t>(i)] < 0 || ids[static_cast<size_t>(i)] >= c.vocab) {
      throw_input_error({"token id ", ids[static_cast<size_t>(i)], " at position ", i,
                         " is outside the vocabulary of ", c.vocab, " words"});
    }
  }
  f.ids = ids;

  // 1. token embedding + added positions: (T, D), the trained table or the scheme's own
  f.embedded.resize(t, d);
  for (int i = 0; i < t; ++i) f.embedded.row(i) = params.token_embedding.row(ids[static_cast<size_t>(i)]);
  if (scheme.trained_table) {
    f.embedded += params.position_table.topRows(t);
  } else if (scheme.added) {
    if (added_.rows() < t || added_.cols() != d) {
      SchemeArgs args;
      args.d_model = d;
      added_ = added_positions(c.positions, std::max(t, 64), args).template cast<S>();
    }
    f.embedded += added_.topRows(t);
  }
  if (scheme.rotation && (turn_.width != dk || turn_.rows < t)) {
    turn_ = scheme.rotation(dk, range_positions(std::max({t, 64, 2 * turn_.rows})), 10000.0);
  }

  // 2. the transformer's layers
  transformer_forward(transformer(), params.layers, f.embedded, f.layers, off,
                      scheme.rotation ? &turn_ : nullptr);

  // 3. [final LayerNorm] -> mean pool (1, D) -> logits (1, C), or every row (T, D) -> logits (T, C);
  //    probabilities per row
  if (c.norm == Norm::PreLayerNorm) {
    ops::layer_norm_forward(f.layers.back().output, params.final_gain, params.final_bias, f.top, f.final_xhat,
                            f.final_rstd);
  } else {
    f.top = f.layers.back().output;
  }
  const MatT<S>& last = f.top;
  if (c.output == Output::NextToken) {
    f.pooled.resize(0, 0);
    ops::matmul_rows<S>(last, params.classifier_w, f.logits);
    f.logits.rowwise() += params.classifier_b.row(0);
  } else {
    f.pooled = ops::mean_pool(last);
    ops::matmul_rows<S>(f.pooled, params.classifier_w, f.logits);
    f.logits += params.classifier_b;
  }
  ops::softmax_forward(f.logits, f.probs);
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] Backward
// ---------------------------------------------------------------------------------------------------

template <class S>
S ModelT<S>::backward(const ForwardT<S>& f, int label, ParamsT<S>& g, S scale) const {
  const ModelConfig& c = config;
  if (c.output != Output::Classify || c.norm != Norm::PostLayerNorm) {
    throw InputError("backward() trains the post-norm router; a next-token model uses backward_tokens()");
  }
  const int t = f.tokens();
  require_range(label, 0, c.classes - 1, "the label");
  const S loss = ops::cross_entropy(f.logits, label);

  // 1. softmax cross-entropy: dlogits (1, C) = scale * (p - onehot)
  MatT<S> dlogits;
  ops::softmax_cross_entropy_backward(f.probs, label, dlogits);
  dlogits *= scale;
  // 2. linear: logits = pooled W + b
  MatT<S> dw;  // each weight's gradient from this email, added to g's
  ops::matmul_at<S>(f.pooled, dlogits, dw);
  g.classifier_w += dw;
  g.classifier_b += dlogits;
  MatT<S> dpooled;  // (1, D)
  ops::matmul_bt<S>(dlogits, params.classifier_w, dpooled);
  // 3. mean pool: every row gets dpooled / T
  MatT<S> dx = dpooled.replicate(t, 1) / S(t);  // (T, D) gradient of the current layer's output
  backward_layers(f, dx, g);
  return loss;
}

template <class S>
void ModelT<S>::backward_layers(const ForwardT<S>& f, MatT<S>& dx, ParamsT<S>& g) const {
  const ModelConfig& c = config;
  MatT<S> dnorm1, dres, din;
  for (int l = c.layers - 1; l >= 0; --l) {
    const LayerParamsT<S>& p = params.layers[static_cast<size_t>(l)];
    LayerParamsT<S>& gp = g.layers[static_cast<size_t>(l)];
    const LayerForwardT<S>& L = f.layers[static_cast<size_t>(l)];
    // 4. optional feed-forward and its LayerNorm
    if (has_ffn(c)) {
      ops::layer_norm_backward(dx, L.xhat2, L.rstd2, p.ln2_gain, dres, gp.ln2_gain, gp.ln2_bias);  // dres2
      backward_ffn(L, p, gp, dres, L.norm1, dnorm1);
      dnorm1 += dres;  // the residual path
    } else {
      dnorm1 = dx;
    }
    // 5. LayerNorm 1: dres1 (T, D)
    ops::layer_norm_backward(dnorm1, L.xhat1, L.rstd1, p.ln1_gain, dres, gp.ln1_gain, gp.ln1_bias);
    // 6-9. residual1 = x + attention(x): the residual path and the heads
    backward_attention(L, p, gp, dres, L.input, din);
    dx = dres + din;
  }
  // 10. embeddings: scatter-add each row to its token (and, with a trained table, to its slot)
  backward_embeddings(f, dx, g);
}

template <class S>
void ModelT<S>::backward_ffn(const LayerForwardT<S>& L, const LayerParamsT<S>& p, LayerParamsT<S>& gp,
                             const MatT<S>& dffn, const MatT<S>& in, MatT<S>& din) const {
  // ffn = ReLU(in W1 + b1) W2 + b2: dffn (T, D) -> weight gradients and din (T, D)
  MatT<S> dw, dhidden;
  ops::matmul_at<S>(L.hidden, dffn, dw);
  gp.w2 += dw;
  gp.b2 += dffn.colwise().sum();
  ops::matmul_bt<S>(dffn, p.w2, dhidden);
  dhidden = (L.hidden.array() > S(0)).select(dhidden, S(0));  // ReLU
  ops::matmul_at<S>(in, dhidden, dw);
  gp.w1 += dw;
  gp.b1 += dhidden.colwise().sum();
  ops::matmul_bt<S>(dhidden, p.w1, din);
}

template <class S>
void ModelT<S>::backward_attention(const LayerForwardT<S>& L, const LayerParamsT<S>& p, LayerParamsT<S>& gp,
                                   const MatT<S>& dres, const MatT<S>& in, MatT<S>& din) const {
  const ModelConfig& c = config;
  const int t = static_cast<int>(in.rows()), d = c.d_model, h_count = c.heads, dk = d / h_count;
  MatT<S> dw, dconcat, dqkv, q, k, v, dout, dq, dk_, dv, dscores;
  const DistanceBuckets* buckets = scheme_def(c.positions).distance;
  std::vector<int> bucket_at;  // (2T - 1,): the bucket of distance j - i at j - i + T - 1
  for (int gap = -(t - 1); buckets && gap <= t - 1; ++gap)
    bucket_at.push_back(buckets->bucket(gap, c.causal));
  // 6. attention = concat W_o
  ops::matmul_at<S>(L.concat, dres, dw);
  gp.w_o += dw;
  ops::matmul_bt<S>(dres, p.w_o, dconcat);
  // 7. each head: dq, dk, dv into their slices of dqkv (T, 3D)
  dqkv.resize(t, 3 * d);
  for (int h = 0; h < h_count; ++h) {
    q = L.qkv.middleCols(h * dk, dk);
    k = L.qkv.middleCols(d + h * dk, dk);
    v = L.qkv.middleCols(2 * d + h * dk, dk);
    dout = dconcat.middleCols(h * dk, dk);
    if (L.off[static_cast<size_t>(h)]) dout.setZero();  // a switched-off head passes no gradient
    ops::attention_backward(q, k, v, L.weights[static_cast<size_t>(h)], dout, dq, dk_, dv,
                            buckets ? &dscores : nullptr);
    if (buckets) {  // the scheme's trained bias: each score's gradient to its distance's bucket
      for (int i = 0; i < t; ++i) {
        for (int j = 0; j < t; ++j)
          gp.distance_bias(h, bucket_at[static_cast<size_t>(j - i + t - 1)]) += dscores(i, j);
      }
    }
    dqkv.middleCols(h * dk, dk) = dq;
    dqkv.middleCols(d + h * dk, dk) = dk_;
    dqkv.middleCols(2 * d + h * dk, dk) = dv;
  }
  // 8. the scheme's rotation backward: turn the gradients of q and k back by the same angles
  if (scheme_def(c.positions).rotation) {
    for (int h = 0; h < h_count; ++h) {
      ops::rope_rotate(dqkv, h * dk, dk, turn_, true);
      ops::rope_rotate(dqkv, d + h * dk, dk, turn_, true);
    }
  }
  // 9. qkv = in W_qkv
  ops::matmul_at<S>(in, dqkv, dw);
  gp.w_qkv += dw;
  ops::matmul_bt<S>(dqkv, p.w_qkv, din);
}

template <class S>
void ModelT<S>::backward_embeddings(const ForwardT<S>& f, const MatT<S>& dx, ParamsT<S>& g) const {
  const int t = f.tokens();
  for (int i = 0; i < t; ++i) g.token_embedding.row(f.ids[static_cast<size_t>(i)]) += dx.row(i);
  if (scheme_def(config.positions).trained_table) g.position_table.topRows(t) += dx;
}

template <class S>
S ModelT<S>::loss(const std::vector<int>& ids, int label) const {
  require_range(label, 0, config.classes - 1, "the label");
  return ops::cross_entropy(forward(ids).logits, label);
}

template <class S>
PredictionT<S> ModelT<S>::predict(const std::vector<int>& ids, const HeadSwitch* off) const {
  ForwardT<S> f;
  forward(ids, f, off);
  PredictionT<S> p;
  p.probabilities.assign(f.probs.data(), f.probs.data() + f.probs.size());
  for (int cl = 1; cl < config.classes; ++cl) {
    if (f.probs(0, cl) > f.probs(0, p.label)) p.label = cl;
  }
  p.confidence = f.probs(0, p.label);
  for (const auto& L : f.layers) p.weights.push_back(L.weights);
  return p;
}

template class ModelT<float>;
template class ModelT<double>;

}  // namespace attn::train
