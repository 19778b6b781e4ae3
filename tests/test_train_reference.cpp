// train::Model::forward (float) against an independent float64 reference, layer by layer: every
// intermediate the model keeps, for each position scheme the trainer supports, on a few emails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/train/data.hpp"
#include "core/train/model.hpp"
#include "core/train/vocab.hpp"
#include "fixtures.hpp"
#include "reference.hpp"

namespace {

namespace tr = attn::train;
using ref::MatD;

// The float forward against float64: |core - reference| <= atol + rtol * |reference| for every entry.
constexpr double kAtol = 1e-5;
constexpr double kRtol = 1e-4;

// ---------------------------------------------------------------------------------------------------
// [SECTION] The float64 reference of the trainable router (plain loops and tests/reference.cpp)
// ---------------------------------------------------------------------------------------------------

struct RefNorm {
  MatD y, xhat, rstd;  // (T, D), (T, D), (T, 1)
};

// Each row: xhat = (x - mean) / sqrt(population variance + 1e-5), y = xhat * gain + bias.
RefNorm layer_norm(const MatD& x, const MatD& gain, const MatD& bias) {
  RefNorm n{MatD(x.rows(), x.cols()), MatD(x.rows(), x.cols()), MatD(x.rows(), 1)};
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double mean = 0, var = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) mean += x(i, j) / static_cast<double>(x.cols());
    for (Eigen::Index j = 0; j < x.cols(); ++j) var += (x(i, j) - mean) * (x(i, j) - mean);
    n.rstd(i, 0) = 1.0 / std::sqrt(var / static_cast<double>(x.cols()) + 1e-5);
    for (Eigen::Index j = 0; j < x.cols(); ++j) n.xhat(i, j) = (x(i, j) - mean) * n.rstd(i, 0);
  }
  n.y = ref::layer_norm(x, gain, bias, 1e-5);
  return n;
}

// x (T, N) + b (1, N) on every row.
MatD add_row(MatD x, const MatD& b) {
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) += b(0, j);
  return x;
}

struct RefLayer {
  MatD input, qkv;                             // (T, D), (T, 3D) with q and k rotated for RoPE
  std::vector<MatD> scores, weights, outputs;  // per head (T, T), (T, T), (T, d_k)
  MatD concat, residual1, norm1, hidden, residual2, output;
  RefNorm ln1, ln2;
};

struct RefForward {
  MatD embedded;  // (T, D)
  std::vector<RefLayer> layers;
  MatD pooled, logits, probs;  // (1, D), (1, C), (1, C)
};

RefLayer reference_layer(const MatD& x, const tr::ModelConfig& c, const tr::LayerParams& p) {
  const auto t = x.rows();
  const int d = c.d_model, dk = c.d_model / c.heads;
  const std::vector<int> pos = ref::iota(static_cast<int>(t));
  RefLayer L;
  L.input = x;
  // 1. q, k, v for every head (T, 3D); RoPE turns each head's q and k
  L.qkv = ref::matmul(x, ref::to_double(p.w_qkv));
  if (c.positions == attn::Scheme::Rope) {
    for (int h = 0; h < c.heads; ++h) {
      for (int block : {0, d}) {
        const MatD m = L.qkv.block(0, block + h * dk, t, dk);
        L.qkv.block(0, block + h * dk, t, dk) = ref::rope_rotate(m, pos, 10000.0);
      }
    }
  }
  // 2. each head: q.k / sqrt(d_k) (+ ALiBi's or the relative scheme's bias), causal mask, softmax, blend
  L.concat = MatD(t, d);
  for (int h = 0; h < c.heads; ++h) {
    MatD bias = c.positions == attn::Scheme::Alibi ? ref::alibi_bias(pos, h, c.heads) : MatD::Zero(t, t);
    if (c.positions == attn::Scheme::Relative)
      bias = ref::relative_bias(pos, ref::to_double(p.distance_bias).row(h), c.causal);
    MatD s(t, t);
    for (Eigen::Index i = 0; i < t; ++i) {
      for (Eigen::Index j = 0; j < t; ++j) {
        double dot = 0;
        for (int e = 0; e < dk; ++e) dot += L.qkv(i, h * dk + e) * L.qkv(j, d + h * dk + e);
        s(i, j) = c.causal && j > i ? -std::numeric_limits<double>::infinity()
                                    : dot / std::sqrt(double(dk)) + bias(i, j);
      }
    }
    L.scores.push_back(s);
    L.weights.push_back(ref::softmax_rows(s));
    L.outputs.push_back(ref::matmul(L.weights.back(), L.qkv.block(0, 2 * d + h * dk, t, dk)));
    L.concat.block(0, h * dk, t, dk) = L.outputs.back();
  }
  // 3. W_o, residual, LayerNorm
  L.residual1 = x + ref::matmul(L.concat, ref::to_double(p.w_o));
  L.ln1 = layer_norm(L.residual1, ref::to_double(p.ln1_gain), ref::to_double(p.ln1_bias));
  L.norm1 = L.ln1.y;
  L.output = L.norm1;
  // 4. feed-forward ReLU(norm1 W1 + b1) W2 + b2, residual, LayerNorm
  if (c.d_ff > 0) {
    L.hidden = add_row(ref::matmul(L.norm1, ref::to_double(p.w1)), ref::to_double(p.b1)).cwiseMax(0.0);
    L.residual2 = L.norm1 + add_row(ref::matmul(L.hidden, ref::to_double(p.w2)), ref::to_double(p.b2));
    L.ln2 = layer_norm(L.residual2, ref::to_double(p.ln2_gain), ref::to_double(p.ln2_bias));
    L.output = L.ln2.y;
  }
  return L;
}

