// The multi-head scene's grid layout: the arrangement with the largest squares, or by the width alone.
#include "app/scenes/mha/grid_layout.hpp"

#include <algorithm>

namespace app::mha {

GridLayout grid_layout(int heads, float avail_w, float avail_h, float bar_w, CellExtra under,
                       CellExtra beside, bool try_beside) {
  GridLayout best{1, 0.0f, false};
  for (int mode = 0; mode < (try_beside ? 2 : 1); ++mode) {
    const CellExtra e = mode ? beside : under;
    for (int c = 1; c <= heads; ++c) {
      const int rows = (heads + c - 1) / c;
      const float by_w = (avail_w - bar_w) / static_cast<float>(c) - e.w;
      const float by_h = avail_h / static_cast<float>(rows) - e.h;
      const float side = std::min({by_w, by_h, kMaxSide});
      if (side > best.side + 0.5f) best = {c, side, mode == 1};
    }
  }
  if (best.side >= kMinSide) return best;
  // Too little room: the smallest readable squares, as many to a line as fit; the page scrolls.
  const int c = std::clamp(static_cast<int>((avail_w - bar_w) / (kMinSide + under.w)), 1, heads);
  return {c, std::clamp((avail_w - bar_w) / static_cast<float>(c) - under.w, kMinSide, kMaxSide), false};
}

GridLayout width_layout(int heads, float avail_w, float bar_w, CellExtra under) {
  const auto side_for = [&](int c) {
    return std::min((avail_w - bar_w) / static_cast<float>(c) - under.w, kMaxSide);
  };
  for (int lines = 1; lines <= heads; ++lines) {
    const int c = (heads + lines - 1) / lines;
    if (side_for(c) >= kMinSide) return {c, side_for(c), false};
  }
  return {1, std::max(kMinSide, side_for(1)), false};
}

}  // namespace app::mha
