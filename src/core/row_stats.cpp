// Per-row mean and variance, computed in double so that values near 0 and 1 read cleanly.
#include "row_stats.hpp"

#include "error.hpp"

namespace attn {

Mat row_moments(const Mat& m) {
  if (m.cols() == 0) throw InputError("the matrix has no columns; a row mean needs at least one value");
  Mat out(m.rows(), 2);  // (T, 2)
  const auto d = static_cast<double>(m.cols());
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    // 1. mean of row r, 2. mean squared deviation from it
    double sum = 0.0;
    for (Eigen::Index c = 0; c < m.cols(); ++c) sum += static_cast<double>(m(r, c));
    const double mean = sum / d;
    double sq = 0.0;
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const double dev = static_cast<double>(m(r, c)) - mean;
      sq += dev * dev;
    }
    out(r, 0) = static_cast<float>(mean);
    out(r, 1) = static_cast<float>(sq / d);
  }
  return out;
}

}  // namespace attn
