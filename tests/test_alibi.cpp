// ALiBi: the slope of each head and the distance penalty it adds to the scores.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "allclose.hpp"
#include "core/positions.hpp"
#include "reference.hpp"

TEST(Alibi, SlopesAreTwoToTheMinusEightHPlusOneOverH) {
  for (int heads : {1, 2, 4, 8, 12}) {
    const attn::Alibi a{heads};
    for (int h = 0; h < heads; ++h) {
      const double expect = std::pow(2.0, -8.0 * (h + 1) / heads);
      EXPECT_NEAR(a.slope(h), expect, 1e-6 * expect) << "head " << h << " of " << heads;
    }
  }
  // Eight heads: 1/2, 1/4, ..., 1/256.
  EXPECT_FLOAT_EQ(attn::Alibi{8}.slope(0), 0.5f);
  EXPECT_FLOAT_EQ(attn::Alibi{8}.slope(7), 1.0f / 256.0f);
}

TEST(Alibi, BiasIsMinusSlopeTimesDistance) {
  const attn::Alibi a{4};
  const std::vector<int> pos = attn::range_positions(6);
  for (int h = 0; h < 4; ++h) {
    const attn::Mat b = a.bias(pos, h);
    ASSERT_EQ(b.rows(), 6);
    ASSERT_EQ(b.cols(), 6);
    EXPECT_ALLCLOSE(b, ref::alibi_bias(pos, h, 4));
    for (int i = 0; i < 6; ++i) EXPECT_EQ(b(i, i), 0.0f);
    EXPECT_EQ(b(0, 5), b(5, 0));
  }
}

TEST(Alibi, BiasUsesThePositionIdsNotTheRowIndex) {
  const std::vector<int> pos = {10, 3, 250, 4};
  EXPECT_ALLCLOSE(attn::Alibi{3}.bias(pos, 1), ref::alibi_bias(pos, 1, 3));
}
