// The hand-written backward passes (core/ops.hpp and the trainable router) against central finite
// differences, in float64.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "core/ops.hpp"
#include "core/rng.hpp"
#include "core/train/model.hpp"
#include "fixtures.hpp"

namespace {

using attn::Scheme;
using attn::train::MatT;
using MatD = MatT<double>;
namespace tr = attn::train;
namespace ops = attn::ops;

// A central difference in float64 is accurate to ~1e-11 absolute here (rounding of the loss / kStep), so
// relative errors are taken against max(|a|, |n|, floor) with a floor well above that noise; a wrong or
// missing term in a backward pass is off by O(1) relative.
constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;
constexpr double kModelFloor = 1e-4;

MatD random(int rows, int cols, std::uint64_t seed, double scale = 1.0) {
  attn::Rng rng(seed);
  return rng.normal_matrix(rows, cols, static_cast<float>(scale)).cast<double>();
}

// Worst relative error |a - n| / max(|a|, |n|, floor) over every finite entry of `m`, where n is the central
// difference of loss() when that entry moves by +-step and a is the analytic gradient. An infinite entry (a
// masked score) cannot move and is passed over.
struct Check {
  double worst = 0;
  std::string where;
  int entries = 0;
};

void compare(MatD& m, const MatD& analytic, const std::function<double()>& loss, const std::string& name,
             Check& check, double floor = 1e-7, double step = kStep) {
  ASSERT_EQ(m.rows(), analytic.rows()) << name;
  ASSERT_EQ(m.cols(), analytic.cols()) << name;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    if (!std::isfinite(m.data()[i])) continue;
    const double keep = m.data()[i];
    m.data()[i] = keep + step;
    const double up = loss();
    m.data()[i] = keep - step;
    const double down = loss();
    m.data()[i] = keep;
    const double numeric = (up - down) / (2 * step);
    const double a = analytic.data()[i];
    const double err = std::abs(a - numeric) / std::max({std::abs(a), std::abs(numeric), floor});
    ++check.entries;
    if (err > check.worst) {
      check.worst = err;
      char buf[96];
      std::snprintf(buf, sizeof buf, "[%d] analytic %.9g numeric %.9g", static_cast<int>(i), a, numeric);
      check.where = name + buf;
    }
  }
}

void report(const std::string& what, const Check& c) {
  std::printf("[ gradient ] %-44s %5d entries, worst relative error %.2e (%s)\n", what.c_str(), c.entries,
              c.worst, c.where.c_str());
  EXPECT_LT(c.worst, kTolerance) << what << ": " << c.where;
  EXPECT_GT(c.entries, 0);
}

// sum(y * r): a loss whose gradient with respect to y is r.
double weighted(const MatD& y, const MatD& r) {
  return y.cwiseProduct(r).sum();
}

TEST(TrainGradients, LayerNorm) {
  MatD x = random(5, 12, 1, 2.0), gain = random(1, 12, 2), bias = random(1, 12, 3);
  x.row(2) *= 1e-2;  // a small-variance row, where eps matters
  const MatD r = random(5, 12, 4);
  MatD y, xhat, rstd, dx;
  ops::layer_norm_forward(x, gain, bias, y, xhat, rstd);
  MatD dgain = MatD::Zero(1, 12), dbias = MatD::Zero(1, 12);
  ops::layer_norm_backward(r, xhat, rstd, gain, dx, dgain, dbias);
  auto loss = [&] {
    MatD yy, xh, rs;
    ops::layer_norm_forward(x, gain, bias, yy, xh, rs);
    return weighted(yy, r);
  };
  Check c;
  // the small-variance row is strongly curved: a shorter step keeps the truncation error down
  compare(x, dx, loss, "x", c, 1e-7, 1e-6);
  compare(gain, dgain, loss, "gain", c);
  compare(bias, dbias, loss, "bias", c);
  report("LayerNorm (x, gain, bias)", c);
}

TEST(TrainGradients, SoftmaxRowsWithMaskedEntries) {
  MatD s = random(4, 6, 5, 2.0);
  const MatD r = random(4, 6, 6);
  s(1, 4) = s(1, 5) = -INFINITY;  // masked keys
  MatD w, ds;
  ops::softmax_forward(s, w);
  ops::softmax_backward(w, r, ds);
  EXPECT_EQ(ds(1, 4), 0.0);
  auto loss = [&] {
    MatD ww;
    ops::softmax_forward(s, ww);
    return weighted(ww, r);
  };
  Check c;
  compare(s, ds, loss, "scores", c);  // only the finite entries can move
  report("softmax rows (with -inf entries)", c);
}

