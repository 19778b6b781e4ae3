// The one error type for bad input: a message a learner can read, shown by the UI or printed by the CLI.
#pragma once

#include <stdexcept>
#include <string>

#include "types.hpp"

namespace attn {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

// Throws InputError naming `what` if any entry of m is NaN or infinite.
void require_finite(const Mat& m, const std::string& what);
// Throws InputError when a computed result `what` has a NaN or infinity: the inputs or weights were too
// large for float32. A result is an error then, never silently NaN.
void require_finite_result(const Mat& m, const std::string& what);
// Throws InputError when `count` weights of `what` are more than kMaxWeights.
void require_weight_count(long long count, const std::string& what);
// Throws InputError unless lo <= value <= hi, naming `what` and the allowed range.
void require_range(long long value, long long lo, long long hi, const std::string& what);

}  // namespace attn
