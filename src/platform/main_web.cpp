// Browser entry point: WebGL2 (GLES 3.0) + Dear ImGui with the page's own input back end (input_web.cpp),
// frames drawn on demand (input, animation, requests from the page), WebGL context loss and restore, and
// the JavaScript bridge behind window.attentionDemo (see web/shell.js).
#include <GLES3/gl3.h>
#include <emscripten.h>
#include <emscripten/eventloop.h>
#include <emscripten/html5.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/app.hpp"
#include "app/logic/compute_link.hpp"
#include "app/logic/trained_model.hpp"
#include "bridge_web.hpp"
#include "font.hpp"
#include "frames_web.hpp"
#include "gfx/heatmap_renderer.hpp"
#include "gfx/heatmap_renderer_state.hpp"
#include "imgui_hooks.hpp"
#include "imgui_host.hpp"
#include "imgui_renderer.hpp"
#include "input_web.hpp"
#include "page_events_web.hpp"
#include "text_fields.hpp"
#include "touch_web.hpp"
#include "web_layer.hpp"

// [SECTION] State

namespace {

// The browser app's one owner of state: its WebGL context, its app, the frame loop's bookkeeping and the
// platform layer's state (web_layer.hpp). Emscripten's callbacks and the page's exports reach it here.
struct WebState {
  EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = 0;
  std::unique_ptr<app::App> app;
  int css_w = 0, css_h = 0;  // the canvas's size, CSS pixels
  int fb_w = 0, fb_h = 0;    // its backing size, framebuffer pixels
  double ratio = 0.0;        // devicePixelRatio at that time
  double font_ratio = 0.0;   // the ratio the font atlas was built for
  float font_scale = 1.0f;   // the text size (font_scale=) it was built for
  bool ready_sent = false;
  bool frame_error_logged = false;  // a failed frame has been written to the console
  bool context_lost = false;        // between webglcontextlost and webglcontextrestored: no GL calls
  bool restore_pending = false;     // the context is back: recreate every GL object before the next frame
  int restores = 0;                 // contexts restored so far (state().webgl.restores)
  // Frames on demand: a frame is drawn when something asks for one, never otherwise.
  bool frame_scheduled = false;  // a requestAnimationFrame callback is pending
  bool visible = true;           // the canvas is on screen (web/shell.js watches it)
  int frames_asked = 0;          // frames still to draw for attn_request_frames()
  double awake_until = 0.0;      // after input, frames continue until then (ImGui's hover delays)
  double last_frame_start = 0.0;
  bool last_frame_continued = false;  // the previous frame asked for this one (for interval_ms)
  platform::WebLayer layer;           // text fields, what the page was told, the font, export replies
  gfx::HeatmapRenderer heatmaps;      // the heatmap renderer's GL objects and texture cache
};
WebState g;

// Keeps the canvas as big as the browser window at the device pixel ratio; rebuilds the font atlas
// when the ratio changes (browser zoom, moving to another screen). Call outside NewFrame/Render.
void follow_browser_size() {
  const int w = attn_js_inner_width();
  const int h = attn_js_inner_height();
  const double ratio = emscripten_get_device_pixel_ratio();
  const float scale = g.app ? static_cast<float>(g.app->settings().font_scale) : 1.0f;
  if (w == g.css_w && h == g.css_h && ratio == g.ratio && scale == g.font_scale) return;
  g.css_w = w;
  g.css_h = h;
  g.ratio = ratio;
  // the canvas: w x h CSS pixels backed by (w x ratio) x (h x ratio) framebuffer pixels
  attn_js_size_canvas(w, h, ratio);
  g.fb_w = static_cast<int>(w * ratio);
  g.fb_h = static_cast<int>(h * ratio);
  if (g.ratio != g.font_ratio || scale != g.font_scale) {
    g.font_ratio = g.ratio;
    g.font_scale = scale;
    platform::load_font(static_cast<float>(g.ratio) * scale, scale);  // installed by font_update() once drawn
  }
}

// [SECTION] WebGL context loss

// The context is gone: every GL object is dead. Forget them all now (while lost, the GL calls this makes
// are no-ops for WebGL and only clear Emscripten's handle tables), so nothing dead is used or deleted later.
EM_BOOL on_context_lost(int, const void*, void*) {
  g.context_lost = true;
  g.restore_pending = false;
  platform::imgui_renderer_destroy_objects();  // program, buffers, font texture
  gfx::shutdown_renderer();                    // heatmap program, framebuffer, VAO, textures
  return EM_TRUE;                              // preventDefault: the browser may restore the context
}

void request_frames(int n);

EM_BOOL on_context_restored(int, const void*, void*) {
  g.context_lost = false;
  g.restore_pending = true;
  request_frames(1);
  return EM_TRUE;
}

// Rebuilds what on_context_lost dropped; the next frame redraws the same view. "" or what failed.
std::string recreate_gl_objects() {
  emscripten_webgl_make_context_current(g.gl);
  const std::string error = platform::imgui_renderer_create_objects();
  return error.empty() ? gfx::init_renderer() : error;
}

// One frame: events, UI, draw, stats, URL. Returns whether the app wants the next frame without input.
bool draw_one_frame() {
  platform::start_compute_worker_if_wanted();
  if (g.context_lost) return false;  // nothing to draw with: wait for the context
  if (g.restore_pending) {
    g.restore_pending = false;
    const std::string error = recreate_gl_objects();
    if (!error.empty()) {
      attn_js_fail(("The graphics could not be restored: " + error).c_str());
      g.app.reset();  // no more frames
      return false;
    }
    ++g.restores;
    attn_js_graphics_restored();
  }
  const double t0 = emscripten_get_now();
  follow_browser_size();
  // A new atlas (the first, another pixel ratio, code points typed, set() or loaded) is used once drawn;
  // no frame comes before the first.
  if (platform::font_update()) {
    platform::imgui_renderer_font_changed();
    request_frames(2);  // ImGui's layout settles with the new glyphs' widths
  }
  if (!platform::font_ready()) return false;  // the atlas' arrival asks for a frame

  platform::input_new_frame(g.css_w, g.css_h, g.fb_w, g.fb_h);
  platform::build_frame(*g.app, false, g.frame_error_logged);
  platform::input_end_frame();
  platform::sync_text_fields();  // the page's <input> elements follow the fields this frame drew
  // CPU time: events, scenes, heatmap uploads, ImGui layout. The final draw submission below is left
  // out: with a software GL (SwiftShader) it mostly waits for the previous frame, which is noise.
  const double cpu_ms = emscripten_get_now() - t0;
  platform::draw_frame(g.fb_w, g.fb_h);  // the browser presents it after this callback
  const double frame_ms = emscripten_get_now() - t0;
  const double interval_ms = g.last_frame_continued ? t0 - g.last_frame_start : 0.0;
  g.last_frame_start = t0;

  g.app->finish_frame(cpu_ms, frame_ms, interval_ms, platform::imgui_has_pending_input());

  platform::tell_page_after_frame(*g.app);
  if (!g.ready_sent) {
    g.ready_sent = true;
    attn_js_ready();
  }
  return g.app->wants_next_frame();
}

// [SECTION] Frames on demand
// The browser calls on_animation_frame once per requestAnimationFrame; the next one is asked for only while
// something needs frames: input in the last kSettleMs (hover delays, ImGui's two-frame layouts), the app
// (training, a measurement spread over frames, settings changed from the page), or attn_request_frames.
// A hidden tab gets no animation frames; an off-screen canvas (g.visible false) asks for none.

constexpr double kSettleMs = 400.0;

EM_BOOL on_animation_frame(double now, void*);

void schedule_frame() {
  // Until the first frame is drawn (attentionDemo.ready), frames come whether on screen or not.
  if (g.frame_scheduled || !g.app || (!g.visible && g.ready_sent)) return;
  g.frame_scheduled = true;
  emscripten_request_animation_frame(on_animation_frame, nullptr);
}

void request_frames(int n) {
  if (n > g.frames_asked) g.frames_asked = n;
  schedule_frame();
}

EM_BOOL on_animation_frame(double now, void*) {
  g.frame_scheduled = false;
  if (!g.app || attn_js_stopped()) return EM_FALSE;
  if (g.frames_asked > 0) --g.frames_asked;
  const bool app_wants = draw_one_frame();
  const bool more = !g.context_lost && (app_wants || g.frames_asked > 0 || now < g.awake_until ||
                                        platform::imgui_has_pending_input());
  g.last_frame_continued = more;
  if (more) schedule_frame();
  return EM_FALSE;  // schedule_frame asks for the next one
}

}  // namespace

