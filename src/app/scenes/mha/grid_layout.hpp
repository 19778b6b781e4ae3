// How the multi-head scene lays out its grids: columns, square side and where each grid's statistics go,
// from the room there is (no ImGui: plain arithmetic on sizes in CSS pixels).
#pragma once

namespace app::mha {

inline constexpr float kMinSide = 56.0f, kMaxSide = 420.0f;  // a grid's square: readable, not huge

struct GridLayout {
  int cols = 1;
  float side = kMinSide;
  bool stats_beside = false;  // statistics to the right of each grid instead of under it
};

// Room a grid needs around its square: row labels, gap, and the statistics under or beside it.
struct CellExtra {
  float w, h;
};

// Columns, square side and where the statistics go for `heads` grids in avail_w x avail_h; each line of
// grids ends with one colour bar (bar_w). Picks the arrangement with the largest squares.
GridLayout grid_layout(int heads, float avail_w, float avail_h, float bar_w, CellExtra under,
                       CellExtra beside, bool try_beside);

// Columns and side for `heads` grids laid out by the width alone, for an iframe as tall as its content (a
// course page's figure: a layout that followed the height would change the height it follows): the fewest
// lines of grids whose squares are at least kMinSide, each as large as fits.
GridLayout width_layout(int heads, float avail_w, float bar_w, CellExtra under);

}  // namespace app::mha
