// A heatmap's axis labels: across or upright, the hovered one on a background, none overlapping another.
#pragma once

#include <imgui.h>

#include <array>
#include <string>
#include <vector>

namespace app {

using LabelRect = std::array<float, 4>;  // x, y, w, h on the screen

// One axis' labels: `rects[k]` for text[k] (in order along the axis; upright: turned a quarter left, read
// upwards from the rect's bottom, the rect one line wide), the hovered one (`hot`, or null) drawn last on a
// background; a label that would overlap one already drawn (or the hovered one) is left out. Appends what
// was drawn to `drawn`.
void draw_axis_labels(ImDrawList* dl, const std::vector<LabelRect>& rects,
                      const std::vector<std::string>& text, bool upright, const LabelRect* hot,
                      const std::string& hot_text, std::vector<LabelRect>& drawn);

}  // namespace app
