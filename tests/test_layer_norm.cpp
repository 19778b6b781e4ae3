// layer_norm against the float64 reference, including rows where eps matters and constant rows.
#include <gtest/gtest.h>

#include "allclose.hpp"
#include "core/encoder.hpp"
#include "reference.hpp"

TEST(LayerNorm, MatchesTheReferenceWithGainAndBias) {
  ref::MatD x = ref::random_matrix(5, 12, 1, 4.0);
  x.row(3) *= 1e-3;  // variance ~5e-6, comparable to eps = 1e-5
  const ref::MatD gain = ref::random_matrix(1, 12, 2, 2.0);
  const ref::MatD bias = ref::random_matrix(1, 12, 3);
  const attn::RowVec g = ref::to_float(gain), b = ref::to_float(bias);
  EXPECT_ALLCLOSE(attn::layer_norm(ref::to_float(x), g, b), ref::layer_norm(x, gain, bias, 1e-5));
  EXPECT_ALLCLOSE(attn::layer_norm(ref::to_float(x), g, b, 1e-2f), ref::layer_norm(x, gain, bias, 1e-2));
}

TEST(LayerNorm, AConstantRowBecomesTheBias) {
  const attn::Mat x = attn::Mat::Constant(2, 6, 3.25f);
  const attn::RowVec gain = attn::RowVec::Constant(6, 2.0f);
  const attn::RowVec bias = ref::to_float(ref::random_matrix(1, 6, 4));
  const attn::Mat y = attn::layer_norm(x, gain, bias);
  EXPECT_TRUE(y.allFinite());
  for (int i = 0; i < 2; ++i) EXPECT_ALLCLOSE(attn::Mat(y.row(i)), attn::Mat(bias));
}
