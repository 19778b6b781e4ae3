// The one error type for bad input: a message a learner can read, shown by the UI or printed by the CLI.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "types.hpp"

namespace attn {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

// One piece of an error message: text, or a whole number (not bool or char) written as std::to_string
// writes it. A message is a braced list of pieces joined by one function, so each throw site stays a few
// instructions long.
struct MessagePart {
  MessagePart(const char* s) : text(s) {}
  MessagePart(std::string_view s) : text(s) {}
  MessagePart(const std::string& s) : text(s) {}
  template <class I,
            std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>,
                             int> = 0>
  MessagePart(I n) : number(static_cast<long long>(n)), is_number(true) {}
  std::string_view text;
  long long number = 0;
  bool is_number = false;
};

// The pieces joined into one string.
std::string join_message(std::initializer_list<MessagePart> parts);
// Throws InputError with the pieces joined.
[[noreturn]] void throw_input_error(std::initializer_list<MessagePart> parts);

// Throws InputError naming `what` if any entry of m is NaN or infinite.
void require_finite(const Mat& m, const std::string& what);
// Throws InputError when a computed result `what` has a NaN or infinity: the inputs or weights were too
// large for float32. A result is an error then, never silently NaN.
void require_finite_result(const Mat& m, const std::string& what);
// The same for the n floats at `data`.
void require_finite_result(const float* data, Eigen::Index n, const std::string& what);
// Throws InputError when `count` weights of `what` are more than kMaxWeights.
void require_weight_count(long long count, const std::string& what);
// Throws InputError unless lo <= value <= hi, naming `what` and the allowed range.
void require_range(long long value, long long lo, long long hi, const std::string& what);

}  // namespace attn