RefForward reference_forward(const tr::Model& m, const std::vector<int>& ids) {
  const tr::ModelConfig& c = m.config;
  const auto t = static_cast<Eigen::Index>(ids.size());
  RefForward f;
  // 1. token embedding + added positions (T, D)
  f.embedded = MatD(t, c.d_model);
  for (Eigen::Index i = 0; i < t; ++i) {
    f.embedded.row(i) = ref::to_double(m.params.token_embedding).row(ids[static_cast<size_t>(i)]);
  }
  if (c.positions == attn::Scheme::Sinusoidal) f.embedded += ref::sinusoidal(ref::iota(int(t)), c.d_model);
  if (c.positions == attn::Scheme::Learned) f.embedded += ref::to_double(m.params.position_table).topRows(t);
  // 2. the layers
  MatD x = f.embedded;
  for (const tr::LayerParams& p : m.params.layers) {
    f.layers.push_back(reference_layer(x, c, p));
    x = f.layers.back().output;
  }
  // 3. mean pool (1, D), logits (1, C), softmax
  f.pooled = MatD::Zero(1, c.d_model);
  for (Eigen::Index i = 0; i < t; ++i) f.pooled += x.row(i) / static_cast<double>(t);
  f.logits = add_row(ref::matmul(f.pooled, ref::to_double(m.params.classifier_w)),
                     ref::to_double(m.params.classifier_b));
  f.probs = ref::softmax_rows(f.logits);
  return f;
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] The comparison
// ---------------------------------------------------------------------------------------------------

// The largest difference seen over every tensor of a run, and where.
struct Worst {
  double diff = 0;
  std::string where;
  int tensors = 0;
};

void expect_close(const std::string& name, const attn::Mat& core, const MatD& expected, Worst& worst) {
  EXPECT_TRUE(ref::allclose(core, expected, kAtol, kRtol)) << name;
  if (core.rows() != expected.rows() || core.cols() != expected.cols()) return;
  const double diff = ref::max_abs_diff(ref::to_double(core), expected);
  ++worst.tensors;
  if (diff > worst.diff || worst.where.empty()) worst = {diff, name, worst.tensors};
}

