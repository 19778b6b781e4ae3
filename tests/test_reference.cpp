// Sanity checks of the float64 reference itself against published numbers, before it judges the core.
#include <gtest/gtest.h>

#include <cmath>

#include "reference.hpp"

TEST(Reference, SplitMix64MatchesThePublishedFirstOutputForSeedZero) {
  ref::SplitMix64 g{0};
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafULL);
}

TEST(Reference, SinusoidalMatchesTheLessonTable) {
  const ref::MatD pe = ref::sinusoidal({1, 44}, 4);
  EXPECT_NEAR(pe(0, 0), 0.841, 5e-4);
  EXPECT_NEAR(pe(1, 2), 0.426, 5e-4);
  EXPECT_NEAR(pe(1, 3), 0.905, 5e-4);
}

TEST(Reference, SoftmaxRowsSumToOne) {
  const ref::MatD w = ref::softmax_rows(ref::random_matrix(4, 6, 3, 5.0));
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(w.row(i).sum(), 1.0, 1e-12);
}

TEST(Reference, RopeTurnsAPairByTheAngle) {
  ref::MatD v(1, 2);
  v << 1.0, 0.0;
  const ref::MatD r = ref::rope_rotate(v, {1}, 10000.0);  // pair 0 turns at 1 radian per token
  EXPECT_NEAR(r(0, 0), std::cos(1.0), 1e-12);
  EXPECT_NEAR(r(0, 1), std::sin(1.0), 1e-12);
}

TEST(Reference, Utf8ValidatorAcceptsAndRejects) {
  EXPECT_TRUE(
      ref::valid_utf8("caf\xc3\xa9 \xe2\x82\xb9"
                      "850 \xf0\x9f\x8e\x82"));
  EXPECT_FALSE(ref::valid_utf8("\xff"));
  EXPECT_FALSE(ref::valid_utf8("\xc0\xaf"));
  EXPECT_FALSE(ref::valid_utf8("\xe2\x82"));
  EXPECT_FALSE(ref::valid_utf8("\xed\xa0\x80"));
}
