// The heatmap widget's fitted parts: the colour range, the labels cut to fit and how many to skip, the
// colour bar's ticks; kept per heatmap and rebuilt only when what they depend on changes.
#include "app/widgets/heatmap_fit.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/ui_state.hpp"
#include "gfx/colormap.hpp"

namespace app {
namespace {

constexpr float kLabelGap = 3.0f;  // least space between two column labels

// The range mapped to the colormap's ends. Auto: sequential min..max of the shown (finite) values, widened
// by +-0.5 when all are equal; diverging symmetric +-max|v|. values: (rows, cols).
HeatmapRange value_range(const HeatmapSpec& spec) {
  if (!spec.auto_range) return {spec.lo, spec.hi};
  const attn::Mat& m = *spec.values;
  float mn = INFINITY, mx = -INFINITY, amax = 0.0f;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const float v = m.data()[i];
    if (!gfx::is_shown_value(v)) continue;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    amax = std::max(amax, std::fabs(v));
  }
  if (spec.colormap == gfx::Colormap::Diverging) {
    const float a = amax > 0.0f ? amax : 0.5f;
    return {-a, a};
  }
  if (!(mn <= mx)) return {0.0f, 1.0f};  // no finite value at all
  if (mn == mx) return {mn - 0.5f, mx + 0.5f};
  return {mn, mx};
}

// The smallest of 1, 2, 5, 10, 20, 50, ... that is >= n: label every 1st, 2nd, 5th, 10th, ... row/column.
int nice_step(int n) {
  for (int base = 1;; base *= 10) {
    for (int m : {1, 2, 5}) {
      if (m * base >= n) return m * base;
    }
  }
}

std::string format_value(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(v));
  return buf;
}

}  // namespace

std::string label_text(const std::vector<std::string>& labels, int i) {
  // labels: (n,) or empty; past the end: the index
  return i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)] : std::to_string(i);
}

// s cut (at a UTF-8 character boundary) and ended with ".." so that it is at most max_w wide. Linear in
// the length of s, so a 100,000-character token costs one pass.
std::string fit_text(const std::string& s, float max_w) {
  if (ImGui::CalcTextSize(s.data(), s.data() + s.size()).x <= max_w) return s;
  const float room = std::max(0.0f, max_w - ImGui::CalcTextSize("..").x);
  const char* stop = s.data();  // where the text stops fitting in `room` (a character boundary)
  ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), room, 0.0f, s.data(), s.data() + s.size(), &stop);
  return s.substr(0, static_cast<size_t>(stop - s.data())) + "..";
}

// The fitted labels, range and ticks of `spec` (the rows x cols part from row0, col0 drawn w x h, text
// lines line_h high), from the cache when nothing they depend on changed.
const HeatmapFit& fitted_heatmap(const HeatmapSpec& spec, int row0, int col0, int rows, int cols, float w,
                                 float h, float line_h) {
  HeatmapFit& f = ui_state().heatmaps.fitted[spec.id];
  if (spec.version != 0 && f.version == spec.version && f.rows == rows && f.cols == cols && f.row0 == row0 &&
      f.col0 == col0 && f.w == w && f.h == h && f.font == line_h && f.font_px == ImGui::GetFont()->FontSize &&
      f.colormap == spec.colormap && f.auto_range == spec.auto_range && f.spec_lo == spec.lo &&
      f.spec_hi == spec.hi && f.row_title == spec.row_title && f.col_title == spec.col_title) {
    return f;
  }
  f = HeatmapFit();
  f.version = spec.version, f.rows = rows, f.cols = cols, f.row0 = row0, f.col0 = col0;
  f.w = w, f.h = h, f.font = line_h;
  f.font_px = ImGui::GetFont()->FontSize;
  f.colormap = spec.colormap, f.auto_range = spec.auto_range, f.spec_lo = spec.lo, f.spec_hi = spec.hi;
  f.row_title = spec.row_title, f.col_title = spec.col_title;
  f.range = value_range(spec);
  f.row_labels = std::make_shared<const std::vector<std::string>>(
      spec.row_labels ? *spec.row_labels : std::vector<std::string>());
  f.col_labels = std::make_shared<const std::vector<std::string>>(
      spec.col_labels ? *spec.col_labels : std::vector<std::string>());
  const float cell_w = w / static_cast<float>(cols), cell_h = h / static_cast<float>(rows);
  f.row_step = nice_step(static_cast<int>(std::ceil(line_h / cell_h)));  // labels a line apart
  f.left_w = std::max(spec.row_label_w, ImGui::CalcTextSize(spec.row_title.c_str()).x);
  for (int r = 0; r < rows; r += f.row_step) {
    f.row_text.push_back(fit_text(label_text(*f.row_labels, row0 + r), kMaxRowLabelW));
    f.row_text_w.push_back(ImGui::CalcTextSize(f.row_text.back().c_str()).x);
    f.left_w = std::max(f.left_w, f.row_text_w.back());
  }
  float col_label_w = 0.0f;
  for (int c = 0; c < cols; ++c) {
    f.col_text.push_back(fit_text(label_text(*f.col_labels, col0 + c), kMaxColLabelW));
    f.col_text_w.push_back(ImGui::CalcTextSize(f.col_text.back().c_str()).x);
    col_label_w = std::max(col_label_w, f.col_text_w.back());
  }
  // Side by side, a column label needs its text's width; turned upwards, one line: whichever labels more.
  const int flat = nice_step(static_cast<int>(std::ceil((col_label_w + kLabelGap) / cell_w)));
  const int upright = nice_step(static_cast<int>(std::ceil((line_h + 1.0f) / cell_w)));
  f.rotated = upright < flat;
  f.col_step = f.rotated ? upright : flat;
  f.header_h = f.rotated ? std::max(line_h, col_label_w) + 2.0f : line_h;
  // Colour bar ticks: hi at the top, lo at the bottom, 0 between for the diverging map.
  f.ticks = {{0.0f, format_value(f.range.hi)}, {1.0f, format_value(f.range.lo)}};
  if (spec.colormap == gfx::Colormap::Diverging && h >= 3.0f * line_h) {
    f.ticks.push_back({1.0f - gfx::colormap_t(spec.colormap, 0.0f, f.range.lo, f.range.hi), "0"});
  }
  for (const auto& t : f.ticks) f.tick_w = std::max(f.tick_w, ImGui::CalcTextSize(t.second.c_str()).x);
  return f;
}

}  // namespace app
