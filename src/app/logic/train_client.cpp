// The Train scene's mirror of its session, fed by Updates from the compute worker or from an in-process
// TrainHost.
#include "app/logic/train_client.hpp"

#include <string>
#include <utility>

#include "app/logic/compute_link.hpp"
#include "core/error.hpp"

namespace app::train_ui {
namespace {

long long next_generation() {
  static long long n = 0;
  return ++n;
}

}  // namespace

void TrainClient::start(Command::Kind kind, const SessionKey& key) {
  key_ = key;
  keyed_ = true;
  has_trainer_ = false;
  if (kind == Command::Kind::Start) {
    session_model_config(key);  // throws InputError for a model the router cannot be
    has_trainer_ = true;
  }
  Command c;
  c.kind = kind;
  c.generation = generation_ = next_generation();
  c.key = key;
  applied_ = 0;
  progress_ = Progress{};
  curves_ = Curves{};
  snapshot_ = TrainedModel{};
  stop_ = Stop::None;
  sent_run_ = false, sent_max_steps_ = -1;
  local_.reset();
  if (!compute_link()) {
    want_compute_worker();  // for the next session; this one runs here
    local_ = std::make_unique<TrainHost>();
  }
  send(c);
}

void TrainClient::send(Command c) {
  c.key.task = key_.task;  // the worker hands every command to its task's session
  if (local_) {
    local_->receive(c);
  } else if (ComputeLink* link = compute_link()) {
    link->post(encode(c));
  }
}

void TrainClient::reset(const SessionKey& key) {
  start(Command::Kind::Start, key);
}

void TrainClient::detach(const SessionKey& key) {
  start(Command::Kind::Detach, key);
}

void TrainClient::apply(const Update& u) {
  if (u.generation != generation_) return;  // stale: for a session since replaced
  const auto at = [](const std::vector<float>& v) { return static_cast<long long>(v.size()); };
  if (u.loss_from != at(curves_.loss) || u.eval_from != at(curves_.eval_step) ||
      u.train_from != at(curves_.train_step))
    throw attn::InputError("a train update skips part of a curve");
  ++applied_;
  progress_ = u.progress;
  const auto append = [](std::vector<float>& curve, const std::vector<float>& tail) {
    curve.insert(curve.end(), tail.begin(), tail.end());
  };
  append(curves_.loss, u.tails.loss);
  append(curves_.eval_step, u.tails.eval_step);
  append(curves_.test_accuracy, u.tails.test_accuracy);
  append(curves_.flipped, u.tails.flipped);
  append(curves_.train_step, u.tails.train_step);
  append(curves_.train_accuracy, u.tails.train_accuracy);
  append(curves_.first_half, u.tails.first_half);
  append(curves_.second_half, u.tails.second_half);
  append(curves_.scores, u.tails.scores);
  if (u.stop != Stop::None) {
    stop_ = u.stop;
    // the session paused itself; a Run sent meanwhile may have started it again: the scene's pause is
    // sent in any case
    sent_run_ = false, sent_max_steps_ = -1;
  }
  if (!u.has_model) return;
  const bool router = key_.task == Task::Router;
  if (snapshot_.vocab.size() == 0) {
    // the shapes only: set_weights fills them (drawing seeded weights first took ~15 ms a million)
    const attn::train::ModelConfig c = session_model_config(key_);
    snapshot_.model = attn::train::Model(c, attn::train::Params::init(c, false));
    if (router) {
      snapshot_.vocab = refund_vocab();
      snapshot_.labels = refund_data().label_names();
    } else {  // the induction task's tokens are numbers
      for (int id = 0; id < c.vocab; ++id) snapshot_.vocab.words.push_back(std::to_string(id));
    }
    snapshot_.source = "trained in this session";
  }
  set_weights(snapshot_.model, u.weights);
  snapshot_.info = u.info;
  // the snapshot is of the last evaluation's step: the router's is published once it has trained (the
  // induction task's model is its scene's own)
  snapshot_.version =
      router && u.progress.metrics_step > 0 ? publish_trained_model(snapshot_) : next_model_version();
}

Stop TrainClient::tick(double budget_ms, bool run, int max_steps) {
  if (!keyed_) return Stop::None;
  const bool linked = compute_link() != nullptr;
  if (has_trainer_ && local_ && linked && progress_.steps == 0) reset(key_);  // to the worker started since
  if (has_trainer_ && !local_ && !linked) {  // the worker stopped: a new session here, paused
    reset(key_);
    progress_.error = "The compute worker stopped; training starts again on this page.";
    return Stop::Error;
  }
  if (has_trainer_ && (run != sent_run_ || max_steps != sent_max_steps_)) {
    Command c;
    c.kind = Command::Kind::Run;
    c.generation = generation_;
    c.run = sent_run_ = run;
    c.max_steps = sent_max_steps_ = max_steps;
    send(c);
  }
  const long long applied = applied_;
  try {
    if (local_) {
      local_->work(budget_ms);
      if (std::optional<Update> u = local_->take_update(true)) apply(*u);
    } else {
      for (const auto& message : take_from_worker(update_tag(key_.task))) {
        try {
          apply(decode_update(message));
        } catch (const attn::InputError& e) {
          progress_.error = e.what();
          stop_ = Stop::Error;
        }
      }
    }
  } catch (const attn::InputError& e) {
    progress_.error = e.what();
    stop_ = Stop::Error;
  }
  if (applied_ != applied) {
    Command c;
    c.kind = Command::Kind::Ack;
    c.generation = generation_;
    c.acked = applied_;
    send(c);
  }
  return std::exchange(stop_, Stop::None);
}

}  // namespace app::train_ui
