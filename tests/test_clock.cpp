// Tests of the clock readings: hands compared across positions, the lesson's exercise, PE.PE similarity.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "allclose.hpp"
#include "core/clock.hpp"
#include "reference.hpp"

namespace {

TEST(Clock, LessonExerciseFindsPosition44) {
  const attn::PositionClock clock(4);
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
  const auto hands = attn::compare_positions(attn::PositionClock(4), 0, 44);
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
      for (const auto& h : attn::compare_positions(attn::PositionClock(16), a, b)) {
        EXPECT_GT(h.phase_diff, -M_PI - 1e-12);
        EXPECT_LE(h.phase_diff, M_PI + 1e-12);
        EXPECT_NEAR(std::remainder((b - a) * h.speed - h.phase_diff, 2.0 * M_PI), 0.0, 1e-9);
      }
    }
  }
}

TEST(Clock, SimilarityDependsOnlyOnOffset) {
  const attn::Mat table = attn::PositionClock(64).table(attn::range_positions(80));
  const attn::Mat sim = attn::similarity(table);
  const ref::MatD want =
      ref::matmul(ref::sinusoidal(ref::iota(80), 64), ref::sinusoidal(ref::iota(80), 64).transpose());
  EXPECT_TRUE(ref::allclose(sim, want, 1e-4, 1e-4));
  EXPECT_LT(attn::offset_dependence_error(sim), 1e-3f);
  // learned positions have no such structure
  const attn::Mat learned = attn::Learned(80, 64, 3).table(attn::range_positions(80));
  EXPECT_GT(attn::offset_dependence_error(attn::similarity(learned)), 0.05f);
}

// Odd d_model: the last hand is a lone sine. The rotation check turns only the pairs, so it is float
// rounding at every start (it once read past the row for the lone sine: 0.9 at d_model 3, 5 -> 2).
TEST(Clock, RotationErrorLeavesTheLoneSineOut) {
  for (int d : {1, 2, 3, 5, 8, 9, 64}) {
    const attn::PositionClock clock(d);
    for (const auto& [start, k] : std::vector<std::pair<int, int>>{{5, -3}, {44, -44}, {0, 44}, {7, 0}})
      EXPECT_LT(attn::rotation_error(clock, start, k), 1e-5) << "d_model " << d << " start " << start;
  }
  EXPECT_EQ(attn::rotation_error(attn::PositionClock(1), 3, 4), 0.0);  // no pair to turn
}

// The verdicts, against the angle each hand turned (float64, from the definition speed = base^(-2i/d)).
TEST(Clock, VerdictsFollowTheTurnedAngle) {
  struct Case {
    int d, a, b;
    std::vector<attn::HandVerdict> want;
  };
  using V = attn::HandVerdict;
  const std::vector<Case> cases = {
      {4, 0, 44, {V::CameRound, V::Differs}},     // 7.003 turns; 0.44 rad
      {4, 1, 2, {V::Differs, V::BarelyMoved}},    // 1 rad; 0.01 rad
      {4, 0, 628, {V::Differs, V::CameRound}},    // 628 rad; 6.28 rad = 0.9995 turns
      {4, 7, 7, {V::Same, V::Same}},              //
      {3, 0, 3, {V::Differs, V::BarelyMoved}},    // the lone sine turned 0.0065 rad
      {3, 700, 758, {V::Differs, V::SineAlike}},  // sin 1.508 = sin 1.633: 0.125 rad apart
  };
  for (const Case& c : cases) {
    const auto hands = attn::compare_positions(attn::PositionClock(c.d), c.a, c.b);
    ASSERT_EQ(hands.size(), c.want.size());
    for (size_t h = 0; h < hands.size(); ++h) {
      const double speed = std::pow(10000.0, -2.0 * static_cast<double>(h) / c.d);
      EXPECT_NEAR(hands[h].turns, (c.b - c.a) * speed / (2.0 * M_PI), 1e-9);
      EXPECT_EQ(static_cast<int>(hands[h].verdict), static_cast<int>(c.want[h]))
          << "d_model " << c.d << ", " << c.a << " vs " << c.b << ", hand " << h;
    }
  }
}

// The closest offset on the paired hands, against a float64 brute force over the two readings.
TEST(Clock, ClosestOffsetMatchesBruteForce) {
  for (int d : {2, 4, 5, 8, 16}) {
    const attn::PositionClock clock(d);
    const attn::ClosestOffset got = attn::closest_offset(clock, 300);
    int best = 0;
    double best_d = INFINITY;
    for (int k = 1; k <= 300; ++k) {
      double sq = 0.0;
      for (int i = 0; i + 1 < d; i += 2) {
        const double w = std::pow(10000.0, -static_cast<double>(i) / d);
        sq += std::pow(std::sin(k * w) - 0.0, 2) + std::pow(std::cos(k * w) - 1.0, 2);  // k against 0
      }
      if (sq < best_d) best_d = sq, best = k;
    }
    EXPECT_EQ(got.offset, best) << "d_model " << d;
    EXPECT_NEAR(got.distance, std::sqrt(best_d), 1e-9) << "d_model " << d;
  }
  EXPECT_EQ(attn::closest_offset(attn::PositionClock(1), 10).offset, 0);
}

}  // namespace