void check_head(bool causal, float alibi_slope) {
  MatD q = random(6, 4, 7), k = random(6, 4, 8), v = random(6, 4, 9);
  const MatD r = random(6, 4, 10);
  ops::HeadMask mask;
  mask.causal = causal;
  mask.alibi_slope = alibi_slope;
  MatD s, w, out, dq, dk, dv;
  ops::attention_forward(q, k, v, mask, s, w, out);
  ops::attention_backward(q, k, v, w, r, dq, dk, dv);
  auto loss = [&] {
    MatD ss, ww, o;
    ops::attention_forward(q, k, v, mask, ss, ww, o);
    return weighted(o, r);
  };
  Check c;
  compare(q, dq, loss, "q", c);
  compare(k, dk, loss, "k", c);
  compare(v, dv, loss, "v", c);
  report(std::string("attention head (q, k, v)") + (causal ? ", causal" : "") +
             (alibi_slope != 0 ? ", ALiBi" : ""),
         c);
}

TEST(TrainGradients, AttentionHead) {
  check_head(false, 0.0f);
}
TEST(TrainGradients, CausalAttentionHead) {
  check_head(true, 0.0f);
}
TEST(TrainGradients, AttentionHeadWithAlibi) {
  check_head(false, 0.25f);
  check_head(true, 0.5f);
}

TEST(TrainGradients, RopeRotationBlock) {
  // a (T, 3 * 6) matrix whose middle 6 columns are rotated, like one head's keys inside qkv
  MatD m = random(7, 18, 11);
  const MatD r = random(7, 18, 12);
  ops::RopeTable table;
  table.ensure(6, 7);
  MatD grad = r;
  ops::rope_rotate(grad, 6, 6, table, true);  // backward: rotate the gradient back
  auto loss = [&] {
    MatD rotated = m;
    ops::rope_rotate(rotated, 6, 6, table, false);
    return weighted(rotated, r);
  };
  Check c;
  compare(m, grad, loss, "m", c);
  report("RoPE rotation", c);
}

TEST(TrainGradients, RowProduct) {
  MatD a = random(5, 7, 13), b = random(7, 3, 14);
  const MatD r = random(5, 3, 15);
  const MatD da = r * b.transpose(), db = a.transpose() * r;
  auto loss = [&] {
    MatD o;
    ops::matmul_rows(a, b, o);
    return weighted(o, r);
  };
  Check c;
  compare(a, da, loss, "a", c);
  compare(b, db, loss, "b", c);
  report("row product", c);
}

TEST(TrainGradients, SoftmaxCrossEntropy) {
  MatD logits = random(1, 5, 16, 3.0);
  MatD probs, d;
  ops::softmax_cross_entropy(logits, 3, probs);
  ops::softmax_cross_entropy_backward(probs, 3, d);
  auto loss = [&] {
    MatD p;
    return ops::softmax_cross_entropy(logits, 3, p);
  };
  Check c;
  compare(logits, d, loss, "logits", c);
  report("softmax cross-entropy", c);
}

// The mean next-token cross-entropy over the positions with a target, from the forward's logits.
double next_token_loss(const tr::ModelT<double>& model, const std::vector<int>& ids,
                       const std::vector<int>& targets) {
  const tr::ForwardT<double> f = model.forward(ids);
  double sum = 0;
  int n = 0;
  for (int i = 0; i < f.tokens(); ++i) {
    const int y = targets[static_cast<size_t>(i)];
    if (y < 0) continue;
    const auto row = f.logits.row(i);
    const double top = row.maxCoeff();
    sum += std::log((row.array() - top).exp().sum()) + top - row(y);
    ++n;
  }
  return sum / n;
}

