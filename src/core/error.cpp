// Input checks shared by the core: finiteness and ranges, reported as InputError.
#include "error.hpp"

#include <cmath>

#include "gemm.hpp"

namespace attn {

void require_finite(const Mat& m, const std::string& what) {
  if (gemm::all_finite(m.data(), m.size()))
    return;  // the quick pass; the loop below names the first bad entry
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (!std::isfinite(m(r, c))) {
        throw InputError(what + " has a non-finite number (NaN or infinity) at row " + std::to_string(r) +
                         ", column " + std::to_string(c) + "; only finite numbers are allowed");
      }
    }
  }
}

void require_finite_result(const Mat& m, const std::string& what) {
  if (gemm::all_finite(m.data(), m.size())) return;
  throw InputError(what +
                   " overflowed float32 (a NaN or an infinity in the result): the inputs or weights are "
                   "too large; keep them within about +-1e18");
}

void require_weight_count(long long count, const std::string& what) {
  if (count <= kMaxWeights) return;
  throw InputError(what + " would have " + std::to_string(count) + " weights; allowed: up to " +
                   std::to_string(kMaxWeights) + " (use a smaller d_model or width)");
}

void require_range(long long value, long long lo, long long hi, const std::string& what) {
  if (value < lo || value > hi) {
    throw InputError(what + " is " + std::to_string(value) + "; allowed: " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  }
}

}  // namespace attn
