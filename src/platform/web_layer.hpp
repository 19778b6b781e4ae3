// The browser platform layer's state in one struct: owned by the main loop (main_web.cpp's WebState) and
// reached through web_layer() by the files that keep it (text_field_web.cpp, page_events_web.cpp,
// compute_web.cpp, font_web.cpp, model_load_web.cpp) and by the page's exports.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace app {
class ComputeLink;
}

namespace platform {

// text_field_web.cpp: one field a frame drew.
struct TextFieldBox {
  ImGuiID id;
  std::string label, hint, value;
  float x, y, w, h;
  bool shown;      // wholly inside its panel's visible part and under no tooltip or popup
  bool read_only;  // a lesson locks the setting it edits (drawn disabled)
  bool operator==(const TextFieldBox& o) const {
    return id == o.id && label == o.label && hint == o.hint && value == o.value && x == o.x && y == o.y &&
           w == o.w && h == o.h && shown == o.shown && read_only == o.read_only;
  }
};

// text_field_web.cpp: a page edit not yet taken by its field (id 0: a free slot).
struct TypedText {
  ImGuiID id = 0;
  std::string value;
  bool entered = false;
};

// text_field_web.cpp: the fields drawn since the last sync, what the page has, and the page's edits. Edits
// come from the focused input, one field at a time; a full table drops the oldest.
struct TextFieldsState {
  std::vector<TextFieldBox> drawn, synced;
  TypedText typed[4];
};

// page_events_web.cpp: what the page was last told.
struct ToldPage {
  int dark = -1;
  int height = -1;
  std::string announcement;
};

// font_web.cpp: an atlas asked of the page (web/font_atlas.js draws it).
struct FontRequest {
  int serial = 0;
  float px = 0.0f;     // the line height in physical pixels
  float ratio = 1.0f;  // the pixel ratio it is for
  float scale = 1.0f;  // the text size, times the default (font_scale=)
  std::vector<ImWchar> codes;
};

// font_web.cpp: the browser-drawn font atlas.
struct WebFontState {
  float ratio = 1.0f;          // the pixel ratio the atlas was drawn for
  float scale = 1.0f;          // the text size, times the default (font_scale=)
  bool have[0x10000] = {};     // in the atlas or on the way, by code point
  std::vector<ImWchar> extra;  // added on demand, in order
  int pending = 0;             // extra code points not yet asked for
  int serial = 0;              // requests so far
  FontRequest asked;           // the last request
  bool waiting = false;        // its answer has not been taken yet
  bool built = false;          // io.Fonts holds an atlas
  int glyphs = 0, tex_w = 0, tex_h = 0;
  float css_px = 0.0f;                   // the CSS font size the browser drew at
  bool browser = false;                  // the last build drew glyphs (false: no 2D canvas, no text)
  int slices = 0, longest_slice_ms = 0;  // the tasks the browser drew the last atlas in, the longest
  bool started = false;                  // load_font ran once
};

// The JSON answers of the page's exports (main_web.cpp, model_load_web.cpp), each valid until the next call
// of the same export.
struct ExportReplies {
  std::string state, heatmaps, frame_stats, export_csv, model_json, set, load_model;
};

struct WebLayer {
  // compute_web.cpp: the page's compute worker was asked for (whether it runs is the app's
  // compute_link state, set as the worker starts or stops)
  bool worker_asked = false;
  bool helpers_asked = false;
  TextFieldsState fields;
  ToldPage told;
  WebFontState font;
  ExportReplies replies;
};

// The layer's state (main_web.cpp owns it).
WebLayer& web_layer();

// compute_web.cpp: tells the app a worker may start (once, before the first frame), and starts it when the
// app first wants it (each frame).
void offer_compute_worker();
void start_compute_worker_if_wanted();

}  // namespace platform
