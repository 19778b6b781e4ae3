// Checks the allclose helper itself: it must fail on a real difference and report the worst entry.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "allclose.hpp"

TEST(AllClose, AcceptsDifferencesWithinAtolPlusRtol) {
  Eigen::MatrixXd a(1, 2), b(1, 2);
  b << 0.0, 100.0;
  a << 9e-6, 100.0 + 9e-3;  // 9e-6 <= 1e-5; 9e-3 <= 1e-5 + 1e-4 * 100
  EXPECT_TRUE(ref::allclose(a, b));
}

TEST(AllClose, RejectsAndNamesTheLargestDifference) {
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(3, 4), b = Eigen::MatrixXd::Zero(3, 4);
  a(2, 1) = 0.5;
  a(0, 0) = 0.1;
  const ::testing::AssertionResult r = ref::allclose(a, b);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("(2, 1)"), std::string::npos) << r.message();
  EXPECT_NE(std::string(r.message()).find("0.5"), std::string::npos) << r.message();
  EXPECT_DOUBLE_EQ(ref::max_abs_diff(a, b), 0.5);
}

TEST(AllClose, RejectsShapeMismatchAndNaN) {
  const Eigen::MatrixXd wide = Eigen::MatrixXd::Zero(2, 3), tall = Eigen::MatrixXd::Zero(3, 2);
  EXPECT_FALSE(ref::allclose(wide, tall));
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(1, 1);
  a(0, 0) = std::nan("");
  const Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(1, 1);
  EXPECT_FALSE(ref::allclose(a, zero));
}

TEST(AllClose, MatchingInfinitiesAreEqualOthersAreNot) {
  const double inf = std::numeric_limits<double>::infinity();
  Eigen::MatrixXd a(1, 2), b(1, 2);
  a << -inf, 1.0;
  b << -inf, 1.0;
  EXPECT_TRUE(ref::allclose(a, b));
  b(0, 0) = 0.0;
  EXPECT_FALSE(ref::allclose(a, b));
}
