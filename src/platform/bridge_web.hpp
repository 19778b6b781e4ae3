// What the browser app's C++ asks of the page: the JavaScript functions of web/bridge.js,
// web/bridge_fields.js and web/bridge_input.js (library objects linked with --js-library), where each is
// described. Strings go as UTF-8; a char* that comes back is malloc'ed (the caller frees it) or null.
#pragma once

#include <cstdint>

extern "C" {

// the page around the canvas (main_web.cpp)
char* attn_js_location_search();
int attn_js_inner_width();
int attn_js_inner_height();
void attn_js_ready();
void attn_js_graphics_restored();
void attn_js_fail(const char* message);
int attn_js_stopped();

// the app's news after each frame (page_events_web.cpp)
void attn_js_set_query(const char* query, int push);
void attn_js_dispatch(const char* type, const char* detail, int json);
void attn_js_set_theme(int dark);

// clipboard, downloads, model files, lessons (io_web.cpp, model_load_web.cpp)
void attn_js_copy_text(const char* text);
void attn_js_download(const char* name, const char* text, const char* mime);
void attn_js_download_png(const char* name, int width, int height, const unsigned char* rgba);
void attn_js_open_model_file();
void attn_js_fetch_same_origin(const char* path, int steps);
void attn_js_remember_model(const char* text);
// A pretrained model's files: the picker, and comma-separated same-origin paths fetched (web/checkpoint.js).
void attn_js_pick_checkpoint();
void attn_js_fetch_checkpoint(const char* paths);
char* attn_js_recall_model();
int attn_js_model_chunk(char* dst, int cap);

// the compute worker's messages (compute_web.cpp)
void attn_js_start_worker();
void attn_js_post(const void* bytes, int n);
void attn_js_start_helpers();
void attn_js_post_to(int worker, const void* bytes, int n);
void attn_js_post_parts(const std::uint32_t* at_size, int count);
void attn_js_inbox_copy(void* dst, double at, double n);
void attn_js_checkpoint_copy(int index, void* dst, double at, double n);
void attn_js_model_read(double load, double read, double total);

// the font atlas, drawn by the browser (font_web.cpp)
// asks for an atlas of `count` code points and `rects` ImGui rectangles (w, h each); the app gets a frame
// when it is drawn
void attn_js_font_request(int serial, const char* family, int line_px, const int* codes, int count,
                          const int* rects, int nrects);
// 1 when the answer to `serial` has arrived: sizes = {drawn (0 or 1), ints of places, width, height, slices,
// longest slice in ms}
int attn_js_font_answer(int serial, int* sizes);
// copies the arrived answer out: metrics [ascent, descent, CSS px, advance of each code point], ink boxes
// (4 ints per code point), places (x, y per rectangle), alpha (width x height)
void attn_js_font_take(float* metrics, int* boxes, int* at, unsigned char* alpha);
char* attn_js_location_text();

// text fields: <input> elements over the canvas (text_field_web.cpp); shown: 1 visible, 2 read-only
void attn_js_fields_begin(float px, float pad, float radius);
void attn_js_field(unsigned id, const char* label, const char* hint, const char* value, float x, float y,
                   float w, float h, int shown);
void attn_js_focus_field(unsigned id);
void attn_js_fields_end();

// touch on the canvas (touch_web.cpp)
void attn_js_install_touch();

// the canvas's mouse, wheel and keys, its size and cursor (input_web.cpp, main_web.cpp; web/bridge_input.js)
void attn_js_install_input();
void attn_js_size_canvas(int w, int h, double ratio);
void attn_js_set_cursor(int cursor);

}  // extern "C"
