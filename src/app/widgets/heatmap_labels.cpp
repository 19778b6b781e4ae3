// A heatmap's axis labels: across or upright, the hovered one on a background, none overlapping another.
#include "app/widgets/heatmap_labels.hpp"

#include <cstddef>

namespace app {
namespace {

// Whether a and b overlap, or come within `gap_x` pixels of each other side by side.
bool overlaps(const LabelRect& a, const LabelRect& b, float gap_x = 0.0f) {
  return a[0] < b[0] + b[2] + gap_x && b[0] < a[0] + a[2] + gap_x && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

// The smallest stride of 1, 2, 5, 10, 20, 50, ... at which every stride-th label clears the one before (by
// gap_x side by side: lines of text stacked, or turned upright, need no more than their line height).
size_t label_stride(const std::vector<LabelRect>& rects, float gap_x) {
  for (size_t stride = 1, k = 0;; stride = (k % 3 == 1 ? stride / 2 * 5 : stride * 2), ++k) {
    bool clear = true;
    for (size_t i = stride; i < rects.size() && clear; i += stride)
      clear = !overlaps(rects[i - stride], rects[i], gap_x);
    if (clear || stride >= rects.size()) return stride;
  }
}

// Draws `text` in rect r (w x h on screen): across, or turned a quarter left so it reads upwards from the
// rect's bottom (then r is one line wide). With a background for the hovered row's or column's label.
void draw_label(ImDrawList* dl, const LabelRect& r, bool upright, bool highlight, const std::string& text) {
  if (highlight) {
    dl->AddRectFilled(ImVec2(r[0] - 2, r[1]), ImVec2(r[0] + r[2] + 2, r[1] + r[3]),
                      ImGui::GetColorU32(ImGuiCol_PopupBg));
  }
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
  if (!upright) {
    dl->AddText(ImVec2(r[0], r[1]), col, text.c_str());
    return;
  }
  const ImVec2 p(r[0], r[1] + r[3]);  // the text's start: the rect's bottom left
  const int first = dl->VtxBuffer.Size;
  dl->AddText(p, col, text.c_str());
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {  // (dx, dy) from p -> (dy, -dx)
    ImVec2& v = dl->VtxBuffer[i].pos;
    v = ImVec2(p.x + (v.y - p.y), p.y - (v.x - p.x));
  }
}

}  // namespace

void draw_axis_labels(ImDrawList* dl, const std::vector<LabelRect>& rects,
                      const std::vector<std::string>& text, bool upright, const LabelRect* hot,
                      const std::string& hot_text, std::vector<LabelRect>& drawn) {
  const float gap_x = upright ? 0.0f : kLabelClearance;
  const size_t stride = label_stride(rects, gap_x);
  for (size_t k = 0; k < rects.size(); k += stride) {
    if (hot && overlaps(rects[k], *hot, gap_x)) continue;
    draw_label(dl, rects[k], upright, false, text[k]);
    drawn.push_back(rects[k]);
  }
  if (hot) {
    draw_label(dl, *hot, upright, true, hot_text);
    drawn.push_back(*hot);
  }
}

}  // namespace app