void compare_forward(const tr::Model& m, const std::vector<int>& ids, const std::string& email,
                     Worst& worst) {
  const tr::Forward f = m.forward(ids);
  const RefForward r = reference_forward(m, ids);
  const tr::ModelConfig& c = m.config;
  const int t = static_cast<int>(ids.size()), dk = c.d_model / c.heads;
  ASSERT_EQ(f.tokens(), t);
  ASSERT_EQ(f.layers.size(), r.layers.size());
  expect_close(email + " embedded", f.embedded, r.embedded, worst);
  for (size_t l = 0; l < f.layers.size(); ++l) {
    const tr::LayerForwardT<float>& L = f.layers[l];
    const RefLayer& R = r.layers[l];
    const std::string at = email + " layer " + std::to_string(l) + " ";
    expect_close(at + "input", L.input, R.input, worst);
    expect_close(at + "qkv", L.qkv, R.qkv, worst);
    ASSERT_EQ(static_cast<int>(L.scores.size()), c.heads);
    ASSERT_EQ(static_cast<int>(L.weights.size()), c.heads);
    for (int h = 0; h < c.heads; ++h) {
      const std::string head = at + "head " + std::to_string(h) + " ";
      expect_close(head + "scores", L.scores[static_cast<size_t>(h)], R.scores[static_cast<size_t>(h)],
                   worst);
      expect_close(head + "weights", L.weights[static_cast<size_t>(h)], R.weights[static_cast<size_t>(h)],
                   worst);
      expect_close(head + "output", L.concat.middleCols(h * dk, dk), R.outputs[static_cast<size_t>(h)],
                   worst);
    }
    expect_close(at + "concat", L.concat, R.concat, worst);
    expect_close(at + "residual1", L.residual1, R.residual1, worst);
    expect_close(at + "xhat1", L.xhat1, R.ln1.xhat, worst);
    expect_close(at + "rstd1", L.rstd1, R.ln1.rstd, worst);
    expect_close(at + "norm1", L.norm1, R.norm1, worst);
    if (c.d_ff > 0) {
      expect_close(at + "hidden", L.hidden, R.hidden, worst);
      expect_close(at + "residual2", L.residual2, R.residual2, worst);
      expect_close(at + "xhat2", L.xhat2, R.ln2.xhat, worst);
      expect_close(at + "rstd2", L.rstd2, R.ln2.rstd, worst);
    }
    expect_close(at + "output", L.output, R.output, worst);
  }
  expect_close(email + " pooled", f.pooled, r.pooled, worst);
  expect_close(email + " logits", f.logits, r.logits, worst);
  expect_close(email + " probs", f.probs, r.probs, worst);
}

const tr::Dataset& data() {
  static const tr::Dataset d = tr::make_refund_dataset();
  return d;
}

// A model of `c` with generic weights: every LayerNorm gain and bias and every bias moved off 1 and 0.
tr::Model model_for(tr::ModelConfig c) {
  c.vocab = tr::Vocab::build(data()).size();
  c.classes = data().classes();
  tr::Model m(c);
  std::uint64_t seed = 100;
  for (auto& [name, t] : m.params.named_tensors()) {
    if (t->rows() == 1) *t += ref::to_float(ref::random_matrix(1, static_cast<int>(t->cols()), ++seed, 0.3));
  }
  return m;
}

// A few emails: a training email and its order-flipped twin, a held-out one, one with an unknown word,
// one token, and an email made 20 tokens longer.
std::vector<std::pair<std::string, std::vector<int>>> emails() {
  const tr::Vocab vocab = tr::Vocab::build(data());
  const tr::Example& e = data().train.front();
  std::string twin;
  for (const tr::Example& x : data().train) {
    if (x.pair == e.pair && x.template_id == e.template_id && x.order != e.order) twin = x.text;
  }
  const std::vector<std::string> texts = {e.text,
                                          twin,
                                          data().test.front().text,
                                          "Hello, please refund the zebra and keep the cake.",
                                          "refund",
                                          tr::lengthen({data().test.back()}, 20).front().text};
  std::vector<std::pair<std::string, std::vector<int>>> out;
  for (size_t i = 0; i < texts.size(); ++i)
    out.emplace_back("email " + std::to_string(i), vocab.encode(texts[i]));
  return out;
}

void check_scheme(attn::Scheme positions, int layers, int d_ff, bool causal) {
  tr::ModelConfig c = fx::router_config(16, 4, layers, d_ff, positions);
  c.max_len = 48, c.causal = causal, c.seed = 3;
  const tr::Model m = model_for(c);
  Worst worst;
  int count = 0;
  for (const auto& [name, ids] : emails()) {
    ASSERT_LE(static_cast<int>(ids.size()), c.max_len) << name;
    compare_forward(m, ids, name, worst);
    ++count;
  }
  std::printf("[ reference ] %-10s %d layer(s)%s%s: %d emails, %3d tensors, largest difference %.2e (%s)\n",
              attn::scheme_name(positions).c_str(), layers, d_ff > 0 ? ", FFN" : "", causal ? ", causal" : "",
              count, worst.tensors, worst.diff, worst.where.c_str());
  EXPECT_GT(worst.tensors, 0);
}

}  // namespace

TEST(TrainReference, EveryIntermediateMatchesFloat64) {
  for (attn::Scheme s : tr::trainable_schemes()) check_scheme(s, 2, 24, false);
}

TEST(TrainReference, CausalOneLayerWithoutFeedForward) {
  for (attn::Scheme s : tr::trainable_schemes()) check_scheme(s, 1, 0, true);
}
