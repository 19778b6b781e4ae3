// Browser entry point: SDL2 + WebGL2 (GLES 3.0) + Dear ImGui, the Emscripten main loop, WebGL context
// loss and restore, and the JavaScript bridge behind window.attentionDemo (see web/shell.js).
#include <GLES3/gl3.h>
#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/app.hpp"
#include "app/logic/trained_model.hpp"
#include "font.hpp"
#include "gfx/heatmap_renderer.hpp"
#include "imgui_host.hpp"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl2.h"

// [SECTION] JavaScript side (EM_JS bodies are JavaScript; commas are fine here, unlike EM_ASM)
// clang-format off

// window.location.search ("?scene=clock&pos=44" or ""), malloc'ed UTF-8; the caller frees it.
EM_JS(char*, js_location_search, (), {
  var s = window.location.search || "";
  var n = lengthBytesUTF8(s) + 1;
  var p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

// The size of the window (or iframe) in CSS pixels: the canvas fills it.
EM_JS(int, js_inner_width, (), { return Math.max(1, window.innerWidth | 0); });
EM_JS(int, js_inner_height, (), { return Math.max(1, window.innerHeight | 0); });

// Resolves window.attentionDemo.ready (web/shell.js sets Module.attentionReady).
EM_JS(void, js_ready, (), {
  if (typeof Module.attentionReady === "function") Module.attentionReady();
});

// Hides the "graphics interrupted" message once the GL objects exist again (web/shell.js).
EM_JS(void, js_graphics_restored, (), {
  if (typeof Module.attentionGraphicsRestored === "function") Module.attentionGraphicsRestored();
});

// Shows a message in place of the canvas (web/shell.js sets Module.attentionFail).
EM_JS(void, js_fail, (const char* message), {
  var text = UTF8ToString(message);
  if (typeof Module.attentionFail === "function") Module.attentionFail(text);
  else console.error(text);
});

// Puts "?query" into the address bar without reloading; keeps the path and the #hash.
EM_JS(void, js_replace_query, (const char* query), {
  var q = UTF8ToString(query);
  if (q.charAt(0) === "?") q = q.substring(1);
  var url = window.location.pathname + (q.length ? "?" + q : "") + window.location.hash;
  try {
    history.replaceState(history.state, "", url);
  } catch (e) {
    console.warn("attention demo: cannot update the URL: " + e);
  }
});

// clang-format on

// [SECTION] State

namespace {

struct WebState {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  std::unique_ptr<app::App> app;
  int css_w = 0, css_h = 0;  // the window size we last gave SDL, CSS pixels
  double ratio = 0.0;        // devicePixelRatio at that time
  double font_ratio = 0.0;   // the ratio the font atlas was built for
  bool ready_sent = false;
  bool context_lost = false;     // between webglcontextlost and webglcontextrestored: no GL calls
  bool restore_pending = false;  // the context is back: recreate every GL object before the next frame
  int restores = 0;              // contexts restored so far (state().webgl.restores)
};
WebState g;

// Keeps the canvas as big as the browser window at the device pixel ratio; rebuilds the font atlas
// when the ratio changes (browser zoom, moving to another screen). Call outside NewFrame/Render.
void follow_browser_size() {
  const int w = js_inner_width();
  const int h = js_inner_height();
  const double ratio = emscripten_get_device_pixel_ratio();
  if (w == g.css_w && h == g.css_h && ratio == g.ratio) return;
  g.css_w = w;
  g.css_h = h;
  g.ratio = ratio;
  // SDL sets the canvas to w x h CSS pixels backed by (w x ratio) x (h x ratio) physical pixels.
  SDL_SetWindowSize(g.window, w, h);
  if (g.ratio != g.font_ratio) {
    g.font_ratio = g.ratio;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    platform::load_font(static_cast<float>(g.ratio));
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
}

// [SECTION] WebGL context loss

// The context is gone: every GL object is dead. Forget them all now (while lost, the GL calls this makes
// are no-ops for WebGL and only clear Emscripten's handle tables), so nothing dead is used or deleted later.
EM_BOOL on_context_lost(int, const void*, void*) {
  g.context_lost = true;
  g.restore_pending = false;
  ImGui_ImplOpenGL3_DestroyDeviceObjects();  // program, buffers, font texture
  gfx::shutdown_renderer();                  // heatmap program, framebuffer, VAO, textures
  return EM_TRUE;                            // preventDefault: the browser may restore the context
}

EM_BOOL on_context_restored(int, const void*, void*) {
  g.context_lost = false;
  g.restore_pending = true;
  return EM_TRUE;
}

// Rebuilds what on_context_lost dropped; the next frame redraws the same view. "" or what failed.
std::string recreate_gl_objects() {
  SDL_GL_MakeCurrent(g.window, g.gl);
  if (!ImGui_ImplOpenGL3_CreateDeviceObjects()) return "the interface's shaders could not be rebuilt";
  return gfx::init_renderer();
}

// One frame: events, UI, draw, stats, URL. Called by the browser at its refresh rate.
void main_loop() {
  if (g.context_lost) {  // nothing to draw with: drop the input and wait for the context
    SDL_Event ignored;
    while (SDL_PollEvent(&ignored)) {
    }
    return;
  }
  if (g.restore_pending) {
    g.restore_pending = false;
    const std::string error = recreate_gl_objects();
    if (!error.empty()) {
      js_fail(("The graphics could not be restored: " + error).c_str());
      emscripten_cancel_main_loop();
      return;
    }
    ++g.restores;
    js_graphics_restored();
  }
  const double t0 = emscripten_get_now();
  follow_browser_size();

  SDL_Event event;
  while (SDL_PollEvent(&event)) ImGui_ImplSDL2_ProcessEvent(&event);

  platform::build_frame(*g.app, false);
  // CPU time: events, scenes, heatmap uploads, ImGui layout. The final draw submission below is left
  // out: with a software GL (SwiftShader) it mostly waits for the previous frame, which is noise.
  const double cpu_ms = emscripten_get_now() - t0;
  platform::draw_frame(g.window);
  SDL_GL_SwapWindow(g.window);  // a no-op for WebGL: the browser presents after this callback

  g.app->finish_frame(cpu_ms);

  if (g.app->take_url_change()) js_replace_query(g.app->query().c_str());
  if (!g.ready_sent) {
    g.ready_sent = true;
    js_ready();
  }
}

// Returns the JSON in a buffer that stays valid until the next call of the same function.
const char* keep(std::string& slot, std::string value) {
  slot = std::move(value);
  return slot.c_str();
}

}  // namespace

// [SECTION] Exports for window.attentionDemo (JSON strings; "null" before the app exists)

extern "C" {

// The app's state plus "webgl": {"lost": bool, "restores": n} (whether the context is lost right now).
EMSCRIPTEN_KEEPALIVE const char* attn_state() {
  static std::string s;
  if (!g.app) return keep(s, "null");
  std::string json = g.app->state_json();
  if (json.size() >= 2 && json.front() == '{') {
    const std::string webgl = std::string(R"("webgl":{"lost":)") + (g.context_lost ? "true" : "false") +
                              R"(,"restores":)" + std::to_string(g.restores) + "}";
    json.insert(1, json.size() > 2 ? webgl + "," : webgl);
  }
  return keep(s, std::move(json));
}

EMSCRIPTEN_KEEPALIVE const char* attn_heatmaps(int with_values, const char* only_id) {
  static std::string s;
  return keep(s, g.app ? g.app->heatmaps_json(with_values != 0, only_id ? only_id : "") : "null");
}

EMSCRIPTEN_KEEPALIVE const char* attn_frame_stats() {
  static std::string s;
  return keep(s, g.app ? g.app->frame_stats_json() : "null");
}

EMSCRIPTEN_KEEPALIVE const char* attn_export_csv(const char* id) {
  static std::string s;
  return keep(s, g.app ? g.app->export_csv_json(id ? id : "") : R"({"ok":false,"error":"not started"})");
}

// A model file's text (from the page's file picker or attentionDemo.loadModel) becomes the trained model;
// `name` says where it came from. Returns {"ok": true} or {"ok": false, "error": "..."}.
EMSCRIPTEN_KEEPALIVE const char* attn_load_model(const char* text, const char* name) {
  static std::string s;
  const std::string source = name && *name ? name : "a model file";
  const std::string error = app::load_trained_model(text ? text : "", source);
  nlohmann::json r = {{"ok", error.empty()}};
  if (!error.empty()) r["error"] = error;
  return keep(s, r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// The trained model as a model file's text, or "" when there is none.
EMSCRIPTEN_KEEPALIVE const char* attn_model_json() {
  static std::string s;
  return keep(s, app::trained_model_file_text());
}

EMSCRIPTEN_KEEPALIVE const char* attn_set(const char* json) {
  static std::string s;
  if (!g.app) return keep(s, R"({"ok":false,"notes":["the app has not started yet"]})");
  try {
    return keep(s, g.app->set_json(json ? json : ""));
  } catch (const std::exception&) {
    return keep(s, R"({"ok":false,"notes":["set() could not read its argument"]})");
  }
}

}  // extern "C"

// [SECTION] main

int main(int, char**) {
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    js_fail((std::string("Could not start SDL: ") + SDL_GetError()).c_str());
    return 1;
  }
  // WebGL2 is OpenGL ES 3.0.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);

  g.css_w = js_inner_width();
  g.css_h = js_inner_height();
  g.ratio = emscripten_get_device_pixel_ratio();
  g.window = SDL_CreateWindow("Attention, in order", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                              g.css_w, g.css_h, SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI);
  if (!g.window) {
    js_fail((std::string("Could not create the canvas window: ") + SDL_GetError()).c_str());
    return 1;
  }
  g.gl = SDL_GL_CreateContext(g.window);
  if (!g.gl) {
    js_fail((std::string("Could not create a WebGL2 context: ") + SDL_GetError()).c_str());
    return 1;
  }
  SDL_GL_MakeCurrent(g.window, g.gl);

  const std::string error =
      platform::start_imgui(g.window, g.gl, "#version 300 es", static_cast<float>(g.ratio));
  g.font_ratio = g.ratio;
  if (!error.empty()) {
    js_fail(("The interface could not start: " + error).c_str());
    return 1;
  }

  emscripten_set_webglcontextlost_callback("#canvas", nullptr, EM_FALSE, on_context_lost);
  emscripten_set_webglcontextrestored_callback("#canvas", nullptr, EM_FALSE, on_context_restored);

  char* search = js_location_search();
  g.app = std::make_unique<app::App>(search ? search : "");
  std::free(search);

  // 0 fps: requestAnimationFrame. simulate_infinite_loop: main never returns, so all state is global.
  emscripten_set_main_loop(main_loop, 0, 1);
  return 0;
}
