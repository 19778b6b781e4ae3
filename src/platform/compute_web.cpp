// The page's compute worker (web/compute_worker.js), both of its sides in the one .wasm: in the page, the
// ComputeLink that posts to the worker and the exports the worker's news arrive through; in the worker,
// the exports that run the Train scene's TrainHost between its messages.
#include <emscripten.h>

#include <cstdint>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/train_host.hpp"
#include "core/error.hpp"
#include "platform/bridge_web.hpp"
#include "platform/frames_web.hpp"
#include "platform/web_layer.hpp"

namespace {

// The message that arrived (Module.attentionInbox), n bytes.
std::vector<std::uint8_t> inbox(int n) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n > 0 ? n : 0));
  if (!bytes.empty()) attn_js_inbox_copy(bytes.data(), n);
  return bytes;
}

void post(const std::vector<std::uint8_t>& bytes) {
  attn_js_post(bytes.data(), static_cast<int>(bytes.size()));
}

class WorkerLink : public app::ComputeLink {
 public:
  void post(const std::vector<std::uint8_t>& message) override { ::post(message); }
};

// The worker's session (the worker runs no App).
app::train_ui::TrainHost& host() {
  static app::train_ui::TrainHost h;
  return h;
}

}  // namespace

namespace platform {

app::ComputeLink* compute_worker_link() {
  static WorkerLink link;
  WebLayer& w = web_layer();
  if (!w.worker_asked && app::compute_worker_wanted()) {
    w.worker_asked = true;
    attn_js_start_worker();
  }
  return w.worker_up ? &link : nullptr;
}

}  // namespace platform

extern "C" {

// Page: the compute worker started (1) or stopped (0).
EMSCRIPTEN_KEEPALIVE void attn_worker_up(int up) {
  platform::web_layer().worker_up = up != 0;
  platform::request_app_frames(1);
}

// Page: n bytes from the worker (Module.attentionInbox) for the app, which takes them in its next frame.
EMSCRIPTEN_KEEPALIVE void attn_from_worker(int n) {
  app::deliver_from_worker(inbox(n));
  platform::request_app_frames(1);
}

// Worker: n bytes from the page (Module.attentionInbox), a command for the session. A malformed one is
// dropped (the page and the worker are the same build: it does not happen).
EMSCRIPTEN_KEEPALIVE void attn_worker_command(int n) {
  try {
    host().receive(app::train_ui::decode_command(inbox(n)));
  } catch (const attn::InputError&) {
  }
}

// Worker: about budget_ms of the session's work, then the update that is due, posted to the page. Returns
// whether there is more work (the worker then calls again after looking at its messages).
EMSCRIPTEN_KEEPALIVE int attn_worker_work(double budget_ms) {
  const bool more = host().work(budget_ms);
  if (auto u = host().take_update(!more)) post(app::train_ui::encode(*u));
  return more ? 1 : 0;
}

}  // extern "C"
