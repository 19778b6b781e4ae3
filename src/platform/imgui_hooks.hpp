// ImGui's item hooks on the platform's side: the frame's tab stops, for Tab into and out of the canvas.
// What the app reads of them (the focused item, its value, the scene's first stop) is declared in
// app/platform_io.hpp and implemented in imgui_hooks.cpp.
#pragma once

#include "app/platform_io.hpp"

namespace platform {

// The names src/app/widgets/number_input.cpp and tests/test_keyboard.cpp still call the app's side by.
using app::focused_item;
using app::focused_value;
using app::mark_scene_tab_stops;

// Turns the hooks on (after ImGui::CreateContext).
void enable_item_hooks();
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

}  // namespace platform
