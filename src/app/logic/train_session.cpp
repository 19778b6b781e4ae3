// A training session: trains the refund router or the induction task's model in time slices and evaluates
// it in small chunks, so whoever runs it (the compute worker, or the frame loop) can stop between slices.
// No ImGui code.
#include "app/logic/train_session.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "core/train/set_chunks.hpp"

namespace app::train_ui {
namespace {

using attn::train::Example;
constexpr size_t kChunk = 32;  // emails per evaluation chunk (well under a millisecond natively)

// The emails of each evaluation chunk, and their word ids (refund_vocab(): a session's trainer builds the
// same vocabulary from the same data), encoded once: tokenizing at every evaluation took a tenth of the
// training time in the page.
struct Chunks {
  std::vector<std::vector<Example>> emails;
  std::vector<std::vector<std::vector<int>>> ids;  // (chunks) of (emails) of (T)
  explicit Chunks(std::vector<std::vector<Example>> chunks) : emails(std::move(chunks)) {
    for (const auto& c : emails) ids.push_back(attn::train::encode_set(refund_vocab(), c));
  }
};

const Chunks& test_chunks() {
  static const Chunks chunks(attn::train::twin_chunks(refund_data().test, kChunk));
  return chunks;
}

const Chunks& train_chunks() {
  static const Chunks chunks(attn::train::plain_chunks(refund_data().train, kChunk));
  return chunks;
}

}  // namespace

SessionKey session_key(const Settings& s) {
  return {s.positions, s.d_model, s.heads, s.layers, s.seed, Task::Router};
}

SessionKey induction_key(const Settings& s) {
  return {s.positions, 0, 0, 0, s.seed, Task::Induction};
}

const std::shared_ptr<const attn::train::TrainingData>& refund_training() {
  static const std::shared_ptr<const attn::train::TrainingData> set =
      std::make_shared<const attn::train::TrainingData>(attn::train::make_refund_dataset());
  return set;
}

const attn::train::Dataset& refund_data() {
  return refund_training()->data;
}

const attn::train::Vocab& refund_vocab() {
  return refund_training()->vocab;
}

attn::train::ModelConfig session_model_config(const SessionKey& key) {
  // checked by name, so a scheme the model cannot train is refused in the CLI's words
  const attn::Scheme positions =
      attn::parse_scheme(attn::scheme_name(key.positions), attn::train::trainable_schemes());
  if (key.task == Task::Induction) {
    attn::train::ModelConfig mc = attn::train::induction_model_config(
        attn::train::InductionConfig{}, positions, static_cast<std::uint64_t>(key.seed));
    attn::train::validate_config(mc);
    return mc;
  }
  attn::train::ModelConfig mc;
  mc.d_model = key.d_model;
  mc.heads = key.heads;
  mc.layers = key.layers;
  mc.seed = static_cast<std::uint64_t>(key.seed);
  mc.positions = positions;
  mc.vocab = refund_vocab().size();
  mc.classes = static_cast<int>(refund_data().label_names().size());
  attn::train::validate_config(mc);
  return mc;
}

void Session::reset(const SessionKey& key) {
  *this = Session{};
  key_ = key;
  keyed_ = true;
  if (key.task == Task::Induction) {
    induction_ = std::make_unique<attn::train::InductionTrainer>(attn::train::InductionConfig{},
                                                                 session_model_config(key));
  } else {
    trainer_ = std::make_unique<attn::train::Trainer>(session_model_config(key), attn::train::TrainConfig{},
                                                      refund_training());
  }
  start_eval(true);
}

int Session::steps() const {
  return trainer_ ? trainer_->steps() : induction_ ? induction_->steps() : 0;
}

float Session::last_loss() const {
  return trainer_ ? trainer_->last_loss() : induction_ ? induction_->last_loss() : 0.0f;
}

void Session::detach(const SessionKey& key) {
  *this = Session{};
  key_ = key;
  keyed_ = true;
}

void Session::start_eval(bool scheduled) {
  const int step = steps();
  job_ = EvalJob{};
  job_.active = true;
  job_.scheduled = scheduled;
  job_.step = step;
  job_.with_train = !scheduled || step % kTrainEvalEvery == 0;
}

void Session::evaluate_now() {
  const int also = induction_ ? lengths_step_ : train_step_;  // the step the pause's extra measures are of
  if (has_trainer() && !job_.active && (metrics_step_ != steps() || also != steps())) start_eval(false);
}

Stop Session::induction_eval() {
  const attn::train::InductionMetrics m = induction_->evaluate();
  job_.active = false;
  metrics_step_ = job_.step;
  const auto step = static_cast<float>(job_.step);
  if (curves_.eval_step.empty() || curves_.eval_step.back() != step) {
    curves_.eval_step.push_back(step);
    curves_.first_half.push_back(static_cast<float>(m.loss_first_half));
    curves_.second_half.push_back(static_cast<float>(m.loss_second_half));
    for (const auto* scores : {&m.previous_token, &m.induction}) {
      for (const auto& layer : *scores)
        curves_.scores.insert(curves_.scores.end(), layer.begin(), layer.end());
    }
  }
  if (!job_.scheduled) {  // on a pause: the repeat's loss at longer lengths (a learned table cannot read
                          // them)
    lengths_ = nlohmann::json::array();
    for (const int length : kInductionLengths) {
      nlohmann::json at;
      at["length"] = length;
      try {
        const attn::train::InductionMetrics l = induction_->evaluate(length);
        at["loss_first_half"] = l.loss_first_half;
        at["loss_second_half"] = l.loss_second_half;
      } catch (const attn::InputError& e) {
        at["error"] = e.what();
      }
      lengths_.push_back(std::move(at));
    }
    lengths_step_ = job_.step;
  }
  publish();
  return Stop::None;
}

Stop Session::eval_chunk() {
  if (induction_) return induction_eval();
  const size_t tests = test_chunks().emails.size();
  const size_t total = tests + (job_.with_train ? train_chunks().emails.size() : 0);
  const bool is_test = job_.next < tests;
  const Chunks& set = is_test ? test_chunks() : train_chunks();
  const size_t at = is_test ? job_.next : job_.next - tests;
  const attn::train::SetMetrics m =
      attn::train::evaluate_set(trainer_->model(), trainer_->vocab(), set.emails[at], &set.ids[at]);
  (is_test ? job_.test : job_.train).add(m);
  return ++job_.next >= total ? finish_eval() : Stop::None;
}

Stop Session::finish_eval() {
  job_.active = false;
  const attn::train::SetMetrics test = job_.test.total();
  metrics_.test_accuracy = test.accuracy;
  metrics_.flipped_pair_accuracy = test.pair_accuracy;
  metrics_.max_pair_difference = test.max_pair_difference;
  metrics_.test_loss = test.loss;
  if (job_.with_train) {
    metrics_.train_accuracy = job_.train.total().accuracy;
    train_step_ = job_.step;
    curves_.train_step.push_back(static_cast<float>(job_.step));
    curves_.train_accuracy.push_back(metrics_.train_accuracy);
  }
  metrics_step_ = job_.step;
  if (curves_.eval_step.empty() || curves_.eval_step.back() != static_cast<float>(job_.step)) {
    curves_.eval_step.push_back(static_cast<float>(job_.step));
    curves_.test_accuracy.push_back(metrics_.test_accuracy);
    curves_.flipped.push_back(metrics_.flipped_pair_accuracy);
  }
  publish();
  if (!job_.scheduled || job_.step == 0) return Stop::None;
  held_ = metrics_.test_accuracy >= kTarget ? held_ + 1 : 0;
  if (held_ >= kTargetHeld && target_step_ < 0) {
    target_step_ = job_.step;
    target_seconds_ = seconds_;
    return Stop::Target;
  }
  return Stop::None;
}

void Session::track_time(bool running) {
  const Clock::time_point now = Clock::now();
  if (running && was_running_) {
    // Frames are ~16 ms apart; a longer gap means the tab was hidden or the scene left: not training time.
    seconds_ += std::min(0.25, std::chrono::duration<double>(now - last_tick_).count());
  }
  was_running_ = running;
  last_tick_ = now;
  rate_.emplace_back(seconds_, steps());
  while (rate_.size() > 2 && rate_.front().first < seconds_ - 1.0) rate_.pop_front();
}

double Session::steps_per_second() const {
  if (rate_.size() < 2) return 0.0;
  const double dt = rate_.back().first - rate_.front().first;
  return dt > 0.05 ? (rate_.back().second - rate_.front().second) / dt : 0.0;
}

Stop Session::tick(double budget_ms, bool run, int max_steps) {
  if (!has_trainer()) return Stop::None;
  bool running = run && steps() < max_steps;
  track_time(running);
  Stop result = run && !running ? Stop::MaxSteps : Stop::None;
  if (result == Stop::MaxSteps) evaluate_now();
  const Clock::time_point t0 = Clock::now();
  try {
    do {
      if (job_.active) {
        const Stop stop = eval_chunk();
        if (stop != Stop::None) return stop;
      } else if (running) {
        if (trainer_) {
          trainer_->step();
        } else {
          induction_->step();
        }
        curves_.loss.push_back(last_loss());
        if (steps() % (induction_ ? kInductionEvalEvery : kEvalEvery) == 0) start_eval(true);
        if (steps() >= max_steps) {
          evaluate_now();
          running = false;
          result = Stop::MaxSteps;
        }
      } else {
        break;
      }
    } while (ms_since(t0) < budget_ms);
  } catch (const attn::InputError& e) {
    error_ = e.what();
    job_.active = false;
    return Stop::Error;
  }
  return result;
}

nlohmann::json Session::info() const {
  nlohmann::json j;  // key by key: nlohmann's initializer lists cost the page more code
  j["positions"] = attn::scheme_name(key_.positions);
  if (induction_) {
    j["trained_by"] = "attention_demo Induction scene";
    j["task"] = "induction";
    j["seed"] = key_.seed;
    j["steps"] = metrics_step_;
    j["seconds"] = seconds_;
    if (!curves_.first_half.empty()) {
      j["loss_first_half"] = curves_.first_half.back();
      j["loss_second_half"] = curves_.second_half.back();
    }
    if (lengths_step_ == metrics_step_) j["eval_length"] = lengths_;
    return j;
  }
  j["trained_by"] = "attention_demo Train scene";
  j["d_model"] = key_.d_model;
  j["heads"] = key_.heads;
  j["layers"] = key_.layers;
  j["seed"] = key_.seed;
  j["steps"] = metrics_step_;
  j["seconds"] = seconds_;
  j["learning_rate"] = trainer_ ? trainer_->train_config().learning_rate : 0.0f;
  j["batch"] = trainer_ ? trainer_->train_config().batch : 0;
  nlohmann::json& m = j["metrics"];
  m["train_accuracy"] = metrics_.train_accuracy;
  m["train_accuracy_step"] = train_step_;
  m["test_accuracy"] = metrics_.test_accuracy;
  m["flipped_pair_accuracy"] = metrics_.flipped_pair_accuracy;
  m["max_pair_difference"] = metrics_.max_pair_difference;
  m["test_loss"] = metrics_.test_loss;
  return j;
}

void Session::publish() {
  snapshot_model_ = trainer_ ? trainer_->model() : induction_->model();
  snapshot_info_ = info();
  ++snapshot_serial_;
}

Progress Session::progress() const {
  Progress p;
  p.has_trainer = has_trainer();
  p.steps = steps();
  p.last_loss = last_loss();
  p.metrics = metrics_;
  p.metrics_step = metrics_step_;
  p.train_metrics_step = train_step_;
  p.evaluating = job_.active;
  p.target_step = target_step_;
  p.target_seconds = target_seconds_;
  p.seconds = seconds_;
  p.steps_per_second = steps_per_second();
  p.error = error_;
  return p;
}

}  // namespace app::train_ui
