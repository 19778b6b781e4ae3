// The app's news for the page after each frame: the URL (history.replaceState / pushState, and Back /
// Forward back into the app), the content height, settings changes, checked exercises and announcements.
#include "page_events_web.hpp"

#include <emscripten.h>

#include <cmath>
#include <string>

#include "app/widgets/theme.hpp"
#include "font.hpp"
#include "frames_web.hpp"
#include "wheel_target.hpp"

// [SECTION] JavaScript side (EM_JS bodies are JavaScript)
// clang-format off

// Puts "?query" into the address bar without reloading, as a new history entry when `push` is not 0 (a new
// scene: the browser's Back returns to the last one, through attn_open_query); keeps the path and #hash.
EM_JS(void, js_set_query, (const char* query, int push), {
  var q = UTF8ToString(query);
  if (q.charAt(0) === "?") q = q.substring(1);
  var url = window.location.pathname + (q.length ? "?" + q : "") + window.location.hash;
  try {
    if (push) history.pushState(null, "", url);
    else history.replaceState(history.state, "", url);
  } catch (e) {
    console.warn("attention demo: cannot update the URL: " + e);
  }
  if (!Module.attnPopstate) {
    Module.attnPopstate = true;
    window.addEventListener("popstate", function() {
      var s = window.location.search || "", n = lengthBytesUTF8(s) + 1, p = _malloc(n);
      if (!p) return;
      stringToUTF8(s, p, n);
      _attn_open_query(p);
      _free(p);
    });
  }
});

// window.dispatchEvent(new CustomEvent("attention:" + type, {detail})); `json` 1: detail is a JSON array
// whose items go out one event each, as JSON text; 2: detail is a number.
EM_JS(void, js_dispatch, (const char* type, const char* detail, int json), {
  var name = "attention:" + UTF8ToString(type), text = UTF8ToString(detail);
  var items = json === 1 ? JSON.parse(text).map(function(a) { return JSON.stringify(a); })
                         : [json === 2 ? Number(text) : text];
  items.forEach(function(d) { window.dispatchEvent(new CustomEvent(name, {detail: d})); });
});

// The look the app draws in, for the page's own elements (web/style.css: [data-theme=light]).
EM_JS(void, js_set_theme, (int dark), {
  document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
});

// clang-format on

namespace platform {
namespace {

struct Told {
  int dark = -1;
  int height = -1;
  std::string announcement;
};
Told g_told;

}  // namespace

void tell_page_after_frame(app::App& app) {
  const app::UrlChange url = app.take_url_change();
  if (url != app::UrlChange::None) {
    const std::string query = app.query();
    js_set_query(query.c_str(), url == app::UrlChange::Push ? 1 : 0);
    js_dispatch("change", query.c_str(), 0);
  }
  if (g_told.dark != (app::theme_is_dark() ? 1 : 0)) {
    g_told.dark = app::theme_is_dark() ? 1 : 0;
    js_set_theme(g_told.dark);
  }
  const int height = static_cast<int>(std::ceil(app.content_height()));
  if (height != g_told.height) {
    g_told.height = height;
    js_dispatch("layout", std::to_string(height).c_str(), 2);
  }
  const std::string answers = app.answers_json();
  if (answers != "[]") js_dispatch("answer", answers.c_str(), 1);
  if (app.announcement() != g_told.announcement) {
    g_told.announcement = app.announcement();
    js_dispatch("announce", g_told.announcement.c_str(), 0);
  }
}

}  // namespace platform

extern "C" {

// 1 when the app scrolls (or zooms) for a wheel at CSS point (x, y) of the canvas with deltas dx, dy; 0
// when it has nothing to scroll there and the page around it should (web/shell.js).
EMSCRIPTEN_KEEPALIVE int attn_wheel_wanted(float x, float y, float dx, float dy) {
  return platform::wheel_wanted(x, y, dx, dy) ? 1 : 0;
}

// The page's media queries: prefers-color-scheme: dark (for theme=auto) and prefers-reduced-motion.
EMSCRIPTEN_KEEPALIVE void attn_set_prefers(int dark, int reduced_motion) {
  if (!platform::web_app()) return;
  platform::web_app()->set_page_prefers(dark != 0, reduced_motion != 0);
  platform::request_app_frames(2);
}

// A lesson steps file fetched for steps=`source` (web/io_web.cpp): its text, or "" and `error`.
EMSCRIPTEN_KEEPALIVE void attn_load_steps(const char* source, const char* text, const char* error) {
  if (!platform::web_app()) return;
  platform::font_want_text(text ? text : "");
  platform::web_app()->load_steps(source ? source : "", text ? text : "", error ? error : "");
  platform::request_app_frames(2);
}

// The browser went Back or Forward to `query` (window.location.search): open its view.
EMSCRIPTEN_KEEPALIVE void attn_open_query(const char* query) {
  if (!platform::web_app()) return;
  platform::font_want_text(query ? query : "");
  platform::web_app()->open_query(query ? query : "");
  platform::request_app_frames(2);
}

}  // extern "C"
