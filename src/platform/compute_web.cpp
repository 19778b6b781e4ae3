// The page's compute worker (web/compute_worker.js), both of its sides in the one .wasm: in the page, the
// ComputeLink that posts to the worker and the exports the worker's news arrive through; in the worker,
// the exports that run the Train and Induction scenes' TrainHosts, the LongerHost and the multi-head scene's
// PipelineHost between its messages.
#include <emscripten.h>

#include <cstdint>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/lm_store.hpp"
#include "app/logic/longer_emails.hpp"
#include "app/logic/pipeline_host.hpp"
#include "app/logic/train_host.hpp"
#include "core/error.hpp"
#include "platform/bridge_web.hpp"
#include "platform/checkpoint_web.hpp"
#include "platform/frames_web.hpp"
#include "platform/web_layer.hpp"

namespace {

// n bytes from `at` of the message that arrived (Module.attentionInbox).
void inbox_copy(void* dst, std::size_t at, std::size_t n) {
  attn_js_inbox_copy(dst, static_cast<double>(at), static_cast<double>(n));
}

// The message that arrived, n bytes.
std::vector<std::uint8_t> inbox(int n) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n > 0 ? n : 0));
  if (!bytes.empty()) inbox_copy(bytes.data(), 0, bytes.size());
  return bytes;
}

void post(const std::vector<std::uint8_t>& bytes) {
  attn_js_post(bytes.data(), static_cast<int>(bytes.size()));
}

class WorkerLink : public app::ComputeLink {
 public:
  void post(const std::vector<std::uint8_t>& message) override { ::post(message); }
  int workers() const override { return 1 + helpers; }
  void post_to(int worker, const std::vector<std::uint8_t>& message) override {
    attn_js_post_to(worker, message.data(), static_cast<int>(message.size()));
  }
  void post_parts(const std::vector<app::Part>& parts) override {
    std::vector<std::uint32_t> at_size;  // (2 * parts) heap address, byte count
    for (const app::Part& part : parts) {
      at_size.push_back(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(part.first)));
      at_size.push_back(static_cast<std::uint32_t>(part.second));
    }
    attn_js_post_parts(at_size.data(), static_cast<int>(parts.size()));
  }
  int helpers = 0;  // helper workers running (attn_helpers_up)
};

WorkerLink& link() {
  static WorkerLink l;
  return l;
}

// The worker's training sessions, one per task (the Train and Induction scenes keep theirs when the
// learner moves between them), and its pipeline job (the worker runs no App).
app::train_ui::TrainHost& host(app::train_ui::Task task) {
  static app::train_ui::TrainHost router, induction;
  return task == app::train_ui::Task::Induction ? induction : router;
}
app::PipelineHost& pipelines() {
  static app::PipelineHost h;
  return h;
}
app::LongerHost& longer() {
  static app::LongerHost h;
  return h;
}

}  // namespace

namespace platform {

void offer_compute_worker() {
  app::use_compute_link(nullptr, true);
}

void start_compute_worker_if_wanted() {
  WebLayer& w = web_layer();
  if (!w.worker_asked && app::compute_worker_wanted()) {
    w.worker_asked = true;
    attn_js_start_worker();
  }
  if (!w.helpers_asked && app::compute_helpers_wanted()) {
    w.helpers_asked = true;
    app::set_compute_helpers_starting(true);
    attn_js_start_helpers();
  }
}

}  // namespace platform

extern "C" {

// Page: the compute worker started (1), or stopped or cannot start (0: for good).
EMSCRIPTEN_KEEPALIVE void attn_worker_up(int up) {
  app::use_compute_link(up ? &link() : nullptr, up != 0);
  platform::request_app_frames(1);
}

// Page: n helper workers run (0: none, or they stopped: the compute worker alone computes).
EMSCRIPTEN_KEEPALIVE void attn_helpers_up(int n) {
  link().helpers = n > 0 ? n : 0;
  app::set_compute_helpers_starting(false);
  platform::request_app_frames(1);
}

// Page: n bytes from the worker (Module.attentionInbox) for the app, which takes them in its next frame. A
// pipeline answer (megabytes) is read from the message straight into its matrices; a malformed one is
// dropped (the page and the worker are the same build: it does not happen).
EMSCRIPTEN_KEEPALIVE void attn_from_worker(int n) {
  const auto size = static_cast<std::size_t>(n > 0 ? n : 0);
  std::uint32_t tag = 0;
  if (size >= sizeof tag) inbox_copy(&tag, 0, sizeof tag);
  if (tag == app::kPipelineAnswerTag) {
    try {
      app::Reader r(size, inbox_copy, "pipeline answer");
      app::deliver_pipeline_answer(app::decode_pipeline_answer(r));
    } catch (const attn::InputError&) {
    }
  } else if (tag == app::kLongerAnswerTag) {
    try {
      app::deliver_longer_answer(app::decode_longer_answer(inbox(n)));
    } catch (const attn::InputError&) {
    }
  } else if (tag == app::kLmInfoTag || tag == app::kLmAnswerTag) {
    try {
      const std::vector<std::uint8_t> bytes = inbox(n);
      if (tag == app::kLmInfoTag)
        app::deliver_lm_info(app::decode_lm_info(bytes));
      else
        app::deliver_lm_answer(app::decode_lm_answer(bytes));
    } catch (const attn::InputError&) {
    }
  } else {
    app::deliver_from_worker(inbox(n));
  }
  platform::request_app_frames(1);
}

// Worker: n bytes from the page (Module.attentionInbox), a pipeline job or a command for the session. A
// malformed one is dropped (the page and the worker are the same build: it does not happen).
EMSCRIPTEN_KEEPALIVE void attn_worker_command(int n) {
  try {
    const std::vector<std::uint8_t> bytes = inbox(n);
    const std::uint32_t tag = app::message_tag(bytes);
    if (tag == app::kPipelineJobTag)
      pipelines().receive(app::decode_pipeline_job(bytes));
    else if (tag == app::kLongerJobTag)
      longer().receive(app::decode_longer_job(bytes));
    else if (tag == app::kLmRequestTag)  // answered at once: the question's one forward is its work
      post(app::encode(platform::worker_lm_host().answer(app::decode_lm_request(bytes))));
    else {
      const app::train_ui::Command c = app::train_ui::decode_command(bytes);
      host(c.key.task).receive(c);
    }
  } catch (const attn::InputError&) {
  }
}

// Worker: about budget_ms of work, then what is due, posted to the page: the pipeline job first (the
// learner waits for it), then the longer-emails measure (asked for only while training pauses), else the
// session's work and its update. Returns whether there is more work (the worker then calls again after
// looking at its messages).
EMSCRIPTEN_KEEPALIVE int attn_worker_work(double budget_ms) {
  const bool computing = pipelines().work(budget_ms);
  if (auto a = pipelines().take_answer()) {
    for (int part = 0; part < app::answer_parts(*a); ++part) post(app::encode(*a, part));
  }
  if (computing) return 1;
  const bool measuring = longer().work(budget_ms);
  if (auto a = longer().take_answer()) post(app::encode(*a));
  if (measuring) return 1;
  bool more = false;
  for (const auto task : {app::train_ui::Task::Router, app::train_ui::Task::Induction}) {
    const bool working = host(task).work(budget_ms);
    if (auto u = host(task).take_update(!working)) post(app::train_ui::encode(*u));
    more = more || working;
  }
  return more ? 1 : 0;
}

}  // extern "C"
