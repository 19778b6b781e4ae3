// Input checks shared by the core: finiteness and ranges, reported as InputError.
#include "error.hpp"

#include <cmath>

namespace attn {

void require_finite(const Mat& m, const std::string& what) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (!std::isfinite(m(r, c))) {
        throw InputError(what + " has a non-finite number (NaN or infinity) at row " + std::to_string(r) +
                         ", column " + std::to_string(c) + "; only finite numbers are allowed");
      }
    }
  }
}

void require_range(long long value, long long lo, long long hi, const std::string& what) {
  if (value < lo || value > hi) {
    throw InputError(what + " is " + std::to_string(value) + "; allowed: " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  }
}

}  // namespace attn
