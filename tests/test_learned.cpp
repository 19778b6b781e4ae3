// The learned position table: seeded, one row per slot, and a readable error past the last slot.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "allclose.hpp"
#include "core/error.hpp"
#include "core/positions.hpp"

TEST(Learned, SameSeedSameTableDifferentSeedDifferentTable) {
  const attn::Learned a(128, 16, 11), b(128, 16, 11), c(128, 16, 12);
  ASSERT_EQ(a.weights.rows(), 128);
  ASSERT_EQ(a.weights.cols(), 16);
  EXPECT_TRUE(a.weights == b.weights);
  EXPECT_GT((a.weights - c.weights).cwiseAbs().maxCoeff(), 0.01f);
}

TEST(Learned, TableRowsAreTheSlotsAskedFor) {
  const attn::Learned l(10, 6, 3);
  const attn::Mat t = l.table({7, 0, 7, 9});
  ASSERT_EQ(t.rows(), 4);
  EXPECT_TRUE(t.row(0) == l.weights.row(7));
  EXPECT_TRUE(t.row(1) == l.weights.row(0));
  EXPECT_TRUE(t.row(2) == l.weights.row(7));
  EXPECT_TRUE(t.row(3) == l.weights.row(9));
}

TEST(Learned, InitialisedWithStdAboutPointOne) {
  const attn::Learned l(256, 64, 5);
  const double n = static_cast<double>(l.weights.size());
  const double mean = l.weights.cast<double>().sum() / n;
  const double var = (l.weights.cast<double>().array() - mean).square().sum() / n;
  EXPECT_NEAR(mean, 0.0, 0.005);
  EXPECT_NEAR(std::sqrt(var), 0.1, 0.005);
}

TEST(Learned, PositionPastTheEndIsAnInputErrorNamingPositionAndSlots) {
  const attn::Learned l(128, 8, 1);
  EXPECT_NO_THROW(l.table({127}));
  EXPECT_THROW(l.table({128}), attn::InputError);
  try {
    l.table({3, 400});
    FAIL() << "no InputError for position 400 in a 128-slot table";
  } catch (const attn::InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("400"), std::string::npos) << msg;
    EXPECT_NE(msg.find("128"), std::string::npos) << msg;
  }
}
