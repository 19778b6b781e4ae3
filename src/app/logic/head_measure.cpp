// The head roles and the held-out measures with heads switched off, an email at a time.
#include "app/logic/head_measure.hpp"

#include <utility>

#include "app/logic/clock.hpp"
#include "app/logic/train_session.hpp"
#include "core/error.hpp"

namespace app {

std::string heads_off_text(const attn::HeadSwitch& off) {
  std::string out;
  for (const std::string& name : attn::train::heads_off_names(off)) out += (out.empty() ? "" : ",") + name;
  return out;
}

std::optional<attn::HeadSwitch> HeadMeasure::applied() const {
  if (mean_ && off_.mean.empty()) return std::nullopt;
  return off_;
}

void HeadMeasure::step_role(const attn::train::Model& model, const attn::train::Vocab& vocab) {
  const attn::train::Example& e = train_ui::refund_data().test[next_role_++];
  const std::vector<std::string> tokens = attn::train::Vocab::tokens(e.text);
  std::vector<int> ids;  // (T)
  for (const std::string& t : tokens) ids.push_back(vocab.id(t));
  model.forward(ids, forward_);
  tally_->add(forward_, tokens, e);
}

bool HeadMeasure::work(const attn::train::Model& model, const attn::train::Vocab& vocab, long long version,
                       const attn::HeadSwitch& off, bool mean, double budget_ms) {
  const attn::train::Dataset& data = train_ui::refund_data();
  if (version != version_) {  // a new model: everything again
    *this = HeadMeasure{};
    version_ = version;
    tally_.emplace(model.config.layers, model.config.heads, data.items);
    all_on_.emplace(data.test);
  }
  const std::string names = heads_off_text(off);
  const bool any = !names.empty();
  if (names + (mean ? "/mean" : "/zero") != key_) {  // other heads off: only the ablated measure again
    key_ = names + (mean ? "/mean" : "/zero");
    off_ = off, mean_ = mean;
    off_.mean = mean ? means_ : decltype(means_){};
    ablated_.reset();
    m_.ablated = {}, m_.ablated_done = !any;
  }
  const size_t emails = data.test.size();
  const Clock::time_point t0 = Clock::now();
  bool stepped = false;  // at least one email per call, then only while the budget lasts
  try {
    while (m_.error.empty() && !(m_.roles_done && m_.all_on_done && m_.ablated_done)) {
      if (stepped && ms_since(t0) >= budget_ms) break;
      stepped = true;
      if (!m_.roles_done) {
        step_role(model, vocab);
        if (next_role_ == emails) m_.roles = tally_->roles(), m_.roles_done = true;
      } else if (!m_.all_on_done) {
        all_on_->step(model, vocab);
        if (all_on_->done()) m_.all_on = all_on_->metrics(), m_.all_on_done = true;
      } else {
        if (mean && off_.mean.empty()) {  // the training emails' ids in this model's vocabulary
          if (means_.empty())
            means_ = attn::train::mean_head_outputs(model, attn::train::encode_set(vocab, data.train));
          off_.mean = means_;
        }
        if (!ablated_) ablated_.emplace(data.test);
        ablated_->step(model, vocab, &off_);
        if (ablated_->done()) m_.ablated = ablated_->metrics(), m_.ablated_done = true;
      }
    }
  } catch (const attn::InputError& e) {
    m_.error = e.what();
  }
  const size_t done =
      next_role_ + (all_on_ ? all_on_->measured() : 0) + (ablated_ ? ablated_->measured() : 0);
  m_.fraction = static_cast<float>(done) / static_cast<float>(emails * (any ? 3 : 2));
  return !m_.error.empty() || (m_.roles_done && m_.all_on_done && m_.ablated_done);
}

}  // namespace app
