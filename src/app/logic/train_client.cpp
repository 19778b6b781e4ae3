// The Train scene's mirror of its session, fed by Updates from the compute worker or from an in-process
// TrainHost.
#include "app/logic/train_client.hpp"

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

void TrainClient::send(const Command& c) {
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
  ++applied_;
  progress_ = u.progress;
  append_tail(curves_.loss, u.tails.loss, u.loss_from);
  append_tail(curves_.eval_step, u.tails.eval_step, u.eval_from);
  append_tail(curves_.test_accuracy, u.tails.test_accuracy, u.eval_from);
  append_tail(curves_.flipped, u.tails.flipped, u.eval_from);
  append_tail(curves_.train_step, u.tails.train_step, u.train_from);
  append_tail(curves_.train_accuracy, u.tails.train_accuracy, u.train_from);
  if (u.stop != Stop::None) {
    stop_ = u.stop;
    sent_run_ = false;  // the session paused itself
  }
  if (!u.has_model) return;
  if (snapshot_.vocab.size() == 0) {
    snapshot_.model = attn::train::Model(session_model_config(key_));
    snapshot_.vocab = attn::train::Vocab::build(refund_data());
    snapshot_.labels = refund_data().label_names();
    snapshot_.source = "trained in this session";
  }
  set_weights(snapshot_.model, u.weights);
  snapshot_.info = u.info;
  // the snapshot is of the last evaluation's step: published once it has trained
  snapshot_.version = u.progress.metrics_step > 0 ? publish_trained_model(snapshot_) : next_model_version();
}

Stop TrainClient::tick(double budget_ms, bool run, int max_steps) {
  if (!keyed_) return Stop::None;
  const bool linked = compute_link() != nullptr;
  if (has_trainer_ && ((local_ && linked && progress_.steps == 0) || (!local_ && !linked))) {
    reset(key_);  // to the worker that has started since, or back in-process when it stopped
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
      for (const auto& message : take_from_worker()) apply(decode_update(message));
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
