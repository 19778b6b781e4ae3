// Arjun's two naive attempts: raw position numbers blow up, fractions change meaning with the length.
#include <gtest/gtest.h>

#include "core/positions.hpp"

TEST(RawPositions, ALongTextReaches299) {
  const attn::Mat t = attn::raw_position_table(attn::range_positions(300), 8);
  ASSERT_EQ(t.rows(), 300);
  ASSERT_EQ(t.cols(), 8);
  EXPECT_FLOAT_EQ(t.maxCoeff(), 299.0f);
  for (int p : {0, 1, 150, 299})
    for (int c = 0; c < 8; ++c) EXPECT_FLOAT_EQ(t(p, c), static_cast<float>(p));
}

TEST(FractionPositions, Word3OfTenEqualsWord30OfAHundred) {
  const attn::Mat a = attn::fraction_position_table({3}, 10, 4);
  const attn::Mat b = attn::fraction_position_table({30}, 100, 4);
  for (int c = 0; c < 4; ++c) {
    EXPECT_NEAR(a(0, c), 0.3f, 1e-6f);
    EXPECT_NEAR(b(0, c), 0.3f, 1e-6f);
  }
  EXPECT_TRUE(a.isApprox(b, 1e-6f));
}

TEST(FractionPositions, OneStepLaterMeansSomethingDifferentPerLength) {
  const attn::Mat short_text = attn::fraction_position_table({3, 4}, 10, 1);
  const attn::Mat long_text = attn::fraction_position_table({30, 31}, 100, 1);
  EXPECT_NEAR(short_text(1, 0) - short_text(0, 0), 0.1f, 1e-6f);
  EXPECT_NEAR(long_text(1, 0) - long_text(0, 0), 0.01f, 1e-6f);
}
