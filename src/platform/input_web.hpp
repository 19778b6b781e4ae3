// The browser's input back end for Dear ImGui: the canvas's mouse, wheel and keys (web/bridge_input.js
// listens, src/platform/input_web.cpp turns each event into ImGui's), the display size and pixel ratio, the
// frame's time step and the mouse cursor ImGui asks for.
#pragma once

namespace platform {

// Listens to the canvas's mouse, wheel and keys and the window's focus (once, after ImGui's context exists).
void install_input();

// Before ImGui::NewFrame: a display of css_w x css_h CSS pixels drawn into fb_w x fb_h framebuffer pixels,
// and the time since the last frame.
void input_new_frame(int css_w, int css_h, int fb_w, int fb_h);

// After the frame: the canvas's CSS cursor follows the one ImGui asks for.
void input_end_frame();

}  // namespace platform
