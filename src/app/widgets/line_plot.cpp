// A line plot drawn with ImGui's draw list: series, ticks, a target line, marks, legend and tooltip.
#include "app/widgets/line_plot.hpp"

#include <algorithm>
#include <cstdio>

#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"

namespace app {
namespace {

float x_at(const PlotSeries& s, size_t i) {
  return s.x ? s.x[i] : s.x0 + static_cast<float>(i);
}

// The finite range of every series' y, widened when flat; (0, 1) when there is no finite value.
void y_range(const std::vector<PlotSeries>& series, float& lo, float& hi) {
  lo = INFINITY, hi = -INFINITY;
  for (const PlotSeries& s : series) {
    for (size_t i = 0; i < s.n; ++i) {
      if (std::isfinite(s.y[i])) lo = std::min(lo, s.y[i]), hi = std::max(hi, s.y[i]);
    }
  }
  if (!(lo <= hi)) lo = 0.0f, hi = 1.0f;
  if (hi - lo < 1e-6f) lo -= 0.5f, hi += 0.5f;
}

std::string number(const char* format, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

void line_plot(const char* id, const std::vector<PlotSeries>& series, const PlotOptions& opt) {
  ImGui::PushID(id);
  float lo = opt.y_lo, hi = opt.y_hi;
  if (!std::isfinite(lo) || !std::isfinite(hi)) y_range(series, lo, hi);
  const std::vector<float> ticks = opt.y_ticks.empty() ? std::vector<float>{lo, hi} : opt.y_ticks;
  float label_w = 0.0f;
  for (float t : ticks) label_w = std::max(label_w, ImGui::CalcTextSize(number("%.3g", t).c_str()).x);
  const float line_h = ImGui::GetTextLineHeight();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const bool marks = !opt.x_marks.empty();
  const ImVec2 a(p0.x + label_w + 6.0f, p0.y + 0.5f * line_h);
  const ImVec2 b(p0.x + opt.size.x, p0.y + opt.size.y - (marks ? line_h + 2.0f : 0.0f));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(a, b, ink_u32(Ink::PlotBg));
  const float x_span = opt.x_hi > opt.x_lo ? opt.x_hi - opt.x_lo : 1.0f;
  auto px = [&](float x) { return a.x + (b.x - a.x) * (x - opt.x_lo) / x_span; };
  auto py = [&](float y) { return b.y - (b.y - a.y) * std::clamp((y - lo) / (hi - lo), 0.0f, 1.0f); };
  const ImU32 grid = ink_u32(Ink::PlotGrid), text = ink_u32(Ink::PlotText);
  for (float t : ticks) {
    dl->AddLine(ImVec2(a.x, py(t)), ImVec2(b.x, py(t)), grid);
    dl->AddText(ImVec2(p0.x, py(t) - 0.5f * line_h), text, number("%.3g", t).c_str());
  }
  for (float m : opt.x_marks) {
    dl->AddLine(ImVec2(px(m), a.y), ImVec2(px(m), b.y), ink_u32(Ink::PlotGrid));
    const std::string label = number("%g", m);
    dl->AddText(ImVec2(px(m) - 0.5f * ImGui::CalcTextSize(label.c_str()).x, b.y + 2.0f), text, label.c_str());
  }
  if (std::isfinite(opt.target)) {
    for (float x = a.x; x < b.x; x += 8.0f)
      dl->AddLine(ImVec2(x, py(opt.target)), ImVec2(std::min(b.x, x + 4.0f), py(opt.target)),
                  ink_u32(Ink::Right));
  }
  dl->PushClipRect(a, b, true);
  const size_t max_points = static_cast<size_t>(2.0f * (b.x - a.x)) + 2;
  std::vector<ImVec2> pts;
  for (const PlotSeries& s : series) {
    const size_t stride = std::max<size_t>(1, s.n / max_points);
    auto flush = [&] {
      if (pts.size() == 1) dl->AddCircleFilled(pts[0], 2.5f, s.color);
      if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.color, 0, 1.75f);
      pts.clear();
    };
    auto add = [&](size_t i) {
      if (!std::isfinite(s.y[i])) return flush();
      pts.emplace_back(px(x_at(s, i)), py(s.y[i]));
      if (opt.dots) dl->AddCircleFilled(pts.back(), 2.5f, s.color);
    };
    for (size_t i = 0; i < s.n; i += stride) add(i);
    if (s.n > 0 && (s.n - 1) % stride != 0) add(s.n - 1);
    flush();
  }
  dl->PopClipRect();
  ImGui::InvisibleButton("plot", opt.size);
  if (ImGui::IsItemHovered()) {
    float x = opt.x_lo + (ImGui::GetIO().MousePos.x - a.x) / std::max(1.0f, b.x - a.x) * x_span;
    x = std::clamp(opt.integer_x ? std::round(x) : x, opt.x_lo, opt.x_hi);
    dl->AddLine(ImVec2(px(x), a.y), ImVec2(px(x), b.y), ink_u32(Ink::Cursor));
    ImGui::BeginTooltip();
    ImGui::Text("%s %s", opt.x_name.c_str(), number(opt.integer_x ? "%.0f" : "%.4g", x).c_str());
    for (const PlotSeries& s : series) {
      if (s.n == 0) continue;
      size_t best = 0;
      for (size_t i = 1; i < s.n; ++i) {
        if (std::fabs(x_at(s, i) - x) < std::fabs(x_at(s, best) - x)) best = i;
      }
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.color), "%s: %.4f (%s %s)", s.name.c_str(),
                         static_cast<double>(s.y[best]), opt.x_name.c_str(),
                         number(opt.integer_x ? "%.0f" : "%.4g", x_at(s, best)).c_str());
    }
    ImGui::EndTooltip();
  }
  for (size_t i = 0; i < series.size(); ++i) {
    if (i) same_line_if_fits(ImGui::CalcTextSize(("- " + series[i].name).c_str()).x);  // the legend wraps
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series[i].color), "- %s", series[i].name.c_str());
  }
  ImGui::PopID();
}

}  // namespace app
