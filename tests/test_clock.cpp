// Tests of the clock readings: hands compared across positions, the lesson's exercise, PE.PE similarity.
#include <gtest/gtest.h>

#include <cmath>

#include "allclose.hpp"
#include "core/clock.hpp"
#include "reference.hpp"

namespace {

TEST(Clock, LessonExerciseFindsPosition44) {
  const attn::Sinusoidal clock(4);
  // brute force in double, independent of the core: the fast hand turns 1 rad per token
  int best = 1;
  double best_d = 1e9;
  for (int p = 1; p <= 49; ++p) {
    const double d = std::hypot(std::sin(p) - 0.0, std::cos(p) - 1.0);
    if (d < best_d) best = p, best_d = d;
  }
  EXPECT_EQ(attn::nearest_return(clock, 0, 0, 1, 49), best);
  EXPECT_EQ(best, 44);  // the lesson's answer
}

TEST(Clock, Position44FastHandRepeatsSlowHandDiffers) {
  const auto hands = attn::compare_positions(attn::Sinusoidal(4), 0, 44);
  ASSERT_EQ(hands.size(), 2u);
  EXPECT_LT(hands[0].distance, 0.05);
  EXPECT_GT(hands[1].distance, 0.4);
  EXPECT_NEAR(hands[0].speed, 1.0, 1e-12);
  EXPECT_NEAR(hands[1].speed, 0.01, 1e-12);
  // 44 radians is 7 turns and 0.0177 rad
  EXPECT_NEAR(hands[0].phase_diff, 44.0 - 14.0 * M_PI, 1e-9);
}

TEST(Clock, PhaseDifferenceIsWrapped) {
  for (int a : {0, 3, 100, 999}) {
    for (int b : {0, 7, 250, 1500}) {
      for (const auto& h : attn::compare_positions(attn::Sinusoidal(16), a, b)) {
        EXPECT_GT(h.phase_diff, -M_PI - 1e-12);
        EXPECT_LE(h.phase_diff, M_PI + 1e-12);
        EXPECT_NEAR(std::remainder((b - a) * h.speed - h.phase_diff, 2.0 * M_PI), 0.0, 1e-9);
      }
    }
  }
}

TEST(Clock, SimilarityDependsOnlyOnOffset) {
  const attn::Mat table = attn::Sinusoidal(64).table(attn::range_positions(80));
  const attn::Mat sim = attn::similarity(table);
  const ref::MatD want =
      ref::matmul(ref::sinusoidal(ref::iota(80), 64), ref::sinusoidal(ref::iota(80), 64).transpose());
  EXPECT_TRUE(ref::allclose(sim, want, 1e-4, 1e-4));
  EXPECT_LT(attn::offset_dependence_error(sim), 1e-3f);
  // learned positions have no such structure
  const attn::Mat learned = attn::Learned(80, 64, 3).table(attn::range_positions(80));
  EXPECT_GT(attn::offset_dependence_error(attn::similarity(learned)), 0.05f);
}

}  // namespace
