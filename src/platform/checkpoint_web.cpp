// A pretrained model's files in the page (web/checkpoint.js: a picker, a drop, a link or openCheckpoint()):
// the page says an open starts; the files then arrive together in the compute worker, which opens them with
// every reader (llama2.c and Hugging Face folders; their code is the page's deferred module,
// scripts/split_wasm.py) and answers with what it opened.
#include "platform/checkpoint_web.hpp"

#include <emscripten.h>

#include <cstddef>
#include <string>

#include "app/logic/compute_link.hpp"
#include "app/logic/lm_store.hpp"
#include "model_io/checkpoint.hpp"
#include "platform/bridge_web.hpp"
#include "platform/frames_web.hpp"

namespace {

// File `index` of the checkpoint being opened (n bytes, Module.attnCheckpointParts[index]) named `name`:
// weights (a llama2.c .bin, a .safetensors shard) are read a slice at a time as the readers ask, the
// other files whole.
attn::model_io::NamedFile checkpoint_file(int index, int n, const char* name) {
  using attn::model_io::CheckpointPart;
  attn::model_io::NamedFile f;
  f.name = name ? name : "";
  const std::size_t size = static_cast<std::size_t>(n > 0 ? n : 0);
  const CheckpointPart part = attn::model_io::checkpoint_part(f.name);
  if (part == CheckpointPart::Llama2c || part == CheckpointPart::Safetensors) {
    f.range = {size, [index](void* dst, std::size_t at, std::size_t bytes) {
                 attn_js_checkpoint_copy(index, dst, static_cast<double>(at), static_cast<double>(bytes));
               }};
  } else {
    f.bytes.resize(size);
    if (size) attn_js_checkpoint_copy(index, f.bytes.data(), 0, static_cast<double>(size));
  }
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

// Worker: file `index` of `count` of open `open` (Module.attnCheckpointParts[index], n bytes: an
// ArrayBuffer, or a picked file) named `name`; at the last one the worker's holder opens them all, and what
// it opened goes to the page.
EMSCRIPTEN_KEEPALIVE void attn_worker_checkpoint_file(int n, int index, int count, double open,
                                                      const char* name) {
  attn::model_io::NamedFile file = checkpoint_file(index, n, name);
  auto info =
      platform::worker_lm_host().add_file(static_cast<long long>(open), index, count, std::move(file));
  if (!info) return;
  const app::Bytes bytes = app::encode(*info);
  attn_js_post(bytes.data(), static_cast<int>(bytes.size()));
}

}  // extern "C"
