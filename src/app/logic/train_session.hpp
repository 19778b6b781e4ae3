// A training session (no UI code): the Train scene's refund router, or the Induction scene's small language
// model, trained in time slices and evaluated in chunks. It runs where the TrainHost runs
// (app/logic/train_host.hpp): the page's compute worker, or between frames on the desktop and in tests.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/clock.hpp"
#include "app/logic/settings.hpp"
#include "core/train/induction.hpp"
#include "core/train/set_chunks.hpp"
#include "core/train/trainer.hpp"

namespace app::train_ui {

inline constexpr int kEvalEvery = 25;            // steps between evaluations on the held-out emails
inline constexpr int kInductionEvalEvery = 100;  // the induction task's (attention_cli's default)
// The lengths the induction task is measured at besides its training length, on every pause.
inline constexpr int kInductionLengths[] = {64, 128};
inline constexpr int kTrainEvalEvery = 100;  // steps between evaluations on the training emails too
inline constexpr float kTarget = 0.99f;      // test accuracy at which training stops by itself ...
inline constexpr int kTargetHeld = 2;        // ... once this many evaluations in a row reached it
// Training work per frame (at least one step or evaluation chunk): this fraction of the frame interval
// measured while not training, within these bounds; so a training frame takes at most ~1.5 idle frames.
inline constexpr double kBudgetShare = 0.5, kMinBudgetMs = 4.0, kMaxBudgetMs = 25.0;

// What a session trains: the refund router, or the induction task's language model
// (core/train/induction.hpp).
enum class Task { Router, Induction };

// What a model is built from; a change starts a new training run.
struct SessionKey {
  attn::Scheme positions = attn::kLessonScheme;
  int d_model = 0, heads = 0, layers = 0, seed = 0;  // the induction task's sizes are its own: 0 here
  Task task = Task::Router;
  bool operator==(const SessionKey& o) const {
    return positions == o.positions && d_model == o.d_model && heads == o.heads && layers == o.layers &&
           seed == o.seed && task == o.task;
  }
  bool operator!=(const SessionKey& o) const { return !(*this == o); }
};
SessionKey session_key(const Settings& s);    // the Train scene's router
SessionKey induction_key(const Settings& s);  // the Induction scene's language model

// The refund data set with its vocabulary and encoded training emails, built once (tokenizing the set takes
// tens of milliseconds in the page) and shared by every session's trainer.
const std::shared_ptr<const attn::train::TrainingData>& refund_training();
// Its data set (with the class names) and its vocabulary.
const attn::train::Dataset& refund_data();
const attn::train::Vocab& refund_vocab();
// The model a session for `key` trains: the router (vocab and classes filled from refund_data()), or the
// induction task's language model. Throws InputError for a scheme the model cannot train (in the CLI's
// words) or an unusable config.
attn::train::ModelConfig session_model_config(const SessionKey& key);

// Why tick() stopped the run (the scene then sets train=pause).
enum class Stop { None, Target, MaxSteps, Error };

// The learning curves: the loss of every step, the accuracies at every evaluation.
struct Curves {
  std::vector<float> loss;                        // (steps) mean cross-entropy of each minibatch
  std::vector<float> eval_step;                   // (E) step of each evaluation
  std::vector<float> test_accuracy, flipped;      // (E)
  std::vector<float> train_step, train_accuracy;  // (E') evaluations that covered the training emails
  // the induction task's evaluations instead of the accuracies: each half's loss (E), and every head's
  // previous-token scores, then its prefix-matching scores, layer by layer (E, 2 * layers * heads)
  std::vector<float> first_half, second_half, scores;
};

// What the scene shows of a session besides its curves and model: a plain value, sent by the worker.
struct Progress {
  bool has_trainer = false;
  int steps = 0;
  float last_loss = 0;
  attn::train::Metrics metrics{};
  int metrics_step = -1, train_metrics_step = -1;  // -1: not evaluated yet
  bool evaluating = false;
  int target_step = -1;  // -1: the target was not reached
  double target_seconds = 0, seconds = 0, steps_per_second = 0;
  std::string error;
};

class Session {
 public:
  // Starts over: a fresh trainer for `key` (throws InputError for an unusable model), empty curves and an
  // evaluation of the untrained model queued.
  void reset(const SessionKey& key);
  // Drops the trainer but remembers `key` (used when a model file replaced the trained model).
  void detach(const SessionKey& key);
  // About budget_ms of work: evaluation chunks first, then (when `run`) training steps. Stops
  // at the target (once per run; afterwards training may continue) or at max_steps.
  Stop tick(double budget_ms, bool run, int max_steps);
  // Queues an evaluation of the current step on the held-out and training emails (on pause), unless the
  // last one covered both at this step.
  void evaluate_now();

  bool has_trainer() const { return trainer_ != nullptr || induction_ != nullptr; }
  const SessionKey& key() const { return key_; }
  bool keyed() const { return keyed_; }  // reset() or detach() has given it a key
  int steps() const;
  float last_loss() const;
  const attn::train::Metrics& metrics() const { return metrics_; }
  int metrics_step() const { return metrics_step_; }      // -1: not evaluated yet
  int train_metrics_step() const { return train_step_; }  // step of metrics().train_accuracy
  bool evaluating() const { return job_.active; }
  bool target_reached() const { return target_step_ >= 0; }
  int target_step() const { return target_step_; }
  double target_seconds() const { return target_seconds_; }
  double seconds() const { return seconds_; }  // wall time spent running
  double steps_per_second() const;
  const Curves& curves() const { return curves_; }
  const std::string& error() const { return error_; }
  Progress progress() const;
  // The model as of the last evaluation, its training info (written into a model file), and a count of
  // the evaluations that made a new one.
  const attn::train::Model& snapshot_model() const { return snapshot_model_; }
  const nlohmann::json& snapshot_info() const { return snapshot_info_; }
  long long snapshot_serial() const { return snapshot_serial_; }
  nlohmann::json info() const;  // the training info as of the last evaluation

 private:
  struct EvalJob {
    bool active = false, scheduled = false, with_train = false;
    int step = 0;
    size_t next = 0;  // next chunk: test chunks first, then training chunks
    attn::train::SetTally test, train;
  };
  void start_eval(bool scheduled);
  Stop eval_chunk();
  Stop induction_eval();  // the whole evaluation (64 short sequences), and the other lengths on a pause
  Stop finish_eval();
  void publish();
  void track_time(bool running);

  SessionKey key_;
  bool keyed_ = false;
  std::unique_ptr<attn::train::Trainer> trainer_;
  std::unique_ptr<attn::train::InductionTrainer> induction_;
  nlohmann::json lengths_;  // the induction task's measures at kInductionLengths, of step lengths_step_
  int lengths_step_ = -1;
  attn::train::Metrics metrics_{};
  int metrics_step_ = -1, train_step_ = -1, held_ = 0, target_step_ = -1;
  double target_seconds_ = 0.0, seconds_ = 0.0;
  EvalJob job_;
  Curves curves_;
  std::string error_;
  attn::train::Model snapshot_model_;
  nlohmann::json snapshot_info_;
  long long snapshot_serial_ = 0;
  bool was_running_ = false;
  Clock::time_point last_tick_{};
  std::deque<std::pair<double, int>> rate_;  // (seconds, steps) samples of the last second or so
};

}  // namespace app::train_ui
