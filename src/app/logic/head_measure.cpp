// The heads measure of the Train scene, an email at a time.
#include "app/logic/head_measure.hpp"

#include <algorithm>
#include <chrono>

#include "app/logic/train_session.hpp"
#include "core/error.hpp"

namespace app {

void HeadsMeasure::start(const TrainedModel& m, const std::string& off) {
  version_ = m.version;
  off_text_ = off;
  state_ = HeadsState{};
  tally_.reset();
  clean_.reset();
  ablated_.reset();
  next_ = 0;
  const attn::train::ModelConfig& c = m.model.config;
  try {
    if (m.labels != train_ui::refund_data().items) {
      throw attn::InputError(
          "this model's labels are not the refund items, so its heads cannot be measured on the refund emails");
    }
    switch_ = attn::train::parse_heads_off(off, c.layers, c.heads);
    state_.off = attn::train::heads_off_names(switch_);
    tally_.emplace(c.layers, c.heads, m.labels);
    const auto& emails = train_ui::refund_data().test;
    clean_.emplace(emails);
    if (!state_.off.empty()) ablated_.emplace(emails);
  } catch (const attn::InputError& e) {
    state_.error = e.what();
    state_.done = true;
  }
}

const HeadsState& HeadsMeasure::work(const TrainedModel& m, const std::string& off, double budget_ms) {
  if (m.version != version_ || off != off_text_) start(m, off);
  if (state_.done) return state_;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  const auto& emails = train_ui::refund_data().test;
  try {
    for (bool stepped = false; next_ < emails.size(); ++next_) {
      if (stepped && std::chrono::duration<double, std::milli>(Clock::now() - t0).count() >= budget_ms) break;
      const attn::train::Example& e = emails[next_];
      const std::vector<std::string> tokens = attn::train::Vocab::tokens(e.text);
      std::vector<int> ids;
      for (const auto& t : tokens) ids.push_back(m.vocab.id(t));
      m.model.forward(ids, forward_);
      tally_->add(forward_, tokens, e);
      clean_->step(m.model, m.vocab);
      if (ablated_) ablated_->step(m.model, m.vocab, &switch_);
      stepped = true;
    }
  } catch (const attn::InputError& e) {
    state_.error = e.what();
    state_.done = true;
    return state_;
  }
  state_.fraction = static_cast<float>(next_) / static_cast<float>(std::max<size_t>(1, emails.size()));
  if (next_ >= emails.size()) {
    state_.roles = tally_->roles();
    state_.clean = clean_->metrics();
    state_.ablated = ablated_ ? ablated_->metrics() : state_.clean;
    state_.done = true;
  }
  return state_;
}

}  // namespace app
