// Touch on the canvas, read before SDL sees it (which would turn every touch into an immediate mouse press):
// a vertical swipe scrolls the panel under the finger (in an embed, the course page where the panel has
// nothing left to scroll that way), a tap is a click at that point (its tooltip then shows, as for a mouse
// resting there), and a drag that starts sideways is a mouse drag, so a slider moves only on a deliberate
// horizontal drag. ImGui gets the pointer as a touch screen.
#include "touch_web.hpp"

#include <emscripten.h>
#include <imgui.h>

#include <cfloat>

#include "frames_web.hpp"

// clang-format off

// Capture-phase listeners on the document, so the canvas's own (SDL's) touch listeners never run. One
// finger at a time; a gesture is undecided until it has moved 10 CSS pixels.
EM_JS(void, js_install_touch, (), {
  var canvas = document.getElementById("canvas");
  var g = null;  // the finger's gesture: id, start, last screen y, mode (0 undecided, 1 scroll, 2 drag)
  var at = function(touch) {
    var r = canvas.getBoundingClientRect();
    return [touch.clientX - r.left, touch.clientY - r.top];
  };
  var on = function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();  // no emulated mouse events, no browser scroll or zoom of the page
    var touch = null;
    for (var i = 0; i < e.changedTouches.length; ++i) {
      if (!g || e.changedTouches[i].identifier === g.id) touch = e.changedTouches[i];
    }
    if (!touch) return;
    var p = at(touch);
    if (e.type === "touchstart") {
      if (g) return;
      g = {id: touch.identifier, x0: p[0], y0: p[1], y: touch.screenY, mode: 0};
      _attn_touch(0, p[0], p[1]);  // the pointer is here: hover
      return;
    }
    if (e.type === "touchmove") {
      var dx = p[0] - g.x0, dy = p[1] - g.y0;
      if (g.mode === 0 && dx * dx + dy * dy > 100) {
        g.mode = Math.abs(dy) > Math.abs(dx) ? 1 : 2;
        if (g.mode === 2) _attn_touch(1, g.x0, g.y0);  // press where the drag started
      }
      // the app's panel scrolls; where it has nothing to scroll, an embed's course page does (steps in screen
      // pixels: the iframe moves with the page under the finger)
      if (g.mode === 1) {
        var step = touch.screenY - g.y;
        if (Module.attentionScrollPage && !_attn_wheel_wanted(p[0], p[1], 0, -step)) Module.attentionScrollPage(-step);
        else _attn_touch(3, 0, step);
      }
      if (g.mode === 2) _attn_touch(0, p[0], p[1]);
      g.y = touch.screenY;
      return;
    }
    if (e.type === "touchend" && g.mode === 0) _attn_touch(1, p[0], p[1]);  // a tap: press ...
    if (g.mode !== 1) _attn_touch(2, p[0], p[1]);                           // ... and release
    if (g.mode === 1) _attn_touch(4, 0, 0);  // after a swipe the finger is gone: no tooltip stays
    g = null;
  };
  ["touchstart", "touchmove", "touchend", "touchcancel"].forEach(function(type) {
    document.addEventListener(type, on, {capture: true, passive: false});
  });
});

// clang-format on

namespace platform {

void install_touch() {
  js_install_touch();
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
