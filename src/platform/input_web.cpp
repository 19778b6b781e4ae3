// The browser's input back end for Dear ImGui: each mouse, wheel, key and focus event of the page
// (web/bridge_input.js) as ImGui's input events, the display's size and time step per frame, and the CSS
// cursor ImGui asks for.
#include "input_web.hpp"

#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharToUtf8

#include <cfloat>

#include "bridge_web.hpp"
#include "font.hpp"
#include "frames_web.hpp"

namespace {

double g_last_frame_ms = 0.0;                        // performance.now() at the last input_new_frame
ImGuiMouseCursor g_cursor = ImGuiMouseCursor_Arrow;  // the cursor the canvas shows

// The modifier bits of web/bridge_input.js: 1 Ctrl, 2 Shift, 4 Alt, 8 Meta.
void set_modifiers(ImGuiIO& io, int mods) {
  io.AddKeyEvent(ImGuiMod_Ctrl, (mods & 1) != 0);
  io.AddKeyEvent(ImGuiMod_Shift, (mods & 2) != 0);
  io.AddKeyEvent(ImGuiMod_Alt, (mods & 4) != 0);
  io.AddKeyEvent(ImGuiMod_Super, (mods & 8) != 0);
}

// ImGui's key for a KeyboardEvent's keyCode (location 2: the right-hand modifier, 3: the keypad), or
// ImGuiKey_None for a key ImGui has no name for.
ImGuiKey key_of(int code, int location) {
  if (code >= 'A' && code <= 'Z') return static_cast<ImGuiKey>(ImGuiKey_A + (code - 'A'));
  if (code >= '0' && code <= '9') return static_cast<ImGuiKey>(ImGuiKey_0 + (code - '0'));
  if (code >= 96 && code <= 105) return static_cast<ImGuiKey>(ImGuiKey_Keypad0 + (code - 96));
  if (code >= 112 && code <= 123) return static_cast<ImGuiKey>(ImGuiKey_F1 + (code - 112));
  const bool right = location == 2;
  switch (code) {
    case 8:
      return ImGuiKey_Backspace;
    case 9:
      return ImGuiKey_Tab;
    case 13:
      return location == 3 ? ImGuiKey_KeypadEnter : ImGuiKey_Enter;
    case 16:
      return right ? ImGuiKey_RightShift : ImGuiKey_LeftShift;
    case 17:
      return right ? ImGuiKey_RightCtrl : ImGuiKey_LeftCtrl;
    case 18:
      return right ? ImGuiKey_RightAlt : ImGuiKey_LeftAlt;
    case 27:
      return ImGuiKey_Escape;
    case 32:
      return ImGuiKey_Space;
    case 33:
      return ImGuiKey_PageUp;
    case 34:
      return ImGuiKey_PageDown;
    case 35:
      return ImGuiKey_End;
    case 36:
      return ImGuiKey_Home;
    case 37:
      return ImGuiKey_LeftArrow;
    case 38:
      return ImGuiKey_UpArrow;
    case 39:
      return ImGuiKey_RightArrow;
    case 40:
      return ImGuiKey_DownArrow;
    case 45:
      return ImGuiKey_Insert;
    case 46:
      return ImGuiKey_Delete;
    case 91:
      return ImGuiKey_LeftSuper;
    case 92:
      return ImGuiKey_RightSuper;
    case 106:
      return ImGuiKey_KeypadMultiply;
    case 107:
      return ImGuiKey_KeypadAdd;
    case 109:
      return ImGuiKey_KeypadSubtract;
    case 110:
      return ImGuiKey_KeypadDecimal;
    case 111:
      return ImGuiKey_KeypadDivide;
    default:
      return ImGuiKey_None;
  }
}

}  // namespace