app::App* platform::web_app() {
  return g.app.get();
}

platform::WebLayer& platform::web_layer() {
  return g.layer;
}

void platform::request_app_frames(int n) {
  request_frames(n);
}

void platform::wake_for_input() {
  g.awake_until = emscripten_get_now() + kSettleMs;
  g.last_frame_continued = false;
  request_frames(1);
}

namespace {

// Returns the JSON in a buffer that stays valid until the next call of the same function.
const char* keep(std::string& slot, std::string value) {
  slot = std::move(value);
  return slot.c_str();
}

}  // namespace

// [SECTION] Exports for window.attentionDemo (JSON strings; "null" before the app exists)

extern "C" {

// The app's state plus "webgl": {"lost": bool, "restores": n} (whether the context is lost right now) and
// "font" (platform::font_state_json: the browser-drawn font's family, sizes and glyph count).
EMSCRIPTEN_KEEPALIVE const char* attn_state() {
  std::string& s = g.layer.replies.state;
  if (!g.app) return keep(s, "null");
  std::string json = g.app->state_json();
  if (json.size() >= 2 && json.front() == '{') {
    const std::string webgl = std::string(R"("webgl":{"lost":)") + (g.context_lost ? "true" : "false") +
                              R"(,"restores":)" + std::to_string(g.restores) + R"(},"font":)" +
                              platform::font_state_json();
    json.insert(1, json.size() > 2 ? webgl + "," : webgl);
  }
  return keep(s, std::move(json));
}

EMSCRIPTEN_KEEPALIVE const char* attn_heatmaps(int with_values, const char* only_id) {
  std::string& s = g.layer.replies.heatmaps;
  return keep(s, g.app ? g.app->heatmaps_json(with_values != 0, only_id ? only_id : "") : "null");
}

EMSCRIPTEN_KEEPALIVE const char* attn_frame_stats() {
  std::string& s = g.layer.replies.frame_stats;
  return keep(s, g.app ? g.app->frame_stats_json(platform::font_pending()) : "null");
}

EMSCRIPTEN_KEEPALIVE const char* attn_export_csv(const char* id) {
  std::string& s = g.layer.replies.export_csv;
  return keep(s, g.app ? g.app->export_csv_json(id ? id : "") : R"({"ok":false,"error":"not started"})");
}

// The trained model as a model file's text, or "" when there is none.
EMSCRIPTEN_KEEPALIVE const char* attn_model_json() {
  std::string& s = g.layer.replies.model_json;
  return keep(s, app::trained_model_file_text());
}

// Asks for n more frames (at least one), e.g. after the page changed something the app cannot see.
EMSCRIPTEN_KEEPALIVE void attn_request_frames(int n) {
  request_frames(n < 1 ? 1 : n);
}

// Tab (backward: Shift+Tab) on the canvas: 1 when it goes past the app's last (first) control, so the page
// lets the browser move the focus on (web/keyboard.js), 0 when the app moves its own focus.
EMSCRIPTEN_KEEPALIVE int attn_tab_leaves(int backward) {
  return platform::tab_leaves(backward != 0) ? 1 : 0;
}

// The page's focus came to the canvas: which control takes it (0 the first, 1 the last, 2 the scene's first,
// 3 the one after text field `from`, 4 the one before it). 1 when one did.
EMSCRIPTEN_KEEPALIVE int attn_focus(int which, unsigned from) {
  constexpr platform::TabStop kStops[] = {platform::TabStop::First, platform::TabStop::Last,
                                          platform::TabStop::Scene, platform::TabStop::After,
                                          platform::TabStop::Before};
  if (!g.app || which < 0 || which > 4) return 0;
  request_frames(2);
  return platform::focus_tab_stop(kStops[which], from) ? 1 : 0;
}

// The canvas lost the page's focus: its focus rectangle goes until the keyboard comes back.
EMSCRIPTEN_KEEPALIVE void attn_blur() {
  platform::hide_keyboard_focus();
  request_frames(1);
}

// Whether the canvas is on screen (web/shell.js: IntersectionObserver). Off screen, no frame is drawn; back
// on screen, one is.
EMSCRIPTEN_KEEPALIVE void attn_set_visible(int visible) {
  g.visible = visible != 0;
  g.last_frame_continued = false;
  if (g.visible) request_frames(1);
}

EMSCRIPTEN_KEEPALIVE const char* attn_set(const char* json) {
  std::string& s = g.layer.replies.set;
  if (!g.app) return keep(s, R"({"ok":false,"notes":["the app has not started yet"]})");
  request_frames(2);  // the new settings, then the layout that follows them
  platform::font_want_text(json ? json : "");
  try {
    return keep(s, g.app->set_json(json ? json : ""));
  } catch (const std::exception&) {
    return keep(s, R"({"ok":false,"notes":["set() could not read its argument"]})");
  }
}

}  // extern "C"

