// The Train scene's side of its training session: starts, runs and pauses it with Commands and mirrors what
// its Updates say. The session runs in the page's compute worker when the platform has linked one
// (app/logic/compute_link.hpp), else in-process: then each tick runs a frame's share of its work.
#pragma once

#include <memory>
#include <string>

#include "app/logic/train_host.hpp"
#include "app/logic/train_session.hpp"
#include "app/logic/trained_model.hpp"

namespace app::train_ui {

class TrainClient {
 public:
  // Checks `key` (InputError for a model the router cannot be) and starts a session for it with an
  // evaluation of the untrained model.
  void reset(const SessionKey& key);
  // No trainer, `key` remembered (a model file replaced the trained model).
  void detach(const SessionKey& key);
  // Sends `run` and `max_steps` when they changed, applies the updates that arrived and, in-process, runs
  // about budget_ms of the session's work. Returns why the session stopped running since the last tick.
  Stop tick(double budget_ms, bool run, int max_steps);

  bool in_worker() const { return has_trainer_ && !local_; }
  bool has_trainer() const { return has_trainer_; }
  const SessionKey& key() const { return key_; }
  bool keyed() const { return keyed_; }
  int steps() const { return progress_.steps; }
  float last_loss() const { return progress_.last_loss; }
  const attn::train::Metrics& metrics() const { return progress_.metrics; }
  int metrics_step() const { return progress_.metrics_step; }
  int train_metrics_step() const { return progress_.train_metrics_step; }
  bool evaluating() const { return progress_.evaluating; }
  bool target_reached() const { return progress_.target_step >= 0; }
  int target_step() const { return progress_.target_step; }
  double target_seconds() const { return progress_.target_seconds; }
  double seconds() const { return progress_.seconds; }
  double steps_per_second() const { return progress_.steps_per_second; }
  const Curves& curves() const { return curves_; }
  const std::string& error() const { return progress_.error; }
  // The model as of the session's last evaluation that arrived (published app-wide once it has trained at
  // least one step); no vocab before the first.
  const TrainedModel& snapshot() const { return snapshot_; }

 private:
  // A new session of `kind` (Start or Detach) for `key`: a new generation, nothing of the old one kept.
  void start(Command::Kind kind, const SessionKey& key);
  void send(Command c);
  void apply(const Update& u);

  SessionKey key_;
  bool keyed_ = false, has_trainer_ = false;
  long long generation_ = 0, applied_ = 0;  // updates of this generation applied
  bool sent_run_ = false;
  int sent_max_steps_ = -1;
  std::unique_ptr<TrainHost> local_;  // the session, when there is no compute worker
  Progress progress_;
  Curves curves_;
  TrainedModel snapshot_;
  Stop stop_ = Stop::None;
};

}  // namespace app::train_ui
