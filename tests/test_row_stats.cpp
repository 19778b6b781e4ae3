// Tests of row_moments: per-row mean and population variance, and LayerNorm's rows at mean 0, variance 1.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/ops.hpp"
#include "core/row_stats.hpp"

namespace {

TEST(RowStats, MatchesHandComputedValues) {
  attn::Mat m(2, 4);
  m << 1, 2, 3, 4,  //
      -2, 0, 0, 2;
  const attn::Mat s = attn::row_moments(m);
  ASSERT_EQ(s.rows(), 2);
  ASSERT_EQ(s.cols(), 2);
  // row 0: mean 2.5, deviations +-1.5, +-0.5 -> (2.25 * 2 + 0.25 * 2) / 4 = 1.25
  EXPECT_FLOAT_EQ(s(0, 0), 2.5f);
  EXPECT_FLOAT_EQ(s(0, 1), 1.25f);
  // row 1: mean 0, (4 + 0 + 0 + 4) / 4 = 2
  EXPECT_FLOAT_EQ(s(1, 0), 0.0f);
  EXPECT_FLOAT_EQ(s(1, 1), 2.0f);
}

TEST(RowStats, LayerNormRowsHaveMeanZeroVarianceOne) {
  attn::Mat x(3, 8);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 8; ++c) x(r, c) = static_cast<float>((r + 1) * c * c - 3 * r);
  }
  attn::Mat y, xhat, rstd;
  attn::ops::layer_norm_forward<float>(x, attn::Mat::Ones(1, 8), attn::Mat::Zero(1, 8), y, xhat, rstd);
  const attn::Mat s = attn::row_moments(y);
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(s(r, 0), 0.0f, 1e-5f);
    EXPECT_NEAR(s(r, 1), 1.0f, 1e-3f);  // var / (var + eps) with eps 1e-5
  }
}

TEST(RowStats, NoColumnsIsAnInputError) {
  EXPECT_THROW(attn::row_moments(attn::Mat(2, 0)), attn::InputError);
}

}  // namespace