// [SECTION] main

namespace {

// The second half of the start-up, a task main() queues: the interface's GL objects, the App, input, the
// first frames.
void finish_start(void*) {
  const std::string error = platform::start_imgui(static_cast<float>(g.ratio), g.heatmaps);
  g.font_ratio = g.ratio;
  if (!error.empty()) {
    attn_js_fail(("The interface could not start: " + error).c_str());
    return;
  }

  emscripten_set_webglcontextlost_callback("#canvas", nullptr, EM_FALSE, on_context_lost);
  emscripten_set_webglcontextrestored_callback("#canvas", nullptr, EM_FALSE, on_context_restored);

  char* search = attn_js_location_search();
  g.app = std::make_unique<app::App>(search ? search : "");
  std::free(search);
  platform::offer_compute_worker();  // into the App's state

  platform::install_input();
  platform::install_touch();
  request_frames(3);  // the first frame, and the two ImGui needs to settle its layout
}

}  // namespace

int main(int, char**) {
  // The font atlas is asked for first: the page draws it in tasks of its own after this one.
  g.ratio = emscripten_get_device_pixel_ratio();
  platform::load_font(static_cast<float>(g.ratio));
  g.css_w = attn_js_inner_width();
  g.css_h = attn_js_inner_height();
  attn_js_size_canvas(g.css_w, g.css_h, g.ratio);
  g.fb_w = static_cast<int>(g.css_w * g.ratio);
  g.fb_h = static_cast<int>(g.css_h * g.ratio);
  // WebGL2 (OpenGL ES 3.0) with no alpha, depth or stencil buffer and no multisampling: the app draws
  // opaque 2D and clears every frame.
  EmscriptenWebGLContextAttributes attrs;
  emscripten_webgl_init_context_attributes(&attrs);
  attrs.alpha = attrs.depth = attrs.stencil = attrs.antialias = EM_FALSE;
  attrs.majorVersion = 2;
  attrs.minorVersion = 0;
  g.gl = emscripten_webgl_create_context("#canvas", &attrs);
  if (g.gl <= 0) {
    attn_js_fail("Could not create a WebGL2 context: this browser or its graphics driver has no WebGL2.");
    return 1;
  }
  emscripten_webgl_make_context_current(g.gl);
  // The rest in a task of its own: the context alone may take hundreds of ms (a software GPU), and the
  // page's other tasks (input, the font atlas' slices, other figures) get their turn in between.
  emscripten_set_timeout(finish_start, 0.0, nullptr);
  // main returns; the runtime stays (EXIT_RUNTIME is off) and frames come from requestAnimationFrame.
  return 0;
}
