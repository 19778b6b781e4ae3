// Numbers and sentences as text: printf into a string, thousands separators, number-safe wrapping.
#include "app/logic/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace app {

std::string vformat(const char* fmt, va_list args) {
  va_list count, write;
  va_copy(count, args);
  va_copy(write, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, count);
  va_end(count);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, write);
  va_end(write);
  return out;
}

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string out = vformat(fmt, args);
  va_end(args);
  return out;
}

std::string grouped(long long n) {
  const unsigned long long magnitude =
      n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
  const std::string digits = std::to_string(magnitude);
  std::string out = n < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string ordinal(int n) {
  const int last2 = std::abs(n) % 100, last = std::abs(n) % 10;
  const char* suffix = (last2 >= 11 && last2 <= 13) ? "th"
                       : last == 1                  ? "st"
                       : last == 2                  ? "nd"
                       : last == 3                  ? "rd"
                                                    : "th";
  return std::to_string(n) + suffix;
}

std::vector<std::string> wrap_lines(std::string_view text, float width, const TextMeasure& measure) {
  std::vector<std::string> lines;
  const float space = measure(" ");
  size_t start = 0;
  while (true) {  // one paragraph (up to '\n') per pass
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view para = text.substr(start, end - start);
    std::string line;
    float line_w = 0.0f;
    size_t i = 0;
    while (i < para.size()) {
      const size_t word_end = std::min(para.find(' ', i), para.size());
      const std::string_view word = para.substr(i, word_end - i);
      const float w = measure(word);
      if (line.empty()) {
        line = word, line_w = w;
      } else if (line_w + space + w <= width) {
        line += ' ', line += word, line_w += space + w;
      } else {
        lines.push_back(line);
        line = word, line_w = w;
      }
      i = word_end + 1;
      while (i < para.size() && para[i] == ' ' && line.empty()) ++i;  // no leading spaces on a new line
    }
    lines.push_back(line);
    if (end >= text.size()) break;
    start = end + 1;
  }
  return lines;
}

bool splits_number(std::string_view prev, std::string_view next) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (prev.empty() || next.empty() || !digit(next[0])) return false;
  const char last = prev.back();
  if (digit(last)) return true;  // "104" + "8576"
  return (last == ',' || last == '.') && prev.size() >= 2 && digit(prev[prev.size() - 2]);
}

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find(sep, start);
    if (end == std::string_view::npos) {
      items.emplace_back(text.substr(start));
      break;
    }
    items.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

std::string spoken_number(double x) {
  char buf[48];
  if (x == 0.0 || !std::isfinite(x)) {
    std::snprintf(buf, sizeof buf, "%g", x == 0.0 ? 0.0 : x);
    return buf;
  }
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(x))));
  if (e < -6 || e >= 6) {
    std::snprintf(buf, sizeof buf, "%.3g", x);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 2 - e), x);
  return buf;
}

bool parse_number(const std::string& v, double lo, double hi, double& out) {
  if (v.empty()) return false;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || !std::isfinite(x) || x < lo || x > hi) return false;
  out = x;
  return true;
}

}  // namespace app
