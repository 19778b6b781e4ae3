// A heatmap's axis labels: across or upright, the hovered one on a background, none overlapping another.
#pragma once

#include <imgui.h>

#include <array>
#include <string>
#include <vector>

namespace app {

using LabelRect = std::array<float, 4>;  // x, y, w, h on the screen

inline constexpr float kLabelClearance = 3.0f;  // pixels between two labels side by side

// One axis' labels: `rects[k]` for text[k] (in order along the axis; upright: turned a quarter left, read
// upwards from the rect's bottom, the rect one line wide), the hovered one (`hot`, or null) drawn last on a
// background. The labels drawn are every stride-th (stride 1, 2, 5, 10, 20, ...: the smallest at which
// none overlaps the one before, and labels side by side keep kLabelClearance between them), so they stay
// evenly spaced and never read as one ("10" beside "15" is not "1015"); one that would touch the hovered
// label is left out. Appends what was
// drawn to `drawn`.
void draw_axis_labels(ImDrawList* dl, const std::vector<LabelRect>& rects,
                      const std::vector<std::string>& text, bool upright, const LabelRect* hot,
                      const std::string& hot_text, std::vector<LabelRect>& drawn);

}  // namespace app
