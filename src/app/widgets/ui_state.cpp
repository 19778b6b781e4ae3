// The widgets' state in use: the App's, or one of their own when there is no App.
#include "app/widgets/ui_state.hpp"

namespace app {
namespace {

// The one mutable file-scope state of the widgets: which UiState is in use (like Dear ImGui's current
// context), and the one used when no App gave its own.
UiState g_own;
UiState* g_current = &g_own;

}  // namespace

void FrameOutput::clear() {
  heatmaps.clear();
  hover = HoverReport{};
  texts.clear();
  rects.clear();
  messages.clear();
  answers.clear();
  next_frame = false;
}

UiState& ui_state() {
  return *g_current;
}

void use_ui_state(UiState* s) {
  g_current = s ? s : &g_own;
}

}  // namespace app
