// The multi-head scene's token window: which part of a long text the grids show, zoom and pan.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/scenes/mha/panels.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/widgets.hpp"

namespace app::mha {
namespace {

// Before a first draw: the largest sides mha.cpp's layout gives them.
constexpr float kFirstSide = 420.0f, kFirstEnlargedSide = 760.0f;

// A window the scene chose (none chosen, s.row's readable window) becomes the learner's, to move on from.
void pin(Settings& s, const GridWindow& w) {
  if (s.span != 0) return;
  s.span = w.size, s.from = w.row0, s.key_from = w.col0;
}

// The window of n tokens around the centre of the current one (n >= t: the whole text).
void set_span(const MhaState& ms, Settings& s, const GridWindow& w, int n, int t) {
  if (n >= t) {
    // the whole text: chosen (span t) where it would otherwise open on a readable window
    s.span = grid_readable(grid_side(ms, s.head >= 0), t) ? 0 : t, s.from = 0, s.key_from = 0;
    return;
  }
  s.span = std::max(n, kMinSpan);
  s.from = std::clamp(w.row0 + (w.size - s.span) / 2, 0, t - s.span);
  s.key_from = std::clamp(w.col0 + (w.size - s.span) / 2, 0, t - s.span);
}

}  // namespace

float grid_side(const MhaState& ms, bool enlarged) {
  const float side = enlarged ? ms.enlarged_side : ms.side;
  return side > 0.0f ? side : enlarged ? kFirstEnlargedSide : kFirstSide;
}

void note_grid_side(MhaState& ms, float side, bool enlarged, int t) {
  float& kept = enlarged ? ms.enlarged_side : ms.side;
  const bool same_window = std::fabs(kept - side) < 0.5f ||
                           (grid_readable(kept, t) && grid_readable(side, t)) ||  // the whole text either way
                           (!grid_readable(kept, t) && !grid_readable(side, t) &&
                            std::floor(kept / kReadableCell) == std::floor(side / kReadableCell));
  kept = side;
  if (!same_window) request_next_frame();  // the window drawn this frame was chosen for the old side
}

GridWindow grid_window(const MhaState& ms, const Settings& s, int t) {
  return token_window(s, t, grid_side(ms, s.head >= 0));
}

void draw_window_controls(const MhaState& ms, Settings& s, int t) {
  const GridWindow w = grid_window(ms, s, t);
  if (t <= kWindowFrom && w.size == t) return;  // short texts: every cell is big enough
  ImGui::AlignTextToFramePadding();
  if (w.size == t) {
    ImGui::TextUnformatted("Window: the whole text.");
  } else {
    ImGui::Text("Window: %d of %d tokens.", w.size, t);
  }
  // each button goes on the line while it fits, so a phone wraps the row instead of cutting it
  same_line_if_fits(buttons_width({"Zoom in"}));
  if (ImGui::Button("Zoom in")) set_span(ms, s, w, w.size == t ? kWindowFrom : w.size / 2, t);
  ImGui::BeginDisabled(w.size == t);
  same_line_if_fits(buttons_width({"Zoom out"}));
  if (ImGui::Button("Zoom out")) set_span(ms, s, w, w.size * 2, t);
  same_line_if_fits(buttons_width({"Whole text"}));
  if (ImGui::Button("Whole text")) set_span(ms, s, w, t, t);
  mark_item("mha/whole_text");
  ImGui::EndDisabled();
  help_marker(
      "A long text makes tiny cells. Zoom in to read every label: the grids then show a window of the "
      "queries (rows) and keys (columns). Drag a grid, or use the sliders, to move the window; Ctrl + "
      "mouse wheel over a grid zooms around the cell under the pointer.");
  // the sliders stay (greyed) for the whole text, so that zooming does not move the grids down
  ImGui::BeginDisabled(w.size == t);
  int from = w.row0, key_from = w.col0;
  ImGui::SetNextItemWidth(narrow_screen() ? -1.0f : 220.0f);
  if (slider_int("queries from", &from, 0, t - w.size, "query %d")) pin(s, w), s.from = from;
  same_line_if_fits(220.0f, "keys from");
  ImGui::SetNextItemWidth(narrow_screen() ? -1.0f : 220.0f);
  if (slider_int("keys from", &key_from, 0, t - w.size, "key %d")) pin(s, w), s.key_from = key_from;
  ImGui::EndDisabled();
}

void follow_grid_gesture(MhaState& ms, Settings& s, const HeatmapHover& g, int t) {
  bool& panning = ms.panning;
  GridWindow& start = ms.pan_start;
  const GridWindow w = grid_window(ms, s, t);
  if (g.zoom != 0.0f && g.row >= 0) {  // zoom around the cell under the pointer
    const int n = std::clamp(g.zoom > 0.0f ? w.size / 2 : w.size * 2, kMinSpan, t);
    if (n >= t) {
      set_span(ms, s, w, t, t);
      return;
    }
    s.span = n;
    s.from = std::clamp(g.row - (g.row - w.row0) * n / w.size, 0, t - n);
    s.key_from = std::clamp(g.col - (g.col - w.col0) * n / w.size, 0, t - n);
    return;
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) panning = false;  // (every grid calls this)
  if (!g.dragging || w.size == t) return;
  if (!panning) start = w, panning = true;
  pin(s, w);
  // the content follows the pointer, by whole cells from where the drag began
  s.from = std::clamp(start.row0 - static_cast<int>(std::lround(g.drag_rows)), 0, t - w.size);
  s.key_from = std::clamp(start.col0 - static_cast<int>(std::lround(g.drag_cols)), 0, t - w.size);
}

}  // namespace app::mha
