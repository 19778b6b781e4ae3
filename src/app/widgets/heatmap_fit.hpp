// What the heatmap widget derives from a spec and keeps per heatmap between frames (held by the UiState).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gfx/colormap.hpp"

namespace app {

struct HeatmapRange {
  float lo, hi;
};

// What heatmap_view derives from a spec: the colour range, the fitted labels and their widths, the colour
// bar's ticks. Kept per heatmap id and rebuilt only when the spec's version, shape, size, font or colours
// change, so a frame that changed nothing only lays out and draws.
struct HeatmapFit {
  // the inputs
  std::uint64_t version = 0;
  int rows = 0, cols = 0, row0 = 0, col0 = 0;             // the part drawn
  float w = 0.0f, h = 0.0f, font = 0.0f, font_px = 0.0f;  // line height; the atlas' pixel size (zoom, DPR)
  gfx::Colormap colormap = gfx::Colormap::Viridis;
  bool auto_range = true;
  float spec_lo = 0.0f, spec_hi = 0.0f;
  std::string row_title, col_title;
  // the results
  HeatmapRange range{0.0f, 1.0f};
  std::shared_ptr<const std::vector<std::string>> row_labels, col_labels;  // copies of the spec's
  int row_step = 1, col_step = 1;     // label every row_step-th row, col_step-th column
  std::vector<std::string> row_text;  // (ceil(rows / row_step),) fitted row labels
  std::vector<float> row_text_w;
  std::vector<std::string> col_text;  // (cols,) fitted column labels
  std::vector<float> col_text_w;
  bool rotated = false;   // column labels read upwards, one line wide (more of them fit)
  float header_h = 0.0f;  // height of the column label band
  float left_w = 0.0f;    // the widest row label (or the row title)
  std::vector<std::pair<float, std::string>> ticks;  // (height fraction from the top, text)
  float tick_w = 0.0f;
};

struct HeatmapSpec;

inline constexpr float kMaxRowLabelW = 90.0f;  // longer row labels are cut with ".."

// The fit of `spec`'s rows x cols part from row0, col0, drawn w x h with text lines line_h high, from the
// UiState's cache when nothing it depends on changed (heatmap_fit.cpp).
const HeatmapFit& fitted_heatmap(const HeatmapSpec& spec, int row0, int col0, int rows, int cols, float w,
                                 float h, float line_h);
// labels[i], or the index where there are no labels (or too few).
std::string label_text(const std::vector<std::string>& labels, int i);
// s cut (at a UTF-8 character boundary) and ended with ".." so that it is at most max_w wide.
std::string fit_text(const std::string& s, float max_w);

}  // namespace app
