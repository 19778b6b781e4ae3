// The checks and the rotation speed the position schemes share (each scheme lives in core/schemes).
#include "positions.hpp"

#include <algorithm>
#include <cmath>

#include "error.hpp"

namespace attn {

void require_base(double base) {
  if (!std::isfinite(base) || base <= 1.0 || base > 1e12) {
    throw InputError("the base is " + std::to_string(base) + "; allowed: a number above 1 (default 10000)");
  }
}

void require_positions(const std::vector<int>& positions) {
  for (int p : positions) require_range(p, 0, kMaxPosition, "a position");
}

double rotation_speed(double base, int pair, int width) {
  return std::exp(-std::log(base) * (2.0 * pair) / static_cast<double>(width));
}

std::vector<int> range_positions(int count) {
  require_range(count, 0, kMaxPosition, "the number of positions");
  std::vector<int> p(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) p[static_cast<size_t>(i)] = i;
  return p;
}

int position_span(const std::vector<int>& positions, int count) {
  if (positions.empty()) return std::max(count - 1, 0);
  const auto [lo, hi] = std::minmax_element(positions.begin(), positions.end());
  return *hi - *lo;
}

}  // namespace attn
