// Long texts in the multi-head scene: token windows, readability, text excerpts and the find box's matching.
#include "app/logic/long_text.hpp"

#include <algorithm>
#include <cmath>

namespace app {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool contains(const std::string& text, const std::string& needle) {
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return lower(a) == lower(b); }) != text.end();
}

}  // namespace

bool grid_readable(float side, int t) {
  return t <= 0 || side / static_cast<float>(t) >= kUnreadableCell;
}

TokenWindow token_window(const Settings& s, int t, float side) {
  TokenWindow w;
  if (s.span == 0 && (side <= 0.0f || grid_readable(side, t))) {
    w.size = t;
  } else if (s.span == 0) {
    w.size = std::clamp(static_cast<int>(std::floor(side / kReadableCell)), std::min(kMinSpan, t), t);
    w.row0 = w.col0 = std::clamp(s.row - w.size / 2, 0, t - w.size);
    return w;
  } else {
    w.size = s.span >= t ? t : std::max(s.span, std::min(kMinSpan, t));
  }
  w.row0 = std::clamp(s.from, 0, t - w.size);
  w.col0 = std::clamp(s.key_from, 0, t - w.size);
  return w;
}

bool heads_as_text(const Settings& s, int t, float side) {
  if (s.heads_view != HeadsView::Auto) return s.heads_view == HeadsView::Text;
  return side > 0.0f && !grid_readable(side, t);
}

TokenRange tokens_around(int t, int row, int count) {
  const int n = std::clamp(count, 0, t);
  TokenRange r;
  r.first = std::clamp(row - n / 2, 0, t - n);
  r.last = r.first + n - 1;
  return r;
}

int find_token(const std::vector<std::string>& tokens, const std::string& needle, int after) {
  const auto t = static_cast<int>(tokens.size());
  if (needle.empty() || t == 0) return -1;
  const int start = std::clamp(after + 1, 0, t);
  for (int k = 0; k < t; ++k) {
    const int i = (start + k) % t;
    if (contains(tokens[static_cast<size_t>(i)], needle)) return i;
  }
  return -1;
}

MatchCount count_matches(const std::vector<std::string>& tokens, const std::string& needle, int token) {
  MatchCount m;
  if (needle.empty()) return m;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    if (!contains(tokens[static_cast<size_t>(i)], needle)) continue;
    ++m.total;
    if (i == token) m.index = m.total;
  }
  return m;
}

}  // namespace app