namespace platform {

void install_input() {
  ImGuiIO& io = ImGui::GetIO();
  io.BackendPlatformName = "attention-demo web";
  io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
  g_last_frame_ms = emscripten_get_now();
  attn_js_install_input();
}

void input_new_frame(int css_w, int css_h, int fb_w, int fb_h) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(css_w), static_cast<float>(css_h));
  if (css_w > 0 && css_h > 0) {
    io.DisplayFramebufferScale = ImVec2(static_cast<float>(fb_w) / static_cast<float>(css_w),
                                        static_cast<float>(fb_h) / static_cast<float>(css_h));
  }
  const double now = emscripten_get_now();
  const double step_s = (now - g_last_frame_ms) / 1000.0;
  io.DeltaTime = step_s > 0.0 ? static_cast<float>(step_s) : 1.0f / 1000.0f;
  g_last_frame_ms = now;
}

void input_end_frame() {
  const ImGuiMouseCursor cursor = ImGui::GetMouseCursor();
  if (cursor == g_cursor) return;
  g_cursor = cursor;
  attn_js_set_cursor(cursor);
}

}  // namespace platform

extern "C" {

// The mouse on the canvas at (x, y) CSS pixels: kind 0 moved, 1 button pressed, 2 released, 3 left the
// canvas; `button` as DOM numbers them (0 left, 1 middle, 2 right); `mods` the modifier bits.
EMSCRIPTEN_KEEPALIVE void attn_mouse(int kind, float x, float y, int button, int mods) {
  ImGuiIO& io = ImGui::GetIO();
  set_modifiers(io, mods);
  io.AddMouseSourceEvent(ImGuiMouseSource_Mouse);
  if (kind == 3) {
    io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  } else {
    io.AddMousePosEvent(x, y);
    constexpr int kImGuiButton[] = {ImGuiMouseButton_Left, ImGuiMouseButton_Middle, ImGuiMouseButton_Right};
    if ((kind == 1 || kind == 2) && button >= 0 && button < 3)
      io.AddMouseButtonEvent(kImGuiButton[button], kind == 1);
  }
  platform::wake_for_input();
}

// A wheel turn over the canvas, in wheel steps (down and right positive, as the DOM's deltas).
EMSCRIPTEN_KEEPALIVE void attn_wheel(float dx, float dy, int mods) {
  ImGuiIO& io = ImGui::GetIO();
  set_modifiers(io, mods);
  io.AddMouseSourceEvent(ImGuiMouseSource_Mouse);
  io.AddMouseWheelEvent(-dx, -dy);
  platform::wake_for_input();
}

// A key on the canvas: its keyCode and location, pressed (1) or released (0), the modifier bits, and the
// code point it types (0: none). Returns 1 when the app takes the key (the page then prevents the
// browser's own action: scrolling on Space or the arrows, going back on Backspace).
EMSCRIPTEN_KEEPALIVE int attn_key(int code, int location, int down, int mods, unsigned text) {
  ImGuiIO& io = ImGui::GetIO();
  set_modifiers(io, mods);
  const ImGuiKey key = key_of(code, location);
  if (key != ImGuiKey_None) io.AddKeyEvent(key, down != 0);
  if (down && text >= 32) {
    char utf8[5];
    ImTextCharToUtf8(utf8, text);
    platform::font_want_text(utf8);
    io.AddInputCharacter(text);
  }
  platform::wake_for_input();
  // the keys the app moves and types with; Ctrl or Meta combinations, Escape and the F keys stay the
  // browser's
  const bool shortcut = (mods & (1 | 8)) != 0 && (mods & 4) == 0;
  const bool moves = key >= ImGuiKey_Tab && key <= ImGuiKey_Enter;  // Tab, arrows, pages, Space, Enter...
  return down && !shortcut && (text >= 32 || moves || key == ImGuiKey_KeypadEnter) ? 1 : 0;
}

// The page (the window, or the frame it is in) gained (1) or lost (0) the focus: ImGui lets go of held keys.
EMSCRIPTEN_KEEPALIVE void attn_page_focus(int focused) {
  ImGui::GetIO().AddFocusEvent(focused != 0);
  platform::wake_for_input();
}

}  // extern "C"
