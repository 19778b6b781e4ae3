// The longer-emails measure a length and an email at a time, its messages and the worker's host of it.
#include "app/logic/longer_emails.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "app/logic/clock.hpp"
#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/model_messages.hpp"
#include "app/logic/train_session.hpp"
#include "app/logic/trained_model.hpp"
#include "core/error.hpp"

namespace app {

bool LongerMeasure::work(const attn::train::Model& model, const attn::train::Vocab& vocab, double budget_ms) {
  const Clock::time_point t0 = Clock::now();
  bool stepped = false;  // at least one email per call, then only while the budget lasts
  const auto spent = [&] { return stepped && ms_since(t0) >= budget_ms; };
  const auto& emails = train_ui::refund_data().test;
  const auto total = static_cast<float>(kLongerExtra.size() * emails.size());
  for (; !state_.done(); ++state_.lengths) {
    LongerResult& result = state_.results[state_.lengths];
    try {
      if (!evaluation_) evaluation_.emplace(attn::train::lengthen(emails, kLongerExtra[state_.lengths]));
      while (!evaluation_->done()) {
        if (spent()) return false;
        evaluation_->step(model, vocab);
        stepped = true;
        state_.fraction = static_cast<float>(state_.lengths * emails.size() + evaluation_->measured()) /
                          std::max(1.0f, total);
      }
      result.metrics = evaluation_->metrics();
    } catch (const attn::InputError& e) {
      result.error = e.what();
    }
    evaluation_.reset();
  }
  state_.fraction = 1.0f;
  return true;
}

LongerProgress measure_longer(const TrainedModel& m, double budget_ms) {
  LongerStore& st = logic_state().longer;
  if (st.version != m.version) {  // measured from the next frame on: a new model's frame has work enough
    st = LongerStore{};
    st.version = m.version;
    return {&st.state, true};
  }
  if (st.state.done()) return {&st.state, false};
  if (ComputeLink* link = compute_link()) {
    if (!st.asked) {  // the weights go from the model to the message: one copy
      Writer head;
      link->post_parts(longer_job_parts(head, m.version, m.model, m.vocab));
    }
    st.asked = true;
    return {&st.state, false};  // deliver_longer_answer brings it
  }
  if (compute_worker_possible()) {  // the worker starts (or is starting), then is asked
    want_compute_worker();
    return {&st.state, false};
  }
  const bool done = st.local.work(m.model, m.vocab, budget_ms);
  st.state = st.local.state();
  return {&st.state, !done};
}

void deliver_longer_answer(const LongerAnswer& answer) {
  LongerStore& st = logic_state().longer;
  if (answer.version == st.version && st.asked) st.state = answer.state;
}

std::vector<Part> longer_job_parts(Writer& head, long long version, const attn::train::Model& model,
                                   const attn::train::Vocab& vocab) {
  head.put(kLongerJobTag);
  head.put(static_cast<std::int64_t>(version));
  put_words(head, vocab.words);
  return model_parts(head, model);
}

Bytes encode_longer_job(long long version, const attn::train::Model& model, const attn::train::Vocab& vocab) {
  Writer head;
  return join(longer_job_parts(head, version, model, vocab));
}

LongerJob decode_longer_job(const Bytes& bytes) {
  Reader r(bytes, "longer-emails job");
  if (r.get<std::uint32_t>() != kLongerJobTag) r.fail();
  LongerJob job;
  job.version = r.get<std::int64_t>();
  job.vocab.words = get_words(r);
  job.model = get_model(r);
  r.end();
  return job;
}

Bytes encode(const LongerAnswer& a) {
  Writer w;
  w.put(kLongerAnswerTag);
  w.put(static_cast<std::int64_t>(a.version));
  w.put(a.state.lengths);
  w.put(a.state.fraction);
  for (const LongerResult& result : a.state.results) {
    w.text(result.error);
    w.put(result.metrics);
  }
  return std::move(w.out);
}

LongerAnswer decode_longer_answer(const Bytes& bytes) {
  Reader r(bytes, "longer-emails answer");
  if (r.get<std::uint32_t>() != kLongerAnswerTag) r.fail();
  LongerAnswer a;
  a.version = r.get<std::int64_t>();
  a.state.lengths = r.get<std::uint32_t>();
  a.state.fraction = r.get<float>();
  if (a.state.lengths > kLongerExtra.size()) r.fail();
  for (LongerResult& result : a.state.results) {
    result.error = r.text();
    result.metrics = r.get<attn::train::SetMetrics>();
  }
  r.end();
  return a;
}

void LongerHost::receive(LongerJob job) {
  job_ = std::move(job);
  measure_ = LongerMeasure{};
  last_answer_ = Clock::now();
}

bool LongerHost::work(double budget_ms) {
  return job_ && !measure_.work(job_->model, job_->vocab, budget_ms);
}

std::optional<LongerAnswer> LongerHost::take_answer() {
  if (!job_) return std::nullopt;
  const bool done = measure_.state().done();
  const Clock::time_point now = Clock::now();
  if (!done && ms_between(last_answer_, now) < kLongerProgressEveryMs) return std::nullopt;
  last_answer_ = now;
  LongerAnswer a{job_->version, measure_.state()};
  if (done) job_.reset();
  return a;
}

}  // namespace app