// The whole model: every tensor of every layer, for one scheme and shape.
void check_model(Scheme positions, int layers, int d_ff, bool causal,
                 attn::Norm norm = attn::Norm::PostLayerNorm, bool next_token = false) {
  tr::ModelConfig c = fx::router_config(8, 2, layers, d_ff, positions);
  c.vocab = 9, c.classes = 4, c.max_len = 8, c.causal = causal, c.seed = 5, c.norm = norm;
  if (next_token) c.output = tr::Output::NextToken, c.classes = c.vocab;
  tr::ModelT<double> model(c);
  // Move the LayerNorm gains and biases and the classifier bias off 1 and 0 so their gradients are generic.
  for (auto& [name, m] : model.params.named_tensors()) {
    if (m->rows() == 1) *m += random(1, static_cast<int>(m->cols()), std::hash<std::string>{}(name), 0.3);
  }
  const std::vector<int> ids = {3, 1, 4, 1, 5, 8, 2};  // token 1 twice: the scatter-add must sum
  const int label = 2;
  const std::vector<int> targets = {1, -1, 1, 5, 8, 2, -1};  // two positions without a target
  const auto loss = [&] {
    return next_token ? next_token_loss(model, ids, targets) : model.loss(ids, label);
  };
  tr::ParamsT<double> grads = model.params.zeros_like();
  const tr::ForwardT<double> f = model.forward(ids);
  const double loss0 =
      next_token ? model.backward_tokens(f, targets, grads) : model.backward(f, label, grads);
  EXPECT_NEAR(loss0, loss(), 1e-12);

  Check check;
  auto params = model.params.named_tensors();
  auto g = grads.named_tensors();
  ASSERT_EQ(params.size(), g.size());
  for (size_t i = 0; i < params.size(); ++i) {
    compare(*params[i].second, *g[i].second, loss, params[i].first, check, kModelFloor);
  }
  std::string what = "model " + attn::scheme_name(positions) + ", " + std::to_string(layers) + " layer(s)" +
                     (d_ff > 0 ? ", FFN" : "") + (causal ? ", causal" : "") +
                     (norm == attn::Norm::PreLayerNorm ? ", pre-norm" : "") +
                     (next_token ? ", next token" : "");
  report(what, check);
  // every tensor took part (the position table only up to the email length)
  for (size_t i = 0; i < g.size(); ++i) EXPECT_GT(g[i].second->cwiseAbs().maxCoeff(), 0.0) << g[i].first;
}

TEST(TrainGradients, ModelWithoutPositions) {
  check_model(Scheme::None, 1, 0, false);
}
TEST(TrainGradients, ModelSinusoidal) {
  check_model(Scheme::Sinusoidal, 1, 0, false);
}
TEST(TrainGradients, ModelLearned) {
  check_model(Scheme::Learned, 1, 0, false);
}
TEST(TrainGradients, ModelRope) {
  check_model(Scheme::Rope, 1, 0, false);
}
TEST(TrainGradients, ModelRelative) {  // the distance bias table: each score's gradient in its bucket
  check_model(Scheme::Relative, 1, 0, false);
  check_model(Scheme::Relative, 2, 6, true);
  check_model(Scheme::Relative, 2, 0, true, attn::Norm::PreLayerNorm, true);
}
TEST(TrainGradients, ModelTwoLayersWithFeedForward) {
  check_model(Scheme::Sinusoidal, 2, 6, false);
  check_model(Scheme::Learned, 2, 6, false);
  check_model(Scheme::Rope, 2, 6, false);
}
TEST(TrainGradients, ModelCausal) {
  check_model(Scheme::None, 1, 0, true);
  check_model(Scheme::Rope, 2, 6, true);
}

TEST(TrainGradients, ModelNextToken) {
  check_model(Scheme::Rope, 2, 0, true, attn::Norm::PostLayerNorm, true);
  check_model(Scheme::Rope, 2, 0, true, attn::Norm::PreLayerNorm, true);
  check_model(Scheme::Sinusoidal, 1, 0, true, attn::Norm::PreLayerNorm, true);
  check_model(Scheme::Learned, 2, 6, true, attn::Norm::PreLayerNorm, true);
}

// The float model's gradient is the double one rounded: the same code, templated on the scalar.
TEST(TrainGradients, FloatBackwardMatchesDouble) {
  tr::ModelConfig c = fx::router_config(16, 4, 1, 8, Scheme::Rope);
  c.vocab = 12, c.classes = 3;
  tr::Model mf(c);
  tr::ModelT<double> md(c, mf.params.cast<double>());
  const std::vector<int> ids = {1, 2, 3, 4, 5, 6, 7, 11, 0};
  tr::Params gf = mf.params.zeros_like();
  tr::ParamsT<double> gd = md.params.zeros_like();
  mf.backward(mf.forward(ids), 1, gf);
  md.backward(md.forward(ids), 1, gd);
  const auto a = gf.named_tensors();
  const auto b = gd.named_tensors();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double scale = std::max(1e-3, b[i].second->cwiseAbs().maxCoeff());
    worst = std::max(worst, (a[i].second->cast<double>() - *b[i].second).cwiseAbs().maxCoeff() / scale);
  }
  std::printf("[ gradient ] float vs double backward: worst difference %.2e of the tensor's largest entry\n",
              worst);
  EXPECT_LT(worst, 1e-4);
}

}  // namespace
