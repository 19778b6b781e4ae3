// The trainable models' parameters: config checks, seeded initialisation, names, shapes and casts.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/train/model.hpp"

namespace attn::train {
namespace {

// (rows, cols) normal(0, scale^2) entries from the seed's stream number `salt`, in scalar S.
template <class S>
MatT<S> normal_matrix(std::uint64_t seed, std::uint64_t salt, int rows, int cols, float scale) {
  Rng rng(mix_seed(seed, salt));
  return rng.normal_matrix(rows, cols, scale).template cast<S>();
}

}  // namespace

const std::vector<Scheme>& trainable_schemes() {
  static const std::vector<Scheme> schemes = schemes_for(kUseRouter);
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
  if (c.norm == Norm::None) throw InputError("the trainable model normalises after or before each layer");
  if (c.norm == Norm::PreLayerNorm && c.output != Output::NextToken) {
    throw InputError("the router normalises after each layer; pre-norm layers are the next-token model's");
  }
  if (c.output == Output::NextToken && (!c.causal || c.classes != c.vocab)) {
    throw_input_error({"a next-token model must be causal and have one class per token (", c.classes,
                       " classes, ", c.vocab, " tokens)"});
  }
  const auto& allowed = trainable_schemes();
  if (std::find(allowed.begin(), allowed.end(), c.positions) == allowed.end()) {
    throw_input_error({"the trainable model cannot use '", scheme_name(c.positions),
                       "' positions; allowed: ", scheme_list(allowed)});
  }
  const long long weights = weight_count(c);
  if (weights > kMaxWeights) {
    throw_input_error({"this model would have ", weights, " weights; allowed: up to ", kMaxWeights,
                       " (make the vocabulary, d_model, d_ff, layers or classes smaller)"});
  }
}

long long weight_count(const ModelConfig& c) {
  const long long d = c.d_model, f = c.d_ff;
  long long n = static_cast<long long>(c.vocab) * d;  // token_embedding (vocab, D)
  if (scheme_def(c.positions).trained_table) n += static_cast<long long>(c.max_len) * d;  // (max_len, D)
  long long layer = 4 * d * d + 2 * d;  // w_qkv, w_o, ln1 gain and bias
  if (const DistanceBuckets* b = scheme_def(c.positions).distance) layer += c.heads * b->buckets;
  if (f > 0) layer += 2 * d * f + f + 3 * d;  // w1, b1, w2, b2, ln2 gain and bias
  n += c.layers * layer;
  if (c.norm == Norm::PreLayerNorm) n += 2 * d;  // the final LayerNorm's gain and bias
  n += (d + 1) * c.classes;                      // classifier w (D, C) and b (1, C)
  return n;
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] Params
// ---------------------------------------------------------------------------------------------------

template <class S>
ParamsT<S> ParamsT<S>::init(const ModelConfig& c, bool seeded) {
  validate_config(c);
  const int d = c.d_model, f = c.d_ff;
  const float proj = 1.0f / std::sqrt(static_cast<float>(d));
  const auto normal = [&](std::uint64_t salt, int rows, int cols, float scale) -> MatT<S> {
    if (!seeded) return MatT<S>::Zero(rows, cols);
    return normal_matrix<S>(c.seed, salt, rows, cols, scale);
  };
  ParamsT<S> p;
  p.token_embedding = normal(1, c.vocab, d, 0.5f);
  if (scheme_def(c.positions).trained_table) p.position_table = normal(2, c.max_len, d, 0.5f);
  for (int l = 0; l < c.layers; ++l) {
    const std::uint64_t salt = 100 + 16 * static_cast<std::uint64_t>(l);
    LayerParamsT<S> lp;
    lp.w_qkv = normal(salt + 0, d, 3 * d, proj);
    lp.w_o = normal(salt + 1, d, d, proj);
    lp.ln1_gain = MatT<S>::Ones(1, d);
    lp.ln1_bias = MatT<S>::Zero(1, d);
    if (scheme_def(c.positions).distance) {  // (H, buckets): the scheme's initial values
      lp.distance_bias = initial_distance_table(scheme_def(c.positions), c.heads).template cast<S>();
      if (!seeded) lp.distance_bias.setZero();
    }
    if (f > 0) {
      lp.w1 = normal(salt + 2, d, f, proj);
      lp.b1 = MatT<S>::Zero(1, f);
      lp.w2 = normal(salt + 3, f, d, 1.0f / std::sqrt(static_cast<float>(f)));
      lp.b2 = MatT<S>::Zero(1, d);
      lp.ln2_gain = MatT<S>::Ones(1, d);
      lp.ln2_bias = MatT<S>::Zero(1, d);
    }
    p.layers.push_back(std::move(lp));
  }
  if (c.norm == Norm::PreLayerNorm) {
    p.final_gain = MatT<S>::Ones(1, d);
    p.final_bias = MatT<S>::Zero(1, d);
  }
  p.classifier_w = normal(3, d, c.classes, proj);
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
    add(p + "distance_bias", lp.distance_bias);
    add(p + "w1", lp.w1);
    add(p + "b1", lp.b1);
    add(p + "w2", lp.w2);
    add(p + "b2", lp.b2);
    add(p + "ln2_gain", lp.ln2_gain);
    add(p + "ln2_bias", lp.ln2_bias);
  }
  add("final_norm.gain", final_gain);
  add("final_norm.bias", final_bias);
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
  if (scheme_def(c.positions).trained_table) out.push_back({"position_table", {c.max_len, d}});
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    out.push_back({p + "w_qkv", {d, 3 * d}});
    out.push_back({p + "w_o", {d, d}});
    out.push_back({p + "ln1_gain", {1, d}});
    out.push_back({p + "ln1_bias", {1, d}});
    if (const DistanceBuckets* b = scheme_def(c.positions).distance)
      out.push_back({p + "distance_bias", {c.heads, b->buckets}});
    if (f > 0) {
      out.push_back({p + "w1", {d, f}});
      out.push_back({p + "b1", {1, f}});
      out.push_back({p + "w2", {f, d}});
      out.push_back({p + "b2", {1, d}});
      out.push_back({p + "ln2_gain", {1, d}});
      out.push_back({p + "ln2_bias", {1, d}});
    }
  }
  if (c.norm == Norm::PreLayerNorm) {
    out.push_back({"final_norm.gain", {1, d}});
    out.push_back({"final_norm.bias", {1, d}});
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
    o.distance_bias = lp.distance_bias.template cast<U>();
    o.w1 = lp.w1.template cast<U>();
    o.b1 = lp.b1.template cast<U>();
    o.w2 = lp.w2.template cast<U>();
    o.b2 = lp.b2.template cast<U>();
    o.ln2_gain = lp.ln2_gain.template cast<U>();
    o.ln2_bias = lp.ln2_bias.template cast<U>();
    out.layers.push_back(std::move(o));
  }
  out.final_gain = final_gain.template cast<U>();
  out.final_bias = final_bias.template cast<U>();
  out.classifier_w = classifier_w.template cast<U>();
  out.classifier_b = classifier_b.template cast<U>();
  return out;
}

template struct ParamsT<float>;
template struct ParamsT<double>;
template ParamsT<double> ParamsT<float>::cast<double>() const;
template ParamsT<float> ParamsT<double>::cast<float>() const;
template ParamsT<float> ParamsT<float>::cast<float>() const;
template ParamsT<double> ParamsT<double>::cast<double>() const;

}  // namespace attn::train
