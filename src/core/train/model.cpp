// The refund router's forward pass, hand-written backward pass, seeded initialisation and checks.
#include "core/train/model.hpp"

#include <cmath>
#include <string>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/train/layers.hpp"

namespace attn::train {
namespace {

std::string shape_text(Eigen::Index rows, Eigen::Index cols) {
  return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

template <class S>
MatT<S> normal(std::uint64_t seed, std::uint64_t salt, int rows, int cols, float scale) {
  Rng rng(mix_seed(seed, salt));
  return rng.normal_matrix(rows, cols, scale).template cast<S>();
}

bool has_ffn(const ModelConfig& c) {
  return c.d_ff > 0;
}

}  // namespace

const std::vector<Scheme>& trainable_schemes() {
  static const std::vector<Scheme> schemes = {Scheme::None, Scheme::Sinusoidal, Scheme::Learned,
                                              Scheme::Rope};
  return schemes;
}

void validate_config(const ModelConfig& c) {
  require_range(c.d_model, 1, 1024, "d_model");
  require_range(c.heads, 1, c.d_model, "the number of heads");
  head_dim(c.d_model, c.heads);  // "32 is not divisible by 5 heads ..."
  require_range(c.layers, 1, 8, "the number of layers");
  require_range(c.d_ff, 0, 4096, "the feed-forward width d_ff (0 for none)");
  require_range(c.vocab, 1, 1000000, "the vocabulary size");
  require_range(c.classes, 2, 100000, "the number of classes");
  require_range(c.max_len, 1, kMaxTokens, "the number of learned position slots");
  if (c.positions != Scheme::None && c.positions != Scheme::Sinusoidal && c.positions != Scheme::Learned &&
      c.positions != Scheme::Rope) {
    throw InputError("the trainable model cannot use '" + scheme_name(c.positions) +
                     "' positions; allowed: none|sinusoidal|learned|rope");
  }
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] Params
// ---------------------------------------------------------------------------------------------------

template <class S>
ParamsT<S> ParamsT<S>::init(const ModelConfig& c) {
  validate_config(c);
  const int d = c.d_model, f = c.d_ff;
  const float proj = 1.0f / std::sqrt(static_cast<float>(d));
  ParamsT<S> p;
  p.token_embedding = normal<S>(c.seed, 1, c.vocab, d, 0.5f);
  if (c.positions == Scheme::Learned) p.position_table = normal<S>(c.seed, 2, c.max_len, d, 0.5f);
  for (int l = 0; l < c.layers; ++l) {
    const std::uint64_t salt = 100 + 16 * static_cast<std::uint64_t>(l);
    LayerParamsT<S> lp;
    lp.w_qkv = normal<S>(c.seed, salt + 0, d, 3 * d, proj);
    lp.w_o = normal<S>(c.seed, salt + 1, d, d, proj);
    lp.ln1_gain = MatT<S>::Ones(1, d);
    lp.ln1_bias = MatT<S>::Zero(1, d);
    if (f > 0) {
      lp.w1 = normal<S>(c.seed, salt + 2, d, f, proj);
      lp.b1 = MatT<S>::Zero(1, f);
      lp.w2 = normal<S>(c.seed, salt + 3, f, d, 1.0f / std::sqrt(static_cast<float>(f)));
      lp.b2 = MatT<S>::Zero(1, d);
      lp.ln2_gain = MatT<S>::Ones(1, d);
      lp.ln2_bias = MatT<S>::Zero(1, d);
    }
    p.layers.push_back(std::move(lp));
  }
  p.classifier_w = normal<S>(c.seed, 3, d, c.classes, proj);
  p.classifier_b = MatT<S>::Zero(1, c.classes);
  return p;
}

template <class S>
std::vector<std::pair<std::string, MatT<S>*>> ParamsT<S>::named_tensors() {
  std::vector<std::pair<std::string, MatT<S>*>> out;
  auto add = [&out](const std::string& name, MatT<S>& m) {
    if (m.size() > 0) out.emplace_back(name, &m);
  };
  add("token_embedding", token_embedding);
  add("position_table", position_table);
  for (size_t l = 0; l < layers.size(); ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    LayerParamsT<S>& lp = layers[l];
    add(p + "w_qkv", lp.w_qkv);
    add(p + "w_o", lp.w_o);
    add(p + "ln1_gain", lp.ln1_gain);
    add(p + "ln1_bias", lp.ln1_bias);
    add(p + "w1", lp.w1);
    add(p + "b1", lp.b1);
    add(p + "w2", lp.w2);
    add(p + "b2", lp.b2);
    add(p + "ln2_gain", lp.ln2_gain);
    add(p + "ln2_bias", lp.ln2_bias);
  }
  add("classifier.w", classifier_w);
  add("classifier.b", classifier_b);
  return out;
}

template <class S>
std::vector<std::pair<std::string, const MatT<S>*>> ParamsT<S>::named_tensors() const {
  std::vector<std::pair<std::string, const MatT<S>*>> out;
  for (auto& [name, m] : const_cast<ParamsT<S>*>(this)->named_tensors()) out.emplace_back(name, m);
  return out;
}

template <class S>
std::vector<std::pair<std::string, std::pair<int, int>>> ParamsT<S>::expected_shapes(const ModelConfig& c) {
  validate_config(c);
  const int d = c.d_model, f = c.d_ff;
  std::vector<std::pair<std::string, std::pair<int, int>>> out;
  out.push_back({"token_embedding", {c.vocab, d}});
  if (c.positions == Scheme::Learned) out.push_back({"position_table", {c.max_len, d}});
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    out.push_back({p + "w_qkv", {d, 3 * d}});
    out.push_back({p + "w_o", {d, d}});
    out.push_back({p + "ln1_gain", {1, d}});
    out.push_back({p + "ln1_bias", {1, d}});
    if (f > 0) {
      out.push_back({p + "w1", {d, f}});
      out.push_back({p + "b1", {1, f}});
      out.push_back({p + "w2", {f, d}});
      out.push_back({p + "b2", {1, d}});
      out.push_back({p + "ln2_gain", {1, d}});
      out.push_back({p + "ln2_bias", {1, d}});
    }
  }
  out.push_back({"classifier.w", {d, c.classes}});
  out.push_back({"classifier.b", {1, c.classes}});
  return out;
}

template <class S>
ParamsT<S> ParamsT<S>::zeros_like() const {
  ParamsT<S> z = *this;
  z.set_zero();
  return z;
}

template <class S>
void ParamsT<S>::set_zero() {
  for (auto& nt : named_tensors()) nt.second->setZero();
}

template <class S>
long long ParamsT<S>::parameter_count() const {
  long long n = 0;
  for (const auto& nt : named_tensors()) n += nt.second->size();
  return n;
}

template <class S>
template <class U>
ParamsT<U> ParamsT<S>::cast() const {
  ParamsT<U> out;
  out.token_embedding = token_embedding.template cast<U>();
  out.position_table = position_table.template cast<U>();
  for (const auto& lp : layers) {
    LayerParamsT<U> o;
    o.w_qkv = lp.w_qkv.template cast<U>();
    o.w_o = lp.w_o.template cast<U>();
    o.ln1_gain = lp.ln1_gain.template cast<U>();
    o.ln1_bias = lp.ln1_bias.template cast<U>();
    o.w1 = lp.w1.template cast<U>();
    o.b1 = lp.b1.template cast<U>();
    o.w2 = lp.w2.template cast<U>();
    o.b2 = lp.b2.template cast<U>();
    o.ln2_gain = lp.ln2_gain.template cast<U>();
    o.ln2_bias = lp.ln2_bias.template cast<U>();
    out.layers.push_back(std::move(o));
  }
  out.classifier_w = classifier_w.template cast<U>();
  out.classifier_b = classifier_b.template cast<U>();
  return out;
}

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
      throw InputError("the model parameters have no tensor '" + name + "' of shape " +
                       shape_text(shape.first, shape.second));
    }
    const auto& m = *actual[i].second;
    if (m.rows() != shape.first || m.cols() != shape.second) {
      throw InputError("the tensor '" + name + "' has shape " + shape_text(m.rows(), m.cols()) +
                       "; expected " + shape_text(shape.first, shape.second));
    }
    if (!m.allFinite()) throw InputError("the tensor '" + name + "' holds a NaN or infinite value");
    ++i;
  }
  if (i != actual.size()) {
    throw InputError("the model parameters have an unexpected tensor '" + actual[i].first +
                     "' for this config");
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
void ModelT<S>::forward(const std::vector<int>& ids, ForwardT<S>& f) const {
  const ModelConfig& c = config;
  const int t = static_cast<int>(ids.size());
  const int d = c.d_model, h_count = c.heads, dk = d / h_count;
  if (params.token_embedding.rows() != c.vocab || params.token_embedding.cols() != d ||
      static_cast<int>(params.layers.size()) != c.layers || params.classifier_w.cols() != c.classes) {
    throw InputError(
        "the model's weights do not fit its config; build it with Model(config) or Model(config, params)");
  }
  if (t == 0) throw InputError("the email has no tokens; the model needs at least one");
  if (t > kMaxTokens) {
    throw InputError("the email has " + std::to_string(t) + " tokens; allowed: 1 to " +
                     std::to_string(kMaxTokens));
  }
  if (c.positions == Scheme::Learned && t > c.max_len) {
    throw InputError(
        "position " + std::to_string(c.max_len) + " is past the end of the learned table: it has " +
        std::to_string(c.max_len) + " slots (positions 0 to " + std::to_string(c.max_len - 1) +
        "); a learned table cannot stretch to longer text (this email has " + std::to_string(t) + " tokens)");
  }
  for (int i = 0; i < t; ++i) {
    if (ids[static_cast<size_t>(i)] < 0 || ids[static_cast<size_t>(i)] >= c.vocab) {
      throw InputError("token id " + std::to_string(ids[static_cast<size_t>(i)]) + " at position " +
                       std::to_string(i) + " is outside the vocabulary of " + std::to_string(c.vocab) +
                       " words");
    }
  }
  f.ids = ids;

  // 1. token embedding + added positions: (T, D)
  f.embedded.resize(t, d);
  for (int i = 0; i < t; ++i) f.embedded.row(i) = params.token_embedding.row(ids[static_cast<size_t>(i)]);
  if (c.positions == Scheme::Sinusoidal) {
    if (sinusoid_.rows() < t || sinusoid_.cols() != d) {
      sinusoid_ = Sinusoidal(d).table(range_positions(std::max(t, 64))).template cast<S>();
    }
    f.embedded += sinusoid_.topRows(t);
  } else if (c.positions == Scheme::Learned) {
    f.embedded += params.position_table.topRows(t);
  } else if (c.positions == Scheme::Rope) {
    rope_.ensure(dk, t);
  }

  // 2. the attention layers
  f.layers.resize(static_cast<size_t>(c.layers));
  MatT<S> q, k, v, out;
  for (int l = 0; l < c.layers; ++l) {
    const LayerParamsT<S>& p = params.layers[static_cast<size_t>(l)];
    LayerForwardT<S>& L = f.layers[static_cast<size_t>(l)];
    L.input = l == 0 ? f.embedded : f.layers[static_cast<size_t>(l - 1)].output;
    // 2a. all heads' q, k, v: (T, 3D); RoPE turns each head's q and k by the token's position
    ops::matmul_rows(L.input, p.w_qkv, L.qkv);
    if (c.positions == Scheme::Rope) {
      for (int h = 0; h < h_count; ++h) {
        ops::rope_rotate(L.qkv, h * dk, dk, rope_, false);
        ops::rope_rotate(L.qkv, d + h * dk, dk, rope_, false);
      }
    }
    // 2b. each head attends in its d_k-wide slice; outputs side by side (T, D)
    L.weights.resize(static_cast<size_t>(h_count));
    L.concat.resize(t, d);
    for (int h = 0; h < h_count; ++h) {
      q = L.qkv.middleCols(h * dk, dk);
      k = L.qkv.middleCols(d + h * dk, dk);
      v = L.qkv.middleCols(2 * d + h * dk, dk);
      ops::attention_head_forward(q, k, v, c.causal, L.weights[static_cast<size_t>(h)], out);
      L.concat.middleCols(h * dk, dk) = out;
    }
    // 2c. W_o, residual, LayerNorm
    ops::matmul_rows(L.concat, p.w_o, L.residual1);
    L.residual1 += L.input;
    ops::layer_norm_forward(L.residual1, p.ln1_gain, p.ln1_bias, L.norm1, L.xhat1, L.rstd1);
    // 2d. optional feed-forward: ReLU(norm1 W1 + b1) W2 + b2, residual, LayerNorm
    if (has_ffn(c)) {
      ops::matmul_rows(L.norm1, p.w1, L.hidden);
      L.hidden.rowwise() += p.b1.row(0);
      L.hidden = L.hidden.cwiseMax(S(0));
      ops::matmul_rows(L.hidden, p.w2, L.residual2);
      L.residual2.rowwise() += p.b2.row(0);
      L.residual2 += L.norm1;
      ops::layer_norm_forward(L.residual2, p.ln2_gain, p.ln2_bias, L.output, L.xhat2, L.rstd2);
    } else {
      L.output = L.norm1;
    }
  }

  // 3. mean pool (1, D) -> logits (1, C) -> probabilities
  const MatT<S>& last = f.layers.back().output;
  // (summed in double so that the token order does not change the rounding)
  f.pooled = (last.template cast<double>().colwise().sum() / static_cast<double>(t)).template cast<S>();
  f.logits = f.pooled * params.classifier_w + params.classifier_b;
  ops::softmax_forward(f.logits, f.probs);
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] Backward
// ---------------------------------------------------------------------------------------------------

template <class S>
S ModelT<S>::backward(const ForwardT<S>& f, int label, ParamsT<S>& g, S scale) const {
  const ModelConfig& c = config;
  const int t = f.tokens(), d = c.d_model, h_count = c.heads, dk = d / h_count;
  require_range(label, 0, c.classes - 1, "the label");
  const S max_logit = f.logits.maxCoeff();
  const S loss = std::log((f.logits.array() - max_logit).exp().sum()) + max_logit - f.logits(0, label);

  // 1. softmax cross-entropy: dlogits (1, C) = scale * (p - onehot)
  MatT<S> dlogits;
  ops::softmax_cross_entropy_backward(f.probs, label, dlogits);
  dlogits *= scale;
  // 2. linear: logits = pooled W + b
  g.classifier_w.noalias() += f.pooled.transpose() * dlogits;
  g.classifier_b += dlogits;
  const MatT<S> dpooled = dlogits * params.classifier_w.transpose();  // (1, D)
  // 3. mean pool: every row gets dpooled / T
  MatT<S> dx = dpooled.replicate(t, 1) / S(t);  // (T, D) gradient of the current layer's output

  MatT<S> dnorm1, dres, dhidden, dconcat, dqkv, q, k, v, dout, dq, dk_, dv;
  for (int l = c.layers - 1; l >= 0; --l) {
    const LayerParamsT<S>& p = params.layers[static_cast<size_t>(l)];
    LayerParamsT<S>& gp = g.layers[static_cast<size_t>(l)];
    const LayerForwardT<S>& L = f.layers[static_cast<size_t>(l)];
    // 4. optional feed-forward and its LayerNorm
    if (has_ffn(c)) {
      ops::layer_norm_backward(dx, L.xhat2, L.rstd2, p.ln2_gain, dres, gp.ln2_gain, gp.ln2_bias);  // dres2
      gp.w2.noalias() += L.hidden.transpose() * dres;
      gp.b2 += dres.colwise().sum();
      dhidden.noalias() = dres * p.w2.transpose();
      dhidden = (L.hidden.array() > S(0)).select(dhidden, S(0));  // ReLU
      gp.w1.noalias() += L.norm1.transpose() * dhidden;
      gp.b1 += dhidden.colwise().sum();
      dnorm1 = dres;  // the residual path
      dnorm1.noalias() += dhidden * p.w1.transpose();
    } else {
      dnorm1 = dx;
    }
    // 5. LayerNorm 1: dres1 (T, D)
    ops::layer_norm_backward(dnorm1, L.xhat1, L.rstd1, p.ln1_gain, dres, gp.ln1_gain, gp.ln1_bias);
    // 6. residual1 = x + concat W_o
    gp.w_o.noalias() += L.concat.transpose() * dres;
    dconcat.noalias() = dres * p.w_o.transpose();
    dx = dres;  // the residual path
    // 7. each head: dq, dk, dv into their slices of dqkv (T, 3D)
    dqkv.resize(t, 3 * d);
    for (int h = 0; h < h_count; ++h) {
      q = L.qkv.middleCols(h * dk, dk);
      k = L.qkv.middleCols(d + h * dk, dk);
      v = L.qkv.middleCols(2 * d + h * dk, dk);
      dout = dconcat.middleCols(h * dk, dk);
      ops::attention_head_backward(q, k, v, L.weights[static_cast<size_t>(h)], dout, dq, dk_, dv);
      dqkv.middleCols(h * dk, dk) = dq;
      dqkv.middleCols(d + h * dk, dk) = dk_;
      dqkv.middleCols(2 * d + h * dk, dk) = dv;
    }
    // 8. RoPE backward: turn the gradients of q and k back by the same angles
    if (c.positions == Scheme::Rope) {
      for (int h = 0; h < h_count; ++h) {
        ops::rope_rotate(dqkv, h * dk, dk, rope_, true);
        ops::rope_rotate(dqkv, d + h * dk, dk, rope_, true);
      }
    }
    // 9. qkv = x W_qkv
    gp.w_qkv.noalias() += L.input.transpose() * dqkv;
    dx.noalias() += dqkv * p.w_qkv.transpose();
  }

  // 10. embeddings: scatter-add each row to its token (and, learned, to its slot)
  for (int i = 0; i < t; ++i) g.token_embedding.row(f.ids[static_cast<size_t>(i)]) += dx.row(i);
  if (c.positions == Scheme::Learned) g.position_table.topRows(t) += dx;
  return loss;
}

template <class S>
S ModelT<S>::loss(const std::vector<int>& ids, int label) const {
  require_range(label, 0, config.classes - 1, "the label");
  const ForwardT<S> f = forward(ids);
  MatT<S> probs;
  return ops::softmax_cross_entropy(f.logits, label, probs);
}

template <class S>
PredictionT<S> ModelT<S>::predict(const std::vector<int>& ids) const {
  const ForwardT<S> f = forward(ids);
  PredictionT<S> p;
  p.probabilities.assign(f.probs.data(), f.probs.data() + f.probs.size());
  for (int cl = 1; cl < config.classes; ++cl) {
    if (f.probs(0, cl) > f.probs(0, p.label)) p.label = cl;
  }
  p.confidence = f.probs(0, p.label);
  for (const auto& L : f.layers) p.weights.push_back(L.weights);
  return p;
}

template struct ParamsT<float>;
template struct ParamsT<double>;
template ParamsT<double> ParamsT<float>::cast<double>() const;
template ParamsT<float> ParamsT<double>::cast<float>() const;
template ParamsT<float> ParamsT<float>::cast<float>() const;
template ParamsT<double> ParamsT<double>::cast<double>() const;
template class ModelT<float>;
template class ModelT<double>;

}  // namespace attn::train
