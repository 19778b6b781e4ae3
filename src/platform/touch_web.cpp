// Touch on the canvas, where a touch is not an immediate mouse press: a vertical swipe scrolls the panel
// under the finger (in an embed, the course page where the panel has nothing left to scroll that way), a tap
// is a click at that point (its tooltip then shows, as for a mouse resting there), and a drag that starts
// sideways is a mouse drag, so a slider moves only on a deliberate horizontal drag. ImGui gets the pointer as
// a touch screen.
#include "touch_web.hpp"

#include <emscripten.h>
#include <imgui.h>

#include <cfloat>

#include "bridge_web.hpp"
#include "frames_web.hpp"

namespace platform {

void install_touch() {
  attn_js_install_touch();
}

}  // namespace platform

// A touch gesture's step at (x, y) CSS pixels on the canvas: 0 move, 1 press, 2 release, 3 scroll by y
// pixels (the finger's vertical move since the last step), 4 the finger left (after a swipe).
extern "C" EMSCRIPTEN_KEEPALIVE void attn_touch(int kind, float x, float y) {
  ImGuiIO& io = ImGui::GetIO();
  io.AddMouseSourceEvent(ImGuiMouseSource_TouchScreen);
  if (kind == 4) {
    io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  } else if (kind == 3) {
    // ImGui scrolls a wheel step of 5 lines: the content follows the finger
    io.AddMouseWheelEvent(0.0f, y / (5.0f * ImGui::GetFontSize()));
  } else {
    io.AddMousePosEvent(x, y);
    if (kind == 1 || kind == 2) io.AddMouseButtonEvent(ImGuiMouseButton_Left, kind == 1);
  }
  platform::wake_for_input();
}
