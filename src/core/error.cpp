// Input checks shared by the core: finiteness and ranges, reported as InputError.
#include "error.hpp"

#include <cmath>

#include "gemm.hpp"

namespace attn {

std::string join_message(std::initializer_list<MessagePart> parts) {
  std::string out;
  for (const MessagePart& p : parts) {
    if (p.is_number) {
      out += std::to_string(p.number);
    } else {
      out += p.text;
    }
  }
  return out;
}

void throw_input_error(std::initializer_list<MessagePart> parts) {
  throw InputError(join_message(parts));
}

void require_finite(const Mat& m, const std::string& what) {
  if (gemm::all_finite(m.data(), m.size()))
    return;  // the quick pass; the loop below names the first bad entry
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (!std::isfinite(m(r, c))) {
        throw_input_error({what, " has a non-finite number (NaN or infinity) at row ", r, ", column ", c,
                           "; only finite numbers are allowed"});
      }
    }
  }
}

void require_finite_result(const Mat& m, const std::string& what) {
  require_finite_result(m.data(), m.size(), what);
}

void require_finite_result(const float* data, Eigen::Index n, const std::string& what) {
  if (gemm::all_finite(data, n)) return;
  throw InputError(what +
                   " overflowed float32 (a NaN or an infinity in the result): the inputs or weights are "
                   "too large; keep them within about +-1e18");
}

void require_weight_count(long long count, const std::string& what) {
  if (count <= kMaxWeights) return;
  throw_input_error({what, " would have ", count, " weights; allowed: up to ", kMaxWeights,
                     " (use a smaller d_model or width)"});
}

void require_range(long long value, long long lo, long long hi, const std::string& what) {
  if (value < lo || value > hi) {
    throw_input_error({what, " is ", value, "; allowed: ", lo, " to ", hi});
  }
}

}  // namespace attn
