// The Train scene's longer-emails measure (app/logic/longer_emails): measured on the page a slice at a
// time or in the compute worker behind a link, it gives for every length what evaluate_set gives on the
// lengthened held-out set (or its error, in its words); the job carries the model bit for bit; an answer
// for an older model is dropped; a worker that stops leaves the measure to the page.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/longer_emails.hpp"
#include "app/logic/train_session.hpp"
#include "app/logic/trained_model.hpp"
#include "core/error.hpp"
#include "fresh_logic_state.hpp"

namespace {

using app::Bytes;
namespace tr = attn::train;

// A part-trained router on the app's data (some emails right, some wrong), published as the current model.
const app::TrainedModel& publish(attn::Scheme positions, int steps) {
  tr::ModelConfig c;
  c.d_model = 16, c.heads = 2, c.layers = 1, c.positions = positions, c.seed = 5;
  tr::Trainer t(c, {}, app::train_ui::refund_data());
  t.train(steps);
  app::TrainedModel m;
  m.model = t.model();
  m.vocab = t.vocab();
  m.source = "test";
  app::publish_trained_model(std::move(m));
  return *app::trained_model();
}

// What each length should give: evaluate_set on the lengthened set, or the message it throws.
app::LongerResults expected(const app::TrainedModel& m) {
  app::LongerResults want;
  for (size_t i = 0; i < app::kLongerExtra.size(); ++i) {
    try {
      want[i].metrics = tr::evaluate_set(
          m.model, m.vocab, tr::lengthen(app::train_ui::refund_data().test, app::kLongerExtra[i]));
    } catch (const attn::InputError& e) {
      want[i].error = e.what();
    }
  }
  return want;
}

void expect_results(const app::LongerResults& got, const app::LongerResults& want) {
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("+" + std::to_string(app::kLongerExtra[i]) + " tokens");
    EXPECT_EQ(got[i].error, want[i].error);
    EXPECT_EQ(got[i].metrics.examples, want[i].metrics.examples);
    EXPECT_EQ(got[i].metrics.accuracy, want[i].metrics.accuracy);
    EXPECT_EQ(got[i].metrics.pair_accuracy, want[i].metrics.pair_accuracy);
    EXPECT_EQ(got[i].metrics.max_pair_difference, want[i].metrics.max_pair_difference);
    EXPECT_EQ(got[i].metrics.loss, want[i].metrics.loss);
  }
}

// The worker's side behind a link: what the page posts is decoded into a LongerHost, pumped on demand.
class LoopbackLonger : public app::ComputeLink {
 public:
  void post(const Bytes& message) override {
    ++posted;
    host.receive(app::decode_longer_job(message));
  }
  void pump() {
    while (host.work(1.0)) {
    }
    if (auto a = host.take_answer()) app::deliver_longer_answer(app::decode_longer_answer(app::encode(*a)));
  }
  // One slice of the host, then its answer if one is due.
  void pump_once(double budget_ms) {
    host.work(budget_ms);
    if (auto a = host.take_answer()) app::deliver_longer_answer(app::decode_longer_answer(app::encode(*a)));
  }
  app::LongerHost host;
  int posted = 0;
};

TEST(LongerLink, MeasuredHereASliceAtATimeAsEvaluateSetMeasures) {
  fx::FreshLogicState fresh;
  const app::TrainedModel& m = publish(attn::Scheme::Sinusoidal, 30);
  const app::LongerProgress first = app::measure_longer(m, 0.0);
  EXPECT_TRUE(first.here) << "a new model's first frame measures nothing, and asks for the next";
  EXPECT_EQ(first.state->fraction, 0.0f);
  int calls = 0;
  float last_fraction = 0.0f;
  app::LongerProgress p;
  while (!(p = app::measure_longer(m, 0.0)).state->done()) {
    ASSERT_TRUE(p.here) << "no worker: measured here";
    EXPECT_GT(p.state->fraction, last_fraction) << "each call measures one more email";
    last_fraction = p.state->fraction;
    ASSERT_LT(++calls, 100000);
  }
  EXPECT_FALSE(p.here);
  EXPECT_EQ(p.state->fraction, 1.0f);
  // a budget of 0 measures one email per call: one call per email of the three sets, the last returns
  EXPECT_EQ(calls + 1, 3 * static_cast<int>(app::train_ui::refund_data().test.size()));
  expect_results(p.state->results, expected(m));
  EXPECT_GT(p.state->results[0].metrics.accuracy, 0.0f);
  EXPECT_LT(p.state->results[0].metrics.pair_accuracy, 1.0f);
  EXPECT_TRUE(app::measure_longer(m, 0.0).state->done()) << "measured once per model version";
}

