// The page's model files reach the app as bytes a chunk at a time (web/shell.js holds the download or the
// picked file as a Uint8Array, Module.attentionModelBytes): the text is never copied into the heap whole, a
// file past the reader's byte limit is refused before a byte is read, and a download's progress is shown.
// When the compute worker runs, the file is read there instead (its message is the file, read a chunk at a
// time the same way) and the page takes the built model from the worker's answer.
#include <emscripten.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "app/logic/model_messages.hpp"
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

// The message that arrived (Module.attentionInbox, `size` bytes), a chunk at a time; in the worker, each
// fiftieth of the file (at least each MiB) read is reported to the page for model file number `load`.
class InboxBytes : public attn::model_io::ByteSource {
 public:
  InboxBytes(std::size_t size, double load)
      : size_(size),
        step_(std::max<std::size_t>(std::size_t{1} << 20, size / 50)),
        next_(step_),
        load_(load) {}
  std::size_t read(char* dst, std::size_t cap) override {
    const std::size_t n = std::min(cap, size_ - at_);
    if (n > 0) attn_js_inbox_copy(dst, static_cast<double>(at_), static_cast<double>(n));
    at_ += n;
    if (at_ >= next_ && at_ < size_) {
      attn_js_model_read(load_, static_cast<double>(at_), static_cast<double>(size_));
      next_ = at_ + step_;
    }
    return n;
  }

 private:
  std::size_t size_, step_, next_, at_ = 0;
  double load_;
};

void inbox_copy(void* dst, std::size_t at, std::size_t n) {
  attn_js_inbox_copy(dst, static_cast<double>(at), static_cast<double>(n));
}

// The glyphs of a loaded model's words and labels, for the page's font atlas.
void want_model_glyphs() {
  const app::TrainedModel* m = app::trained_model();
  if (!m) return;
  std::string text;
  for (const std::string& w : m->vocab.words) text += w;
  for (const std::string& l : m->labels) text += l;
  platform::font_want_text(text);
}

std::string source_of(const char* name) {
  return name && *name ? name : "a model file";
}

// A load's answer to the page's script: {"ok": true} or {"ok": false, "error": "..."} (JSON, valid until the
// next load).
const char* loaded(const std::string& error) {
  if (error.empty()) want_model_glyphs();
  platform::request_app_frames(2);
  std::string& s = platform::web_layer().replies.load_model;
  s = error.empty() ? R"({"ok":true})"
                    : nlohmann::json({{"ok", false}, {"error", error}})
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return s.c_str();
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
  PageBytes bytes;
  return loaded(app::load_trained_model(bytes, static_cast<long long>(total_bytes), source_of(name)));
}

// Page: the compute worker's answer (Module.attentionInbox, n bytes) for the file `name` becomes the trained
// model, as attn_load_model_bytes would have made it. Returns the same JSON.
EMSCRIPTEN_KEEPALIVE const char* attn_model_from_worker(int n, const char* name) {
  app::Reader r(static_cast<std::size_t>(n > 0 ? n : 0), inbox_copy, "model answer");
  return loaded(app::load_trained_model([&r] { return app::decode_model_answer(r); }, source_of(name)));
}

// Worker: the message that arrived (Module.attentionInbox, n bytes) is a model file; the model read from it,
// or the reason it could not be, goes to the page as load number `load`.
EMSCRIPTEN_KEEPALIVE void attn_worker_load_model(int n, double load) {
  InboxBytes bytes(static_cast<std::size_t>(n > 0 ? n : 0), load);
  const app::Bytes answer = app::encode(app::read_model_file(bytes, n, static_cast<std::uint32_t>(load)));
  attn_js_post(answer.data(), static_cast<int>(answer.size()));
}

// A download or file read under way: `received` of `total` bytes (total <= 0: unknown), shown in the app.
EMSCRIPTEN_KEEPALIVE void attn_model_progress(double received, double total, const char* name) {
  app::show_model_load_progress(name && *name ? name : "a model file", static_cast<long long>(received),
                                static_cast<long long>(total));
  platform::request_app_frames(1);
}

// Page: the worker has read `read` of `total` bytes of the file `name` (web/shell.js, its modelRead news).
EMSCRIPTEN_KEEPALIVE void attn_model_build_progress(double read, double total, const char* name) {
  app::show_model_build_progress(source_of(name), static_cast<long long>(read),
                                 static_cast<long long>(total));
  platform::request_app_frames(1);
}

}  // extern "C"
