// Numbers and sentences as text: printf into a string, thousands separators, and line wrapping that
// never splits a number (no UI code: the app, the exercises and the tests share it).
#pragma once

#include <cstdarg>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace app {

// printf into a std::string (any length).
__attribute__((format(printf, 1, 2))) std::string format(const char* fmt, ...);
// The same with a va_list (left unchanged: it is copied).
std::string vformat(const char* fmt, va_list args);

// 1048576 -> "1,048,576"; -1234 -> "-1,234".
std::string grouped(long long n);

// 1 -> "1st", 2 -> "2nd", 3 -> "3rd", 11 -> "11th", 37 -> "37th".
std::string ordinal(int n);
// x with 3 significant digits as a person says it: 0.79, 0.0000658, 1230, 1.23e+09 (plain decimals from
// 1e-6 up to 1e6).
std::string spoken_number(double x);

// The items of a `sep`-separated list as std::getline would read them, without a stream (the page then
// links none of the iostream and locale code): "a,,b" -> "a", "", "b"; a trailing separator adds no
// empty item; "" -> none.
std::vector<std::string> split_list(std::string_view text, char sep);
// `v` as a whole number or decimal from lo to hi (all of it: no spaces or trailing text); false if not.
bool parse_number(const std::string& v, double lo, double hi, double& out);

// Width of a piece of text in pixels (the app passes its font's measure; tests may pass their own).
using TextMeasure = std::function<float(std::string_view)>;

// Splits `text` into lines no wider than `width`, breaking only at spaces (the space at a break is
// dropped) and at '\n'. A word is never split, so neither is a number such as "1,048,576" or
// "0.999996": a word wider than the whole line stands alone on its line.
std::vector<std::string> wrap_lines(std::string_view text, float width, const TextMeasure& measure);

// For two pieces that stand next to each other in a text, with nothing between them: true when the
// cut between them falls inside a number ("1," | "048,576" or "0." | "999996"). Used by the tests.
bool splits_number(std::string_view prev, std::string_view next);

}  // namespace app
