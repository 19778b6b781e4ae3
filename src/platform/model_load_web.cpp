// The page's model files reach the app as bytes a chunk at a time (web/shell.js holds the download or the
// picked file as a Uint8Array, Module.attentionModelBytes): the text is never copied into the heap whole, a
// file past the reader's byte limit is refused before a byte is read, and a download's progress is shown.
#include <emscripten.h>

#include <string>

#include "app/logic/trained_model.hpp"
#include "core/input_limits.hpp"
#include "platform/bridge_web.hpp"
#include "platform/font.hpp"
#include "platform/frames_web.hpp"
#include "platform/web_layer.hpp"

namespace {

class PageBytes : public attn::model_io::ByteSource {
 public:
  std::size_t read(char* dst, std::size_t cap) override {
    return static_cast<std::size_t>(attn_js_model_chunk(dst, static_cast<int>(cap)));
  }
};

// The glyphs of a loaded model's words and labels, for the page's font atlas.
void want_model_glyphs() {
  const app::TrainedModel* m = app::trained_model();
  if (!m) return;
  std::string text;
  for (const std::string& w : m->vocab.words) text += w;
  for (const std::string& l : m->labels) text += l;
  platform::font_want_text(text);
}

}  // namespace

extern "C" {

// The most bytes a model file may have (the reader's limit): the page refuses larger ones before reading
// them.
EMSCRIPTEN_KEEPALIVE double attn_model_byte_limit() {
  return static_cast<double>(attn::kMaxInputBytes);
}

// Module.attentionModelBytes (total_bytes long, or null with the reason in `name`) becomes the trained model,
// as "Open a model file" does; `name` says where it came from. Returns {"ok": true} or {"ok": false,
// "error": "..."} (JSON, valid until the next call).
EMSCRIPTEN_KEEPALIVE const char* attn_load_model_bytes(double total_bytes, const char* name) {
  std::string& s = platform::web_layer().replies.load_model;
  PageBytes bytes;
  const std::string source = name && *name ? name : "a model file";
  const std::string error = app::load_trained_model(bytes, static_cast<long long>(total_bytes), source);
  if (error.empty()) want_model_glyphs();
  platform::request_app_frames(2);
  s = error.empty() ? R"({"ok":true})"
                    : nlohmann::json({{"ok", false}, {"error", error}})
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return s.c_str();
}

// A download or file read under way: `received` of `total` bytes (total <= 0: unknown), shown in the app.
EMSCRIPTEN_KEEPALIVE void attn_model_progress(double received, double total, const char* name) {
  app::show_model_load_progress(name && *name ? name : "a model file", static_cast<long long>(received),
                                static_cast<long long>(total));
  platform::request_app_frames(1);
}

}  // extern "C"
