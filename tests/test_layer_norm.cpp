// ops::layer_norm_forward against the float64 reference, including rows where eps matters and constant rows.
#include <gtest/gtest.h>

#include <cmath>

#include "allclose.hpp"
#include "core/ops.hpp"
#include "reference.hpp"

namespace {

// y = LayerNorm(x) (T, D) in float, with its saved xhat (T, D) and rstd (T, 1).
struct Norm {
  attn::Mat y, xhat, rstd;
};
Norm layer_norm(const attn::Mat& x, const attn::Mat& gain, const attn::Mat& bias, float eps = 1e-5f) {
  Norm n;
  attn::ops::layer_norm_forward(x, gain, bias, n.y, n.xhat, n.rstd, eps);
  return n;
}

}  // namespace

TEST(LayerNorm, MatchesTheReferenceWithGainAndBias) {
  ref::MatD x = ref::random_matrix(5, 12, 1, 4.0);
  x.row(3) *= 1e-3;  // variance ~5e-6, comparable to eps = 1e-5
  const ref::MatD gain = ref::random_matrix(1, 12, 2, 2.0);
  const ref::MatD bias = ref::random_matrix(1, 12, 3);
  const attn::Mat g = ref::to_float(gain), b = ref::to_float(bias);
  EXPECT_ALLCLOSE(layer_norm(ref::to_float(x), g, b).y, ref::layer_norm(x, gain, bias, 1e-5));
  EXPECT_ALLCLOSE(layer_norm(ref::to_float(x), g, b, 1e-2f).y, ref::layer_norm(x, gain, bias, 1e-2));
  // the saved values: xhat is the unit-gain, zero-bias LayerNorm, rstd = 1 / sqrt(var + eps)
  const Norm n = layer_norm(ref::to_float(x), g, b);
  EXPECT_ALLCLOSE(n.xhat, ref::layer_norm(x, ref::MatD::Ones(1, 12), ref::MatD::Zero(1, 12), 1e-5));
  for (int r = 0; r < 5; ++r) {
    const double mean = x.row(r).mean();
    const double var = (x.row(r).array() - mean).square().mean();
    EXPECT_NEAR(n.rstd(r, 0), 1.0 / std::sqrt(var + 1e-5), 1e-5 / std::sqrt(var + 1e-5)) << "row " << r;
  }
}

TEST(LayerNorm, TheFloatAndDoubleOpsAgree) {
  const ref::MatD x = ref::random_matrix(4, 10, 5, 3.0), gain = ref::random_matrix(1, 10, 6, 2.0);
  const ref::MatD bias = ref::random_matrix(1, 10, 7);
  attn::MatT<double> y, xhat, rstd;
  attn::ops::layer_norm_forward<double>(x, gain, bias, y, xhat, rstd);
  EXPECT_ALLCLOSE_TOL(y, ref::layer_norm(x, gain, bias, 1e-5), 1e-12, 1e-12);
  EXPECT_ALLCLOSE(layer_norm(ref::to_float(x), ref::to_float(gain), ref::to_float(bias)).y, y);
}

TEST(LayerNorm, AConstantRowBecomesTheBias) {
  const attn::Mat x = attn::Mat::Constant(2, 6, 3.25f);
  const attn::Mat gain = attn::Mat::Constant(1, 6, 2.0f);
  const attn::Mat bias = ref::to_float(ref::random_matrix(1, 6, 4));
  const attn::Mat y = layer_norm(x, gain, bias).y;
  EXPECT_TRUE(y.allFinite());
  for (int i = 0; i < 2; ++i) EXPECT_ALLCLOSE(attn::Mat(y.row(i)), bias);
}
