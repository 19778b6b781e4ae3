// Dear ImGui on OpenGL, shared by the desktop and the browser: set-up, one frame, shut-down. The input back
// end is each platform's own (SDL2's on the desktop, src/platform/input_web.cpp in the browser).
#pragma once

#include <string>

namespace app {
class App;
}
namespace gfx {
struct HeatmapRenderer;
}

namespace platform {

// Creates the ImGui context (no .ini file: the URL holds the state; keyboard navigation on; dark style),
// loads the font for `pixel_ratio` (framebuffer pixels per window pixel), starts the interface renderer
// (imgui_renderer.hpp) and the heatmap renderer on `heatmaps` (the caller's, kept until stop_imgui). The
// caller starts its input back end after it. Returns "" or what failed.
std::string start_imgui(float pixel_ratio, gfx::HeatmapRenderer& heatmaps);

// Builds one frame of `app` between ImGui's NewFrame and Render; the input back end's new frame comes just
// before. `hide_pointer`: the mouse is treated as absent (scripted runs). A failing frame is logged to stderr
// (once: `error_logged`, kept by the main loop) and recovered, so the app keeps going.
void build_frame(app::App& app, bool hide_pointer, bool& error_logged);

// Whether ImGui holds input events for later frames (it trickles fast key and click sequences over
// several frames): the platform keeps drawing until they are used.
bool imgui_has_pending_input();

// Clears the window's framebuffer (fb_w x fb_h pixels) and draws the frame built by build_frame.
void draw_frame(int fb_w, int fb_h);

// Releases the heatmaps' and ImGui's GPU objects and the ImGui context (the GL context must be current; the
// input back end is shut down before).
void stop_imgui();

}  // namespace platform
