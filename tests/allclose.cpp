// numpy-style allclose for the tests, with a failure message naming the largest difference and where.
#include "allclose.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace ref {

namespace {

// |a - b| for one entry, with equal infinities giving 0 and anything involving NaN giving +inf.
double entry_diff(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::infinity();
  if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : std::numeric_limits<double>::infinity();
  return std::abs(a - b);
}

}  // namespace

double max_abs_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) worst = std::max(worst, entry_diff(a(i, j), b(i, j)));
  return worst;
}

::testing::AssertionResult allclose_double(const Eigen::MatrixXd& core, const Eigen::MatrixXd& expected,
                                           double atol, double rtol) {
  if (core.rows() != expected.rows() || core.cols() != expected.cols()) {
    return ::testing::AssertionFailure()
           << "shape mismatch: core (" << core.rows() << ", " << core.cols() << ") vs expected ("
           << expected.rows() << ", " << expected.cols() << ")";
  }
  double worst = -1.0;
  Eigen::Index wi = 0, wj = 0;
  long long bad = 0;
  for (Eigen::Index i = 0; i < core.rows(); ++i) {
    for (Eigen::Index j = 0; j < core.cols(); ++j) {
      const double d = entry_diff(core(i, j), expected(i, j));
      const double limit = std::isfinite(expected(i, j)) ? atol + rtol * std::abs(expected(i, j)) : 0.0;
      if (d > limit) ++bad;
      if (d > worst) {
        worst = d;
        wi = i;
        wj = j;
      }
    }
  }
  std::ostringstream where;
  where.precision(9);
  if (worst >= 0.0) {
    where << "max abs diff " << worst << " at (" << wi << ", " << wj << "): core " << core(wi, wj)
          << " vs expected " << expected(wi, wj);
  } else {
    where << "empty matrices";
  }
  if (bad > 0) {
    std::ostringstream tol;
    tol << "atol " << atol << " + rtol " << rtol;
    return ::testing::AssertionFailure()
           << bad << " of " << core.size() << " entries differ beyond " << tol.str() << "; " << where.str();
  }
  return ::testing::AssertionSuccess() << "all " << core.size() << " entries close; " << where.str();
}

}  // namespace ref
