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
// Throws InputError unless lo <= value <= hi, naming `what` and the allowed range.
void require_range(long long value, long long lo, long long hi, const std::string& what);

}  // namespace attn
