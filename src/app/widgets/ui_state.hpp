// What the widgets keep between frames and what one frame drew and said, in one struct the App owns; the
// widgets reach it through ui_state(), the way Dear ImGui's functions reach its current context.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/widgets/heatmap_fit.hpp"
#include "app/widgets/heatmap_keys.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/number_input.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"

namespace app {

// An exercise checked this frame (which one, the answer given, whether it was right): the page's `answer`
// event.
struct AnswerEvent {
  std::string which, answer;
  bool right = false;
};

// What one frame drew and said (cleared when a frame starts): for state(), heatmaps() and the page.
struct FrameOutput {
  std::vector<DrawnHeatmap> heatmaps;  // drawn_heatmaps()
  HoverReport hover;                   // hovered_heatmap()
  std::vector<std::string> texts;      // frame_texts(): every paragraph
  std::vector<NamedRect> rects;        // frame_rects(): named items
  std::vector<std::string> messages;   // frame_messages(): errors and notes shown in place
  std::vector<AnswerEvent> answers;    // exercises checked (SceneContext::answered)
  bool next_frame = false;             // request_next_frame() was called
  // Clears what a frame writes (next_frame included).
  void clear();
};

// This frame's settings as the controls need them (set_frame_settings()).
struct FrameSettings {
  bool figure = false;              // this frame shows the figure view (view=figure)
  std::string scene;                // the scene drawn this frame
  std::vector<const void*> locked;  // addresses of this frame's locked settings
};

struct UiState {
  FrameOutput out;
  FrameSettings frame;
  struct {
    std::map<std::string, HeatmapFit> fitted;  // by heatmap id
  } heatmaps;
  HeatmapCursor cursor;  // the focused grid's cell
  TableState tables;     // measured columns
  ThemeState theme;      // the look in use
  NumberInputState numbers;
  std::string last_saved;  // what the last heatmap export did, shown in its menu
};

// The state in use: the one given to use_ui_state(), else one of the widgets' own (tests that draw widgets
// without an App).
UiState& ui_state();
// Makes `s` the state the widgets use (the App's, while it lives); nullptr: the widgets' own again.
void use_ui_state(UiState* s);

}  // namespace app
