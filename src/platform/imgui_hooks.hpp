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
// Called right after the scene's own panel begins: the skip link lands on its first tab stop.
void mark_scene_tab_stops();
// Whether Tab (Shift+Tab when backward) pressed now would go past the last (first) tab stop of the last
// frame: then the page lets the browser move the focus out of the canvas.
bool tab_leaves(bool backward);
// Where the keyboard focus goes when it comes into the canvas or leaves a text field's <input>.
enum class TabStop { First, Last, Scene, After, Before };
// Puts the keyboard focus (shown) on that tab stop of the last frame; After / Before: the stop after or
// before item `from` (a text field). False when there is none.
bool focus_tab_stop(TabStop which, unsigned from = 0);
// The canvas lost the page's focus: no focus rectangle until the keyboard comes back.
void hide_keyboard_focus();
// The item ImGui's keyboard navigation has focused in the frame being built (or the last one).
FocusedItem focused_item();
// The focused control's value as the mirror says it (a slider's number, a text box's text); controls set
// it while drawn, and the app clears it before each frame.
std::string& focused_value();

}  // namespace platform
