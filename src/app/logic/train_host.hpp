// The side of the Train scene's session that does the work: it runs a Session as Commands say and writes
// Updates of what changed. It runs in the page's compute worker (src/platform/compute_web.cpp), or inside
// the TrainClient between frames on the desktop and in tests: the same code either way.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "app/logic/clock.hpp"
#include "app/logic/train_messages.hpp"
#include "app/logic/train_session.hpp"

namespace app::train_ui {

inline constexpr double kUpdateEveryMs = 50.0;  // at most this often an update (progress, curve tails) ...
inline constexpr double kModelEveryMs = 200.0;  // ... and a new model snapshot while training runs
inline constexpr long long kUnacked = 2;        // updates sent and not yet applied: then the next one waits

class TrainHost {
 public:
  void receive(const Command& c);
  // About budget_ms of work: evaluation chunks, then training steps while running; a stop (target, max
  // steps, error) pauses it. Returns whether there is more to do.
  bool work(double budget_ms);
  // What changed since the last update, when one is due: at once after a start, a stop or when `idle` (no
  // more work for now), else at most every kUpdateEveryMs; but none while kUnacked updates wait to be
  // applied (a page that draws slowly, or not this scene, gets fewer and larger ones). A new model snapshot
  // comes with it when idle, at a stop, or kModelEveryMs after the last one sent.
  std::optional<Update> take_update(bool idle);

 private:
  Session session_;
  long long generation_ = 0;
  bool run_ = false, changed_ = false, started_ = false;
  int max_steps_ = 0;
  Stop stop_ = Stop::None;
  std::string error_;               // why the session could not start
  long long sent_ = 0, acked_ = 0;  // updates of this generation sent, and applied by the client
  long long sent_loss_ = 0, sent_eval_ = 0, sent_train_ = 0, sent_serial_ = 0;
  Clock::time_point last_update_{}, last_model_{};
};

}  // namespace app::train_ui
