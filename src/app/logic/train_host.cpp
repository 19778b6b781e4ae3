// The Train scene's session as Commands drive it, reporting what changed as Updates.
#include "app/logic/train_host.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "core/error.hpp"

namespace app::train_ui {
namespace {

// curve[from:] into tail (none past its end: a curve of the other task stays empty); from moves to the end.
void take_tail(const std::vector<float>& curve, long long& from, std::vector<float>& tail) {
  const auto at = std::min(static_cast<std::size_t>(from), curve.size());
  tail.assign(curve.begin() + static_cast<std::ptrdiff_t>(at), curve.end());
  from = static_cast<long long>(curve.size());
}

}  // namespace

void TrainHost::receive(const Command& c) {
  if (c.kind == Command::Kind::Run || c.kind == Command::Kind::Ack) {
    if (c.generation != generation_) return;  // for a session since replaced
    if (c.kind == Command::Kind::Ack) {
      acked_ = c.acked;
      return;
    }
    run_ = c.run;
    max_steps_ = c.max_steps;
    changed_ = true;
    return;
  }
  *this = TrainHost{};
  generation_ = c.generation;
  started_ = changed_ = true;
  if (c.kind == Command::Kind::Detach) {
    session_.detach(c.key);
    return;
  }
  try {
    session_.reset(c.key);
  } catch (const attn::InputError& e) {  // the client checked the key first: only a failure of its own
    session_.detach(c.key);
    stop_ = Stop::Error;
    error_ = e.what();
  }
}

bool TrainHost::work(double budget_ms) {
  if (!session_.has_trainer()) return false;
  const int steps = session_.steps();
  const bool evaluating = session_.evaluating();
  const long long serial = session_.snapshot_serial();
  const Stop stop = session_.tick(budget_ms, run_, max_steps_);
  if (stop != Stop::None) {
    run_ = false;
    stop_ = stop;
  }
  if (!run_) session_.evaluate_now();
  // (a paused session with nothing to evaluate sends nothing, so an idle page stays idle)
  changed_ = changed_ || stop != Stop::None || steps != session_.steps() ||
             evaluating != session_.evaluating() || serial != session_.snapshot_serial();
  return run_ || session_.evaluating();
}

std::optional<Update> TrainHost::take_update(bool idle) {
  const Clock::time_point now = Clock::now();
  const bool now_due = started_ || stop_ != Stop::None || idle;
  if (!changed_ || sent_ - acked_ >= kUnacked || (!now_due && ms_between(last_update_, now) < kUpdateEveryMs))
    return std::nullopt;
  Update u;
  u.generation = generation_;
  u.task = session_.key().task;
  u.stop = stop_;
  u.progress = session_.progress();
  if (!error_.empty()) u.progress.error = error_;
  const Curves& c = session_.curves();
  u.loss_from = sent_loss_, u.eval_from = sent_eval_, u.train_from = sent_train_;
  take_tail(c.loss, sent_loss_, u.tails.loss);
  long long from = u.eval_from;
  take_tail(c.eval_step, from, u.tails.eval_step);
  for (const auto& [curve, tail] : {std::pair{&c.test_accuracy, &u.tails.test_accuracy},
                                    {&c.flipped, &u.tails.flipped},
                                    {&c.first_half, &u.tails.first_half},
                                    {&c.second_half, &u.tails.second_half}}) {
    from = u.eval_from;
    take_tail(*curve, from, *tail);
  }
  // every evaluation's head scores, a row of the same width each
  from = c.eval_step.empty() ? 0 : u.eval_from * static_cast<long long>(c.scores.size() / c.eval_step.size());
  take_tail(c.scores, from, u.tails.scores);
  sent_eval_ = static_cast<long long>(c.eval_step.size());
  from = u.train_from;
  take_tail(c.train_step, from, u.tails.train_step);
  take_tail(c.train_accuracy, sent_train_, u.tails.train_accuracy);
  if (session_.snapshot_serial() != sent_serial_ &&
      (now_due || ms_between(last_model_, now) >= kModelEveryMs)) {
    u.has_model = true;
    u.weights = flat_weights(session_.snapshot_model());
    u.info = session_.snapshot_info();
    sent_serial_ = session_.snapshot_serial();
    last_model_ = now;
  }
  last_update_ = now;
  ++sent_;
  started_ = changed_ = false;
  stop_ = Stop::None;
  return u;
}

}  // namespace app::train_ui
