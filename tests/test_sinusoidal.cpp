// The sinusoidal clock: the lesson's 4-wide table, hand speeds and wavelengths, odd widths, custom bases.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "allclose.hpp"
#include "core/positions.hpp"
#include "reference.hpp"

namespace {
const double kPi = std::acos(-1.0);
}

TEST(PositionClock, LessonTableAtWidthFourRoundsToTheLessonNumbers) {
  const attn::Mat pe = attn::PositionClock(4).table({0, 1, 2, 3, 44});
  // Position rows 0, 1, 2, 3 and 44, exactly as printed in the lesson (3 decimals).
  const double lesson[5][4] = {{0.000, 1.000, 0.000, 1.000},
                               {0.841, 0.540, 0.010, 1.000},
                               {0.909, -0.416, 0.020, 1.000},
                               {0.141, -0.990, 0.030, 1.000},
                               {0.018, 1.000, 0.426, 0.905}};
  ASSERT_EQ(pe.rows(), 5);
  ASSERT_EQ(pe.cols(), 4);
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(std::lround(pe(r, c) * 1000.0), std::lround(lesson[r][c] * 1000.0))
          << "row " << r << " col " << c << " value " << pe(r, c);
}

TEST(PositionClock, WidthFourHasAFastAndASlowHand) {
  const attn::PositionClock s(4);
  EXPECT_EQ(s.hands(), 2);
  const std::vector<double> speed = s.speeds();
  ASSERT_EQ(speed.size(), 2u);
  EXPECT_NEAR(speed[0], 1.0, 1e-12);   // 1 radian per position
  EXPECT_NEAR(speed[1], 0.01, 1e-12);  // 10000^(-2/4) = 1/100
}

TEST(PositionClock, Width512Has256HandsFrom2PiToAbout60000Tokens) {
  const attn::PositionClock s(512);
  EXPECT_EQ(s.hands(), 256);
  const std::vector<double> wl = s.wavelengths();
  const std::vector<double> sp = s.speeds();
  ASSERT_EQ(wl.size(), 256u);
  ASSERT_EQ(sp.size(), 256u);
  EXPECT_NEAR(wl.front(), 2.0 * kPi, 1e-9);
  const double slowest = 2.0 * kPi * std::pow(10000.0, 510.0 / 512.0);
  EXPECT_NEAR(wl.back(), slowest, 1e-9 * slowest);
  EXPECT_GT(wl.back(), 50000.0);
  EXPECT_LT(wl.back(), 70000.0);
  for (int i = 0; i < 256; ++i) {
    const double expect = std::pow(10000.0, -2.0 * i / 512.0);
    EXPECT_NEAR(sp[static_cast<size_t>(i)], expect, 1e-9 * expect) << "hand " << i;
    EXPECT_NEAR(wl[static_cast<size_t>(i)] * sp[static_cast<size_t>(i)], 2.0 * kPi, 1e-9) << "hand " << i;
    if (i > 0) {
      EXPECT_GT(wl[static_cast<size_t>(i)], wl[static_cast<size_t>(i) - 1]);
    }
  }
}

TEST(PositionClock, CustomBaseChangesTheSpeeds) {
  const attn::PositionClock s(6, 100.0);
  const std::vector<double> sp = s.speeds();
  ASSERT_EQ(sp.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(sp[static_cast<size_t>(i)], ref::hand_speed(i, 6, 100.0), 1e-12);
  const std::vector<int> pos = {0, 1, 5, 17, 250};
  EXPECT_ALLCLOSE(s.table(pos), ref::sinusoidal(pos, 6, 100.0));
  // And it really differs from the default base.
  EXPECT_GT(ref::max_abs_diff(ref::to_double(s.table(pos)), ref::sinusoidal(pos, 6, 10000.0)), 0.1);
}

TEST(PositionClock, OddWidthEndsWithAnUnpairedSine) {
  const attn::PositionClock s(5);
  EXPECT_EQ(s.hands(), 3);
  const std::vector<int> pos = {0, 1, 2, 3, 44, 300, 1000};
  const attn::Mat pe = s.table(pos);
  EXPECT_ALLCLOSE(pe, ref::sinusoidal(pos, 5));
  for (size_t r = 0; r < pos.size(); ++r) {
    const double last = static_cast<double>(pos[r]) * std::pow(10000.0, -4.0 / 5.0);
    EXPECT_NEAR(pe(static_cast<Eigen::Index>(r), 4), std::sin(last), 1e-5) << "position " << pos[r];
  }
}

TEST(PositionClock, EveryEntryStaysWithinMinusOneAndOne) {
  const attn::Mat pe = attn::PositionClock(64).table(attn::range_positions(1024));
  EXPECT_LE(pe.maxCoeff(), 1.0f);
  EXPECT_GE(pe.minCoeff(), -1.0f);
}

TEST(PositionClock, RandomWidthsAndPositionsMatchTheReference) {
  ref::SplitMix64 g{2024};
  for (int trial = 0; trial < 12; ++trial) {
    const auto [d, p, pos] = ref::random_positions(g, 96, 40);
    SCOPED_TRACE("d_model " + std::to_string(d) + ", " + std::to_string(p) + " positions");
    EXPECT_ALLCLOSE(attn::PositionClock(d).table(pos), ref::sinusoidal(pos, d));
  }
}

TEST(PositionClock, OneStepLaterIsTheSameRotationEverywhere) {
  // The lesson's bonus property: PE(pos + k) is a fixed rotation of PE(pos), whatever pos is.
  const int d = 8, k = 3;
  const attn::PositionClock s(d);
  for (int pos : {0, 5, 200, 700}) {
    const attn::Mat a = s.table({pos}), b = s.table({pos + k});
    for (int i = 0; i < d / 2; ++i) {
      const double th = k * ref::hand_speed(i, d, 10000.0);
      const double sin_next = a(0, 2 * i) * std::cos(th) + a(0, 2 * i + 1) * std::sin(th);
      const double cos_next = a(0, 2 * i + 1) * std::cos(th) - a(0, 2 * i) * std::sin(th);
      EXPECT_NEAR(b(0, 2 * i), sin_next, 1e-5) << "pos " << pos << " hand " << i;
      EXPECT_NEAR(b(0, 2 * i + 1), cos_next, 1e-5) << "pos " << pos << " hand " << i;
    }
  }
}
