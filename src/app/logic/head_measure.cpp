// The head roles and the held-out measures with heads switched off, an email at a time.
#include "app/logic/head_measure.hpp"

#include <optional>

#include "app/logic/clock.hpp"
#include "app/logic/text.hpp"
#include "app/logic/train_session.hpp"
#include "core/error.hpp"

namespace app {

std::string heads_off_text(const attn::HeadSwitch& off) {
  std::string out;
  for (const std::string& name : attn::train::heads_off_names(off)) out += (out.empty() ? "" : ",") + name;
  return out;
}

attn::HeadSwitch heads_off_setting(const std::string& off, int layers, int heads, std::string& error) {
  try {
    return attn::train::parse_heads_off(off, layers, heads);
  } catch (const attn::InputError& e) {
    error = "off=" + off + ": " + e.what();
    return attn::train::parse_heads_off("", layers, heads);
  }
}

HeadMeasure::HeadMeasure(int layers, int heads) : tally_(layers, heads, train_ui::refund_data().items) {}

namespace {

// One more held-out email through `eval` (made here at the first) with the heads of `off` switched off (null:
// every head on); true, with the set's measures in `out`, once every email is in.
bool step_set(std::optional<attn::train::SetEvaluation>& eval, const attn::train::Model& model,
              const attn::train::Vocab& vocab, const attn::HeadSwitch* off, attn::train::SetMetrics& out) {
  if (!eval) eval.emplace(train_ui::refund_data().test);
  eval->step(model, vocab, off);
  if (!eval->done()) return false;
  out = eval->metrics();
  return true;
}

}  // namespace

const attn::HeadSwitch* HeadMeasure::applied() const {
  if (!mean_) return &zeros_;
  return means_.mean.empty() ? nullptr : &means_;
}

bool HeadMeasure::work(const attn::train::Model& model, const attn::train::Vocab& vocab,
                       const attn::HeadSwitch& off, bool mean, double budget_ms) {
  const attn::train::Dataset& data = train_ui::refund_data();
  bool any = false;
  for (const std::vector<char>& layer : off.off) {
    for (const char h : layer) any = any || h;
  }
  if (off.off != zeros_.off || mean != mean_) {  // other heads off: only the ablated measure again
    zeros_.off = means_.off = off.off;
    mean_ = mean;
    ablated_.reset();
    m_.ablated_done = !any;
  }
  const size_t emails = data.test.size();
  const Clock::time_point t0 = Clock::now();
  bool stepped = false;  // at least one email per call, then only while the budget lasts
  try {
    while (m_.error.empty() && !(m_.roles_done && m_.all_on_done && m_.ablated_done)) {
      if (stepped && ms_since(t0) >= budget_ms) break;
      stepped = true;
      if (!m_.roles_done) {  // 1. the roles: one forward pass with its attention weights per email
        const attn::train::Example& e = data.test[next_role_++];
        const std::vector<std::string> tokens = attn::train::Vocab::tokens(e.text);
        std::vector<int> ids;  // (T)
        for (const std::string& t : tokens) ids.push_back(vocab.id(t));
        model.forward(ids, forward_);
        tally_.add(forward_, tokens, e);
        if (next_role_ == emails) m_.roles = tally_.roles(), m_.roles_done = true;
      } else if (!m_.all_on_done) {  // 2. every head on
        m_.all_on_done = step_set(all_on_, model, vocab, nullptr, m_.all_on);
      } else {  // 3. the heads of `off` switched off (the training emails' ids in this model's vocabulary)
        if (mean && means_.mean.empty())
          means_.mean = attn::train::mean_head_outputs(model, attn::train::encode_set(vocab, data.train));
        m_.ablated_done = step_set(ablated_, model, vocab, applied(), m_.ablated);
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

std::string role_text(const attn::train::HeadRole& r) {
  // what a head named by each score follows, in the core's order (attn::train::RouterRoleTally)
  constexpr const char* kFollows[] = {"the item to refund", "the item kept", "the word \"not\"",
                                      "the word just before", "the first word"};
  for (size_t k = 0; k < r.scores.size() && k < 5; ++k) {
    if (r.role == r.scores[k].name) return format("%s, %.2f", kFollows[k], r.scores[k].value);
  }
  return "mixed";
}

}  // namespace app
