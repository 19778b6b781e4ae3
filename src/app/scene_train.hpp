// The Train scene's parts: the training session (trains in time slices between frames, evaluates in
// chunks), its panels, and the multi-head scene's "trained model" mode.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/train/trainer.hpp"
#include "scenes.hpp"
#include "settings.hpp"
#include "trained_model.hpp"

namespace app::train_ui {

inline constexpr int kEvalEvery = 25;        // steps between evaluations on the held-out emails
inline constexpr int kTrainEvalEvery = 100;  // steps between evaluations on the training emails too
inline constexpr float kTarget = 0.99f;      // test accuracy at which training stops by itself ...
inline constexpr int kTargetHeld = 2;        // ... once this many evaluations in a row reached it
// Training work per frame (at least one step or evaluation chunk): this fraction of the frame interval
// measured while not training, within these bounds; so a training frame takes at most ~1.5 idle frames.
inline constexpr double kBudgetShare = 0.5, kMinBudgetMs = 4.0, kMaxBudgetMs = 25.0;

// What a model is built from; a change starts a new training run.
struct SessionKey {
  std::string positions;
  int d_model = 0, heads = 0, layers = 0, seed = 0;
  bool operator==(const SessionKey& o) const {
    return positions == o.positions && d_model == o.d_model && heads == o.heads && layers == o.layers &&
           seed == o.seed;
  }
  bool operator!=(const SessionKey& o) const { return !(*this == o); }
};
SessionKey session_key(const Settings& s);

// The refund data set (built once) and its class names.
const attn::train::Dataset& refund_data();

// Why tick() stopped the run (the scene then sets train=pause).
enum class Stop { None, Target, MaxSteps, Error };

// The learning curves: the loss of every step, the accuracies at every evaluation.
struct Curves {
  std::vector<float> loss;                        // (steps) mean cross-entropy of each minibatch
  std::vector<float> eval_step;                   // (E) step of each evaluation
  std::vector<float> test_accuracy, flipped;      // (E)
  std::vector<float> train_step, train_accuracy;  // (E') evaluations that covered the training emails
};

class Session {
 public:
  // Starts over: a fresh trainer for `key` (throws InputError for an unusable model), empty curves and an
  // evaluation of the untrained model queued.
  void reset(const SessionKey& key);
  // Drops the trainer but remembers `key` (used when a model file replaced the trained model).
  void detach(const SessionKey& key);
  // One frame's work, about budget_ms: evaluation chunks first, then (when `run`) training steps. Stops
  // at the target (once per run; afterwards training may continue) or at max_steps.
  Stop tick(double budget_ms, bool run, int max_steps);
  // Queues an evaluation of the current step on the held-out and training emails (on pause), unless the
  // last one covered both at this step.
  void evaluate_now();

  bool has_trainer() const { return trainer_ != nullptr; }
  const SessionKey& key() const { return key_; }
  int steps() const { return trainer_ ? trainer_->steps() : 0; }
  float last_loss() const { return trainer_ ? trainer_->last_loss() : 0.0f; }
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
  long long published_version() const { return published_; }
  // The model as of the last evaluation (published app-wide once it has trained at least one step).
  const TrainedModel& snapshot() const { return snapshot_; }
  nlohmann::json info() const;  // the training info written into a model file

 private:
  struct EvalJob {
    bool active = false, scheduled = false, with_train = false;
    int step = 0;
    size_t next = 0;  // next chunk: test chunks first, then training chunks
    int n = 0, right = 0, twins = 0, both = 0, train_n = 0, train_right = 0;
    double loss = 0.0;
    float max_diff = 0.0f;
  };
  void start_eval(bool scheduled);
  Stop eval_chunk();
  Stop finish_eval();
  void publish();
  void track_time(bool running);

  SessionKey key_;
  std::unique_ptr<attn::train::Trainer> trainer_;
  attn::train::Metrics metrics_{};
  int metrics_step_ = -1, train_step_ = -1, held_ = 0, target_step_ = -1;
  double target_seconds_ = 0.0, seconds_ = 0.0;
  EvalJob job_;
  Curves curves_;
  std::string error_;
  TrainedModel snapshot_;
  long long published_ = 0;
  bool was_running_ = false;
  std::chrono::steady_clock::time_point last_tick_{};
  std::deque<std::pair<double, int>> rate_;  // (seconds, steps) samples of the last second or so
};

// [panels: scene_train_panels.cpp]
// Live loss and accuracy curves.
void draw_curves(const Session& session);
// The typed email: tokens, label, confidence and every class probability as bars. Fills shown["prediction"];
// returns "" or the model's message for an email it cannot read (shown in place).
std::string draw_prediction(Settings& s, const TrainedModel& m, nlohmann::json& shown);
// A held-out email and its order-flipped twin side by side, with their exact difference. Fills shown["pair"].
void draw_pair(const TrainedModel& m, nlohmann::json& shown);
// Held-out accuracy with 8, 32 and 128 filler tokens in front (one length measured per frame, only while
// not `training`), with the context-length advice; fills shown["longer"].
void draw_longer(const TrainedModel& m, bool training, nlohmann::json& shown);
// Save the model as a file, open one, and what the current model file says about its training.
void draw_model_file(const TrainedModel* m);

// [the multi-head scene's trained mode: scene_train_mha.cpp]
// The "weights: random | trained" switch of the multi-head scene; in trained mode also the text and layer
// controls and a line about the model. Returns true in trained mode.
bool draw_model_switch(Settings& s);
// A note with a button to the Train scene, for when no model has been trained yet.
void draw_no_model_note(Settings& s);
// Settings with the trained model's d_model and heads (for the parameter panel), or `s` itself.
Settings with_model_sizes(const Settings& s);
// ctx.shown["trained_model"]: the model's sizes, scheme, steps and source (null when there is none).
nlohmann::json trained_model_json_summary();

}  // namespace app::train_ui
