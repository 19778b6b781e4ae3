// A line plot drawn with ImGui's draw list: several series over one x axis, value ticks, a target line,
// marked x positions, a legend and a tooltip with the values at the mouse (the schemes and train scenes).
#pragma once

#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

namespace app {

// One line: y(i) at x(i), n points; x null: x(i) = x0 + i. Non-finite y values leave a gap.
struct PlotSeries {
  std::string name;
  const float* x = nullptr;
  const float* y = nullptr;  // (n,)
  size_t n = 0;
  ImU32 color = IM_COL32(200, 200, 200, 255);
  float x0 = 0.0f;
};

struct PlotOptions {
  ImVec2 size{300.0f, 150.0f};  // the whole plot, value labels and legend excluded
  float x_lo = 0.0f, x_hi = 1.0f;
  float y_lo = NAN, y_hi = NAN;  // NAN: from the finite values (widened by 0.5 when flat)
  std::vector<float> y_ticks;    // grid lines with their values; empty: y_lo and y_hi
  std::vector<float> x_marks;    // vertical lines (e.g. offset 0), labelled with their x
  float target = NAN;            // a dashed horizontal line (e.g. the target accuracy)
  std::string x_name = "x";      // the tooltip's first line: "<x_name> <x>"
  bool integer_x = true;         // the tooltip snaps to whole x values
  bool dots = false;             // a dot on each point (when there are few)
};

// Draws the plot at the cursor and reserves its space. Long series are thinned to about two points per
// pixel; the tooltip shows, for each series, the point nearest the mouse's x.
void line_plot(const char* id, const std::vector<PlotSeries>& series, const PlotOptions& opt);

}  // namespace app
