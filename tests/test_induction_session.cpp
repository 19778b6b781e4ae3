// The Induction scene's training session (app/logic/train_*) trains and measures as InductionTrainer does.
// A TrainClient for an induction key, in-process and behind a compute link, gets InductionTrainer's training
// and evaluations step for step and the pause's longer lengths (or the learned table's error) without
// publishing its model.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/induction_view.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/train_client.hpp"
#include "app/logic/train_messages.hpp"
#include "app/logic/trained_model.hpp"
#include "core/train/induction.hpp"
#include "induction_session_fixtures.hpp"
#include "train_link_worker.hpp"

namespace {

namespace tr = attn::train;
using namespace app::train_ui;
using namespace induction_fx;

constexpr int kSteps = 200;      // the in-process run: evaluations at 0, 100 and 200
constexpr int kLinkSteps = 100;  // the run behind a link (shorter, for time): evaluations at 0 and 100

// InductionTrainer trained directly on the task's config (sinusoidal positions, seed 1) for `steps`: the loss
// of every step, and evaluate() and the trainer itself at every kInductionEvalEvery steps from 0.
struct Reference {
  int steps = 0;
  std::vector<float> loss;
  std::map<int, tr::InductionMetrics> at;
  std::map<int, tr::InductionTrainer> trainer;
};

// The reference of at least `steps`, trained once per process for the longest asked for so far (CTest runs
// each test in a process of its own: a test trains only as far as it compares).
const Reference& reference(int steps) {
  static Reference ref;
  if (ref.steps >= steps) return ref;
  ref = Reference{};
  ref.steps = steps;
  const tr::InductionConfig task;
  tr::InductionTrainer t(task, tr::induction_model_config(task, attn::Scheme::Sinusoidal, 1));
  ref.at.emplace(0, t.evaluate());
  for (int s = 1; s <= steps; ++s) {
    t.step();
    ref.loss.push_back(t.last_loss());
    if (s % kInductionEvalEvery == 0) {
      ref.at.emplace(s, t.evaluate());
      ref.trainer.emplace(s, t);
    }
  }
  return ref;
}

// Resets `client` to `key`, runs it to max_steps, then paused (as the scene sets it after a stop) until the
// pause's evaluation has arrived; `pump` runs the worker's side first. Returns the stop the run ended with.
template <class Pump>
Stop train_then_pause(TrainClient& client, const SessionKey& key, int max_steps, Pump&& pump) {
  client.reset(key);
  Stop stop = Stop::None;
  for (int i = 0; i < 200000 && stop == Stop::None; ++i) {
    pump();
    stop = client.tick(5.0, true, max_steps);
  }
  for (int i = 0; i < 200000 && !settled(client, max_steps); ++i) {
    pump();
    client.tick(5.0, false, max_steps);
  }
  return stop;
}

// The client's curves, snapshot and longer lengths are the reference's at each evaluation up to `steps`.
void expect_reference(const TrainClient& c, int steps) {
  const Reference& ref = reference(steps);
  EXPECT_EQ(c.error(), "");
  EXPECT_EQ(c.steps(), steps);
  EXPECT_EQ(c.metrics_step(), steps);
  const Curves& cv = c.curves();
  EXPECT_TRUE(same_bits(cv.loss, std::vector<float>(ref.loss.begin(), ref.loss.begin() + steps)))
      << "largest loss difference "
      << max_diff(cv.loss, std::vector<float>(ref.loss.begin(), ref.loss.begin() + steps));
  std::vector<float> want_steps;
  for (int s = 0; s <= steps; s += kInductionEvalEvery) want_steps.push_back(static_cast<float>(s));
  ASSERT_EQ(cv.eval_step, want_steps);
  ASSERT_EQ(cv.first_half.size(), want_steps.size());
  ASSERT_EQ(cv.second_half.size(), want_steps.size());
  EXPECT_TRUE(cv.test_accuracy.empty() && cv.flipped.empty() && cv.train_step.empty() &&
              cv.train_accuracy.empty())
      << "the router's curves stay empty";
  const size_t width = 2 * 2 * 4;  // 2 layers x 4 heads, two scores each
  ASSERT_EQ(cv.scores.size(), want_steps.size() * width);
  for (size_t e = 0; e < want_steps.size(); ++e) {
    const tr::InductionMetrics& m = ref.at.at(static_cast<int>(want_steps[e]));
    EXPECT_LE(std::fabs(cv.first_half[e] - m.loss_first_half), 1e-6)
        << "step " << want_steps[e] << ": " << cv.first_half[e] << " vs " << m.loss_first_half;
    EXPECT_LE(std::fabs(cv.second_half[e] - m.loss_second_half), 1e-6)
        << "step " << want_steps[e] << ": " << cv.second_half[e] << " vs " << m.loss_second_half;
    const std::vector<float> got(cv.scores.begin() + static_cast<long>(e * width),
                                 cv.scores.begin() + static_cast<long>((e + 1) * width));
    const double d = max_diff(got, score_row(m));
    EXPECT_LE(d, 1e-6) << "step " << want_steps[e] << ": largest score difference " << d;
    // the view reads the same evaluation back as the core's measures
    const tr::InductionMetrics back = app::induction::evaluation(cv, e, 2, 4);
    EXPECT_LE(max_diff(score_row(back), score_row(m)), 1e-6) << "step " << want_steps[e];
  }
  // the snapshot: the model at `steps`, its words the token ids
  const app::TrainedModel& snap = c.snapshot();
  ASSERT_EQ(snap.vocab.size(), 16);
  for (int id = 0; id < 16; ++id) EXPECT_EQ(snap.vocab.words[static_cast<size_t>(id)], std::to_string(id));
  const double d = max_diff(flat_weights(snap.model), flat_weights(ref.trainer.at(steps).model()));
  EXPECT_EQ(d, 0.0) << "largest weight difference " << d;
  EXPECT_EQ(app::trained_model(), nullptr) << "the induction model is its scene's own, not published";
  // the pause's longer lengths
  const nlohmann::json& info = snap.info;
  EXPECT_EQ(info.value("task", ""), "induction");
  EXPECT_EQ(info.value("steps", -1), steps);
  ASSERT_TRUE(info.contains("eval_length"));
  const nlohmann::json& lengths = info["eval_length"];
  ASSERT_TRUE(lengths.is_array());
  ASSERT_EQ(lengths.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const int length = kInductionLengths[k];
    const nlohmann::json& at = lengths[k];
    EXPECT_EQ(at.value("length", 0), length);
    ASSERT_TRUE(at.contains("loss_second_half") && at.contains("loss_first_half")) << at.dump();
    EXPECT_FALSE(at.contains("error")) << at.dump();
    const tr::InductionMetrics m = ref.trainer.at(steps).evaluate(length);
    for (const auto& [name, want] : {std::pair{"loss_first_half", m.loss_first_half},
                                     std::pair{"loss_second_half", m.loss_second_half}}) {
      const double got = at[name].get<double>();
      EXPECT_LE(std::fabs(got - want), 1e-6 * std::fabs(want))
          << "length " << length << " " << name << ": " << got << " vs " << want << ", difference "
          << std::fabs(got - want);
    }
  }
}

TEST(InductionSession, InProcessItTrainsAsTheInductionTrainerDoes) {
  app::LogicState state;
  app::use_logic_state(&state);
  TrainClient client;
  const Stop stop = train_then_pause(client, induction_of(attn::Scheme::Sinusoidal), kSteps, [] {});
  EXPECT_EQ(stop, Stop::MaxSteps);
  EXPECT_FALSE(client.in_worker());
  EXPECT_EQ(client.key().task, Task::Induction);
  expect_reference(client, kSteps);
  app::use_logic_state(nullptr);
}

using train_link::Linked;

TEST(InductionSession, BehindALinkItTrainsAsTheInductionTrainerDoes) {
  Linked linked;
  TrainClient client;
  const Stop stop = train_then_pause(client, induction_of(attn::Scheme::Sinusoidal), kLinkSteps,
                                     [&] { linked.worker.pump(); });
  EXPECT_EQ(stop, Stop::MaxSteps);
  EXPECT_TRUE(client.in_worker());
  expect_reference(client, kLinkSteps);
  EXPECT_FALSE(linked.worker.router.take_update(true).has_value()) << "the router's host was never started";
}

TEST(InductionSession, ALearnedTableSaysItCannotReadTheLongerLengths) {
  app::LogicState state;
  app::use_logic_state(&state);
  TrainClient client;
  const Stop stop = train_then_pause(client, induction_of(attn::Scheme::Learned), 2, [] {});
  EXPECT_EQ(stop, Stop::MaxSteps);
  EXPECT_EQ(client.steps(), 2);
  EXPECT_EQ(client.curves().eval_step, (std::vector<float>{0, 2})) << "the pause evaluated step 2";
  const nlohmann::json& info = client.snapshot().info;
  ASSERT_TRUE(info.contains("eval_length")) << info.dump();
  ASSERT_EQ(info["eval_length"].size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const nlohmann::json& at = info["eval_length"][k];
    EXPECT_EQ(at.value("length", 0), kInductionLengths[k]);
    EXPECT_FALSE(at.contains("loss_second_half")) << at.dump();
    EXPECT_NE(at.value("error", "").find("learned table"), std::string::npos) << at.dump();
  }
  // the comparison row says so too
  const std::optional<app::induction::Row> row =
      app::induction::row_of(client.key(), client.curves(), info, 2, 4);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->steps, 2);
  ASSERT_EQ(row->longer.size(), 2u);
  EXPECT_FALSE(row->longer[0].error.empty());
  EXPECT_NE(app::induction::row_summary(*row).find("cannot run at all"), std::string::npos);
  const nlohmann::json j = app::induction::row_json(*row);
  EXPECT_EQ(j["positions"], "learned");
  EXPECT_TRUE(j["eval_length"][0].contains("error"));
  EXPECT_FALSE(j["eval_length"][0].contains("loss_second_half"));
  EXPECT_EQ(app::trained_model(), nullptr);
  app::use_logic_state(nullptr);
}

}  // namespace
