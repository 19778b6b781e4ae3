// The app's news for the page after each frame: the URL (history.replaceState / pushState, and Back /
// Forward back into the app), the content height, settings changes, checked exercises and announcements.
#include "page_events_web.hpp"

#include <emscripten.h>

#include <cmath>
#include <string>

#include "app/widgets/theme.hpp"
#include "bridge_web.hpp"
#include "font.hpp"
#include "frames_web.hpp"
#include "web_layer.hpp"
#include "wheel_target.hpp"

namespace platform {
void tell_page_after_frame(app::App& app) {
  ToldPage& told = web_layer().told;
  const app::UrlChange url = app.take_url_change();
  if (url != app::UrlChange::None) {
    const std::string query = app.query();
    attn_js_set_query(query.c_str(), url == app::UrlChange::Push ? 1 : 0);
    attn_js_dispatch("change", query.c_str(), 0);
  }
  if (told.dark != (app::theme_is_dark() ? 1 : 0)) {
    told.dark = app::theme_is_dark() ? 1 : 0;
    attn_js_set_theme(told.dark);
  }
  const int height = static_cast<int>(std::ceil(app.content_height()));
  if (height != told.height) {
    told.height = height;
    attn_js_dispatch("layout", std::to_string(height).c_str(), 2);
  }
  const std::string answers = app.answers_json();
  if (answers != "[]") attn_js_dispatch("answer", answers.c_str(), 1);
  if (app.announcement() != told.announcement) {
    told.announcement = app.announcement();
    attn_js_dispatch("announce", told.announcement.c_str(), 0);
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
