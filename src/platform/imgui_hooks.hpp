// The keyboard-focused ImGui item's label and state, caught by ImGui's item hooks, for the screen-reader
// mirror (state().focus and the page's live region).
#pragma once

#include <string>

namespace platform {

struct FocusedItem {
  bool present = false;  // an item has the keyboard focus and its focus rectangle is shown
  std::string label;     // what the item says ("position", "Next >"), without ImGui's ## suffix
  bool checkable = false, checked = false;
};

// Turns the hooks on (after ImGui::CreateContext).
void enable_item_hooks();
// The item ImGui's keyboard navigation has focused in the frame being built (or the last one).
FocusedItem focused_item();
// The focused control's value as the mirror says it (a slider's number, a text box's text); controls set
// it while drawn, and the app clears it before each frame.
std::string& focused_value();

}  // namespace platform
