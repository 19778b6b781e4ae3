// numpy-style allclose for the tests: |a - b| <= atol + rtol * |b|, reporting the worst entry on failure.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "core/types.hpp"

namespace ref {

inline constexpr double kAtol = 1e-5;
inline constexpr double kRtol = 1e-4;

// The largest |a - b| over all entries (infinities of the same sign count as equal, NaN as infinite).
double max_abs_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

// Succeeds when shapes match and every entry satisfies |core - expected| <= atol + rtol * |expected|;
// otherwise names the largest difference, its (row, col) and both values there.
::testing::AssertionResult allclose_double(const Eigen::MatrixXd& core, const Eigen::MatrixXd& expected,
                                           double atol, double rtol);

// Any float or double matrix or expression, compared in double.
template <typename A, typename B>
::testing::AssertionResult allclose(const Eigen::MatrixBase<A>& core, const Eigen::MatrixBase<B>& expected,
                                    double atol = kAtol, double rtol = kRtol) {
  return allclose_double(core.template cast<double>().eval(), expected.template cast<double>().eval(), atol,
                         rtol);
}

}  // namespace ref

// EXPECT_TRUE(allclose(...)) with the file and line of the caller.
#define EXPECT_ALLCLOSE(core, expected) EXPECT_TRUE(::ref::allclose((core), (expected)))
#define EXPECT_ALLCLOSE_TOL(core, expected, atol, rtol) \
  EXPECT_TRUE(::ref::allclose((core), (expected), (atol), (rtol)))