TEST(LongerLink, TheWorkerMeasuresACopyOfTheModelWithTheSameNumbersAndErrors) {
  fx::FreshLogicState fresh;
  LoopbackLonger worker;
  app::use_compute_link(&worker);
  const app::TrainedModel& m =
      publish(attn::Scheme::Learned, 30);  // a table of 32 slots: +128 cannot be read
  const app::LongerResults want = expected(m);
  EXPECT_FALSE(want[2].error.empty());
  EXPECT_EQ(want[0].error, "");
  EXPECT_TRUE(app::measure_longer(m, 5.0).here) << "the new model's frame: the job goes in the next";
  EXPECT_EQ(worker.posted, 0);
  for (int frame = 0; frame < 3; ++frame) {
    const app::LongerProgress p = app::measure_longer(m, 5.0);
    EXPECT_FALSE(p.state->done());
    EXPECT_FALSE(p.here) << "nothing is measured on the page";
  }
  EXPECT_EQ(worker.posted, 1) << "the model goes to the worker once";
  // its progress arrives now and then: lengths measured so far, and the fraction of all emails
  std::uint32_t lengths = 0;
  float fraction = 0.0f;
  int slices = 0;
  while (!app::measure_longer(m, 5.0).state->done()) {
    worker.pump_once(0.5);
    const app::LongerState& st = *app::measure_longer(m, 5.0).state;
    EXPECT_GE(st.lengths, lengths);
    EXPECT_GE(st.fraction, fraction);
    for (std::uint32_t i = 0; i < st.lengths; ++i) EXPECT_EQ(st.results[i].error, want[i].error);
    lengths = st.lengths, fraction = st.fraction;
    ASSERT_LT(++slices, 1000000);
  }
  expect_results(app::measure_longer(m, 5.0).state->results, want);
}

TEST(LongerLink, AnAnswerForAnOlderModelIsDroppedAndTheNewOneAsked) {
  fx::FreshLogicState fresh;
  LoopbackLonger worker;
  app::use_compute_link(&worker);
  const long long old_version = publish(attn::Scheme::Sinusoidal, 10).version;
  app::measure_longer(*app::trained_model(), 5.0);
  app::measure_longer(*app::trained_model(), 5.0);  // asked
  const app::TrainedModel& m = publish(attn::Scheme::Sinusoidal, 40);
  app::measure_longer(m, 5.0);
  ASSERT_NE(m.version, old_version);
  app::LongerAnswer stale;
  stale.version = old_version;
  stale.state.lengths = 3;
  app::deliver_longer_answer(stale);
  EXPECT_FALSE(app::measure_longer(m, 5.0).state->done()) << "the old model's answer is not the new one's";
  EXPECT_EQ(worker.posted, 2);
  worker.pump();
  const app::LongerProgress p = app::measure_longer(m, 5.0);
  ASSERT_TRUE(p.state->done());
  expect_results(p.state->results, expected(m));
}

TEST(LongerLink, AWorkerThatStopsLeavesTheMeasureToThePage) {
  fx::FreshLogicState fresh;
  LoopbackLonger worker;
  app::use_compute_link(nullptr, true);  // starting
  const app::TrainedModel& m = publish(attn::Scheme::Rope, 20);
  app::measure_longer(m, 5.0);
  EXPECT_FALSE(app::measure_longer(m, 5.0).here) << "waits for the worker";
  EXPECT_TRUE(app::compute_worker_wanted());
  app::use_compute_link(&worker);
  app::measure_longer(m, 5.0);
  EXPECT_EQ(worker.posted, 1);
  app::use_compute_link(nullptr, false);  // it stopped before answering
  app::LongerProgress p;
  for (int i = 0; i < 100000 && !(p = app::measure_longer(m, 50.0)).state->done(); ++i) EXPECT_TRUE(p.here);
  ASSERT_TRUE(p.state->done());
  expect_results(p.state->results, expected(m));
}

TEST(LongerLink, TheJobCarriesTheModelBitForBitAndMalformedBytesAreRefused) {
  fx::FreshLogicState fresh;
  const app::TrainedModel& m = publish(attn::Scheme::Learned, 5);
  const Bytes bytes = app::encode_longer_job(m.version, m.model, m.vocab);
  const app::LongerJob job = app::decode_longer_job(bytes);
  EXPECT_EQ(job.version, m.version);
  EXPECT_EQ(job.vocab.words, m.vocab.words);
  EXPECT_EQ(job.model.config.d_model, m.model.config.d_model);
  EXPECT_EQ(job.model.config.positions, m.model.config.positions);
  const auto a = job.model.params.named_tensors();
  const auto b = m.model.params.named_tensors();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].second->size(), b[i].second->size()) << a[i].first;
    EXPECT_EQ(
        std::memcmp(a[i].second->data(), b[i].second->data(), 4 * static_cast<size_t>(a[i].second->size())),
        0)
        << a[i].first;
  }
  EXPECT_THROW(app::decode_longer_job(Bytes(bytes.begin(), bytes.end() - 1)), attn::InputError);
  Bytes longer = bytes;
  longer.push_back(0);
  EXPECT_THROW(app::decode_longer_job(longer), attn::InputError);
  EXPECT_THROW(app::decode_longer_answer(bytes), attn::InputError) << "a job is not an answer";
  app::LongerAnswer answer;
  answer.version = 9;
  answer.state.lengths = 2;
  answer.state.fraction = 0.5f;
  answer.state.results[1].error = "position 40 is past the end";
  answer.state.results[2].metrics.accuracy = 0.75f;
  const app::LongerAnswer back = app::decode_longer_answer(app::encode(answer));
  EXPECT_EQ(back.version, 9);
  EXPECT_EQ(back.state.lengths, 2u);
  EXPECT_EQ(back.state.fraction, 0.5f);
  EXPECT_EQ(back.state.results[1].error, answer.state.results[1].error);
  EXPECT_EQ(back.state.results[2].metrics.accuracy, 0.75f);
  answer.state.lengths = 4;  // more lengths than there are
  EXPECT_THROW(app::decode_longer_answer(app::encode(answer)), attn::InputError);
}

}  // namespace
