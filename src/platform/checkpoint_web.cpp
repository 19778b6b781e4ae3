// A pretrained model's files in the page (web/checkpoint.js: a picker, a drop, a link or openCheckpoint()):
// the page says an open starts; each file then arrives as a message (Module.attentionInbox) in the compute
// worker, which opens the files together and answers with what it opened.
#include "platform/checkpoint_web.hpp"

#include <emscripten.h>

#include <string>

#include "app/logic/compute_link.hpp"
#include "app/logic/lm_store.hpp"
#include "platform/bridge_web.hpp"
#include "platform/frames_web.hpp"

namespace {

// The message that arrived (n bytes) as a file named `name`.
attn::model_io::NamedFile inbox_file(int n, const char* name) {
  attn::model_io::NamedFile f{name ? name : "", std::string(static_cast<std::size_t>(n > 0 ? n : 0), '\0')};
  if (!f.bytes.empty()) attn_js_inbox_copy(f.bytes.data(), 0, static_cast<double>(f.bytes.size()));
  return f;
}

}  // namespace

namespace platform {

app::LmHost& worker_lm_host() {
  static app::LmHost h;
  return h;
}

}  // namespace platform

extern "C" {

// Page: the files `names` (bytes in all) are opened from now on in the compute worker (`in_worker`; 0: the
// worker did not start, and the open fails saying so); returns the open's number, which each file's message
// carries.
EMSCRIPTEN_KEEPALIVE double attn_checkpoint_opening(const char* names, double bytes, int in_worker) {
  platform::request_app_frames(1);
  const bool worker = in_worker != 0 && app::compute_link() != nullptr;
  return static_cast<double>(app::lm_open_started(names ? names : "", static_cast<long long>(bytes), worker));
}

// Worker: file `index` of `count` of open `open` (Module.attentionInbox, n bytes: an ArrayBuffer, or a picked
// file read a slice at a time) named `name`; the last one (web/compute_worker.js sends the checkpoint last)
// is read as it opens them all in the worker's holder, and what it opened goes to the page.
EMSCRIPTEN_KEEPALIVE void attn_worker_checkpoint_file(int n, int index, int count, double open,
                                                      const char* name) {
  attn::model_io::NamedFile file;
  if (index + 1 < count) {
    file = inbox_file(n, name);
  } else {
    file.name = name ? name : "";
    file.range = {static_cast<std::size_t>(n > 0 ? n : 0), [](void* dst, std::size_t at, std::size_t size) {
                    attn_js_inbox_copy(dst, static_cast<double>(at), static_cast<double>(size));
                  }};
  }
  auto info =
      platform::worker_lm_host().add_file(static_cast<long long>(open), index, count, std::move(file));
  if (!info) return;
  const app::Bytes bytes = app::encode(*info);
  attn_js_post(bytes.data(), static_cast<int>(bytes.size()));
}

}  // extern "C"
