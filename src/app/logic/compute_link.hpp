// The seam between the app and a compute worker (the page's Web Worker, which runs this same core): the
// platform sets a link once its worker is running and queues the worker's messages as they arrive. With
// no link (the desktop, the tests, a page whose worker did not start) the work runs in the app's thread.
#pragma once

#include <cstdint>
#include <vector>

#include "app/logic/message_bytes.hpp"

namespace app {

class ComputeLink {
 public:
  virtual ~ComputeLink() = default;
  // To the first worker (the one that also runs the Train scene's session).
  virtual void post(const std::vector<std::uint8_t>& message) = 0;
  // The message made of `parts` in order (by default joined, then posted).
  virtual void post_parts(const std::vector<Part>& parts) { post(join(parts)); }
  // How many workers run: the first, then helpers that only share the multi-head scene's recomputes
  // (pipeline_messages.hpp); and a message to worker k of them.
  virtual int workers() const { return 1; }
  virtual void post_to(int worker, const std::vector<std::uint8_t>& message) {
    if (worker == 0) post(message);
  }
};

// The link in use, or nullptr.
ComputeLink* compute_link();
// The platform's link (nullptr while it has none) and whether it may still have one: a worker that was
// not asked for yet or is starting (false where there is none, or it failed). The platform calls this when
// that changes; the app's state is the one record of it.
void use_compute_link(ComputeLink* link, bool possible = false);
bool compute_worker_possible();
// Asks the platform to start its compute worker (once: a page that never needs one never starts it).
void want_compute_worker();
bool compute_worker_wanted();
// Asks the platform for its helper workers too (once: a large recompute wants them), and whether they are
// still starting (a shared recompute waits for them; the platform clears it when they run or cannot).
void want_compute_helpers();
bool compute_helpers_wanted();
void set_compute_helpers_starting(bool starting);
bool compute_helpers_starting();
// A message from the worker for a training session (the platform calls this as it arrives; pipeline answers
// go to pipeline_cache.hpp's deliver_pipeline_answer), and the ones of tag `tag` not yet taken, in order
// (each session's updates have their own tag: a scene not drawn leaves its own waiting).
void deliver_from_worker(std::vector<std::uint8_t> message);
std::vector<std::vector<std::uint8_t>> take_from_worker(std::uint32_t tag);

}  // namespace app
