// The Induction scene's training session and its measures (app/logic/train_*, induction_view): a TrainClient
// for an induction key, in-process and behind a compute link, gets InductionTrainer's training and
// evaluations step for step and the pause's longer lengths (or the learned table's error) without publishing
// its model; induction updates and commands survive their bytes and malformed curves are refused;
// take_from_worker keeps other tags queued; a router and an induction session share one link undisturbed; and
// the view's formation steps, comparison row, held-out attention, induction heads and off-effect boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/induction_view.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/train_client.hpp"
#include "app/logic/train_host.hpp"
#include "app/logic/train_messages.hpp"
#include "core/error.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/induction.hpp"
#include "fixtures.hpp"
#include "train_link_worker.hpp"

namespace {

namespace tr = attn::train;
using namespace app::train_ui;

constexpr int kSteps = 200;      // the in-process run: evaluations at 0, 100 and 200
constexpr int kLinkSteps = 100;  // the run behind a link (shorter, for time): evaluations at 0 and 100

SessionKey induction_of(attn::Scheme positions, int seed = 1) {
  app::Settings s;
  s.positions = positions;
  s.seed = seed;
  return induction_key(s);
}

SessionKey router_key() {
  SessionKey k;
  k.positions = attn::Scheme::Sinusoidal;
  k.d_model = 16, k.heads = 2, k.layers = 1, k.seed = 1;  // small: its evaluations are of every email
  return k;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), 4 * a.size()) == 0);
}

// The largest |a - b| (infinite when the sizes differ).
double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(double(a[i]) - double(b[i])));
  return worst;
}

double max_diff(const attn::Mat& a, const attn::Mat& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<double>::infinity();
  return (a - b).cwiseAbs().maxCoeff();
}

// Every head's previous-token score, then every head's prefix-matching score, layer-major, as the session
// stores them.
std::vector<float> score_row(const tr::InductionMetrics& m) {
  std::vector<float> row;
  for (const auto* scores : {&m.previous_token, &m.induction}) {
    for (const auto& layer : *scores) {
      for (double s : layer) row.push_back(static_cast<float>(s));
    }
  }
  return row;
}

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

// What the session's pause measured has arrived: its snapshot is of step `steps` with the longer lengths.
bool settled(const TrainClient& c, int steps) {
  const nlohmann::json& info = c.snapshot().info;
  return !c.evaluating() && info.is_object() && info.contains("eval_length") &&
         info.value("steps", -1) == steps;
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

// ---------------------------------------------------------------------------------------------------------
// 1. the session against InductionTrainer

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

// ---------------------------------------------------------------------------------------------------------
// 2. messages

Update induction_update() {
  Update u;
  u.generation = 4, u.task = Task::Induction, u.stop = Stop::MaxSteps;
  u.progress.has_trainer = true, u.progress.steps = 100, u.progress.metrics_step = 100;
  u.tails.loss = {2.75f, 2.5f}, u.loss_from = 98;
  u.tails.eval_step = {0, 100}, u.eval_from = 0;
  u.tails.first_half = {2.77f, 2.70f};
  u.tails.second_half = {2.77f, 0.125f};
  for (int i = 0; i < 2 * 16; ++i) u.tails.scores.push_back(0.03125f * static_cast<float>(i) - 1e-7f);
  u.has_model = true, u.weights = {1.0f, -0.0f, 3e-39f};
  u.info["task"] = "induction";
  u.info["eval_length"] = nlohmann::json::array({{{"length", 64}, {"loss_second_half", 0.5}}});
  return u;
}

TEST(InductionMessages, AnInductionUpdateSurvivesItsBytesUnderItsOwnTag) {
  const Update u = induction_update();
  const std::vector<std::uint8_t> bytes = encode(u);
  EXPECT_EQ(app::message_tag(bytes), kInductionUpdateTag);
  EXPECT_EQ(update_tag(Task::Induction), kInductionUpdateTag);
  EXPECT_EQ(update_tag(Task::Router), kUpdateTag);
  const Update u2 = decode_update(bytes);
  EXPECT_EQ(u2.task, Task::Induction);
  EXPECT_EQ(u2.generation, 4);
  EXPECT_EQ(u2.stop, Stop::MaxSteps);
  EXPECT_EQ(u2.progress.steps, 100);
  EXPECT_EQ(u2.loss_from, 98);
  EXPECT_TRUE(same_bits(u2.tails.loss, u.tails.loss));
  EXPECT_TRUE(same_bits(u2.tails.eval_step, u.tails.eval_step));
  EXPECT_TRUE(same_bits(u2.tails.first_half, u.tails.first_half));
  EXPECT_TRUE(same_bits(u2.tails.second_half, u.tails.second_half));
  EXPECT_TRUE(same_bits(u2.tails.scores, u.tails.scores));
  EXPECT_TRUE(u2.tails.test_accuracy.empty() && u2.tails.flipped.empty());
  EXPECT_TRUE(same_bits(u2.weights, u.weights));
  EXPECT_EQ(u2.info, u.info);

  // a router update still travels under its own tag
  Update r;
  r.tails.eval_step = {25}, r.tails.test_accuracy = {0.5f}, r.tails.flipped = {0.25f};
  const std::vector<std::uint8_t> rb = encode(r);
  EXPECT_EQ(app::message_tag(rb), kUpdateTag);
  EXPECT_EQ(decode_update(rb).task, Task::Router);
}

TEST(InductionMessages, CurvesThatDoNotFitTheTaskAreRefused) {
  const auto refused = [](const Update& u) {
    return fx::throws_input_error_saying([&] { decode_update(encode(u)); }, "malformed");
  };
  {
    Update u = induction_update();
    u.task = Task::Router;  // a router-tagged update carrying the induction task's curves
    EXPECT_TRUE(refused(u));
  }
  {
    Update u = induction_update();
    u.tails.first_half.pop_back();  // one evaluation's first-half loss missing
    EXPECT_TRUE(refused(u));
  }
  {
    Update u = induction_update();
    u.tails.second_half.push_back(1.0f);  // one too many
    EXPECT_TRUE(refused(u));
  }
  {
    Update u = induction_update();
    u.tails.scores.pop_back();  // 31 scores for 2 evaluations
    EXPECT_TRUE(refused(u));
  }
  {
    Update u = induction_update();
    u.tails.eval_step.clear(), u.tails.first_half.clear(), u.tails.second_half.clear();  // scores alone
    EXPECT_TRUE(refused(u));
  }
  {
    Update u = induction_update();
    u.tails.test_accuracy = {0.5f, 0.5f}, u.tails.flipped = {0.5f, 0.5f};  // the router's accuracies too
    EXPECT_TRUE(refused(u));
  }
  {
    Update u;  // an induction update of no evaluation at all is fine
    u.task = Task::Induction;
    u.tails.loss = {1.0f};
    EXPECT_EQ(decode_update(encode(u)).task, Task::Induction);
  }
}

TEST(InductionMessages, ACommandCarriesItsTask) {
  for (const Task task : {Task::Induction, Task::Router}) {
    Command c;
    c.kind = Command::Kind::Start, c.generation = 11;
    c.key = task == Task::Induction ? induction_of(attn::Scheme::Rope, 5) : router_key();
    const Command c2 = decode_command(encode(c));
    EXPECT_EQ(c2.key.task, task);
    EXPECT_TRUE(c2.key == c.key);
  }
  EXPECT_FALSE(induction_of(attn::Scheme::Rope, 5) == router_key());
  SessionKey k = induction_of(attn::Scheme::Rope, 5);
  EXPECT_EQ(k.d_model, 0);
  EXPECT_EQ(k.seed, 5);
  EXPECT_EQ(k.positions, attn::Scheme::Rope);
  // a task past the last one is refused
  std::vector<std::uint8_t> bytes = encode(Command{});
  // the task's int32 sits after tag, kind, generation, positions, d_model, heads, layers, seed
  const size_t at = 4 + 4 + 8 + 4 + 4 * 4;
  ASSERT_LT(at + 4, bytes.size());
  const std::int32_t bad = 2;
  std::memcpy(bytes.data() + at, &bad, 4);
  EXPECT_TRUE(fx::throws_input_error_saying([&] { decode_command(bytes); }, "malformed"));
}

// ---------------------------------------------------------------------------------------------------------
// 3. the inbox

std::vector<std::uint8_t> tagged(std::uint32_t tag, std::uint8_t n) {
  std::vector<std::uint8_t> m(4);
  std::memcpy(m.data(), &tag, 4);
  m.push_back(n);
  return m;
}

TEST(InductionInbox, TakingOneTagKeepsTheOthersQueuedInOrder) {
  app::LogicState state;
  app::use_logic_state(&state);
  const std::uint32_t other = 0x12345678;
  app::deliver_from_worker(tagged(kUpdateTag, 1));
  app::deliver_from_worker(tagged(kInductionUpdateTag, 2));
  app::deliver_from_worker(tagged(other, 3));
  app::deliver_from_worker(tagged(kUpdateTag, 4));
  app::deliver_from_worker({0x01, 0x02});  // too short for a tag
  app::deliver_from_worker(tagged(kInductionUpdateTag, 5));
  app::deliver_from_worker(tagged(kUpdateTag, 6));

  EXPECT_EQ(app::take_from_worker(kInductionUpdateTag),
            (std::vector<std::vector<std::uint8_t>>{tagged(kInductionUpdateTag, 2),
                                                    tagged(kInductionUpdateTag, 5)}));
  EXPECT_EQ(state.worker.inbox, (std::vector<std::vector<std::uint8_t>>{tagged(kUpdateTag, 1),
                                                                        tagged(other, 3),
                                                                        tagged(kUpdateTag, 4),
                                                                        {0x01, 0x02},
                                                                        tagged(kUpdateTag, 6)}));
  EXPECT_TRUE(app::take_from_worker(kInductionUpdateTag).empty());
  EXPECT_EQ(app::take_from_worker(kUpdateTag),
            (std::vector<std::vector<std::uint8_t>>{tagged(kUpdateTag, 1), tagged(kUpdateTag, 4),
                                                    tagged(kUpdateTag, 6)}));
  EXPECT_EQ(state.worker.inbox, (std::vector<std::vector<std::uint8_t>>{tagged(other, 3), {0x01, 0x02}}));
  app::deliver_from_worker(tagged(other, 7));
  EXPECT_EQ(app::take_from_worker(other),
            (std::vector<std::vector<std::uint8_t>>{tagged(other, 3), tagged(other, 7)}));
  EXPECT_EQ(state.worker.inbox, (std::vector<std::vector<std::uint8_t>>{{0x01, 0x02}}));
  app::use_logic_state(nullptr);
}

// ---------------------------------------------------------------------------------------------------------
// 4. two sessions behind one link

TEST(InductionLink, ARouterAndAnInductionSessionShareOneLinkUndisturbed) {
  Linked linked;
  TrainClient router, ind;
  router.reset(router_key());
  ind.reset(induction_of(attn::Scheme::Learned));  // learned: its pause skips the longer lengths (time)
  ASSERT_TRUE(router.in_worker() && ind.in_worker());
  constexpr int kRouterSteps = 6, kInductionSteps = 4;
  Stop router_stop = Stop::None, ind_stop = Stop::None;
  for (int i = 0; i < 200000 && !(settled(ind, kInductionSteps) && router.metrics_step() == kRouterSteps &&
                                  !router.evaluating() && router_stop != Stop::None);
       ++i) {
    linked.worker.pump();
    // each runs until its own stop, then pauses
    const Stop r = router.tick(5.0, router_stop == Stop::None, kRouterSteps);
    const Stop n = ind.tick(5.0, ind_stop == Stop::None, kInductionSteps);
    if (router_stop == Stop::None) router_stop = r;
    if (ind_stop == Stop::None) ind_stop = n;
  }
  EXPECT_EQ(router_stop, Stop::MaxSteps);
  EXPECT_EQ(ind_stop, Stop::MaxSteps);
  EXPECT_EQ(router.error(), "");
  EXPECT_EQ(ind.error(), "");
  EXPECT_EQ(router.steps(), kRouterSteps);
  EXPECT_EQ(ind.steps(), kInductionSteps);
  EXPECT_EQ(router.curves().loss.size(), static_cast<size_t>(kRouterSteps));
  // the induction session's losses are InductionTrainer's: the router's session disturbed nothing
  const tr::InductionConfig task;
  tr::InductionTrainer direct(task, tr::induction_model_config(task, attn::Scheme::Learned, 1));
  std::vector<float> want;
  for (int s = 0; s < kInductionSteps; ++s) {
    direct.step();
    want.push_back(direct.last_loss());
  }
  EXPECT_TRUE(same_bits(ind.curves().loss, want))
      << "largest difference " << max_diff(ind.curves().loss, want);
  // and the router's are the router's Trainer's: the induction session disturbed nothing either
  tr::Trainer router_direct(session_model_config(router_key()), tr::TrainConfig{}, refund_training());
  want.clear();
  for (int s = 0; s < kRouterSteps; ++s) {
    router_direct.step();
    want.push_back(router_direct.last_loss());
  }
  EXPECT_TRUE(same_bits(router.curves().loss, want))
      << "largest difference " << max_diff(router.curves().loss, want);
  // each client has its own task's curves only
  EXPECT_FALSE(router.curves().test_accuracy.empty());
  EXPECT_TRUE(router.curves().first_half.empty() && router.curves().scores.empty());
  EXPECT_FALSE(ind.curves().first_half.empty());
  EXPECT_TRUE(ind.curves().test_accuracy.empty());
  EXPECT_EQ(ind.curves().eval_step, (std::vector<float>{0, kInductionSteps}));
  EXPECT_EQ(ind.snapshot().vocab.size(), 16);
  EXPECT_EQ(router.snapshot().vocab.size(), refund_vocab().size());
  // only the router's model is published app-wide
  ASSERT_NE(app::trained_model(), nullptr);
  EXPECT_EQ(app::trained_model()->version, router.snapshot().version);
  EXPECT_EQ(app::trained_model()->vocab.size(), refund_vocab().size());
  EXPECT_TRUE(app::take_from_worker(kUpdateTag).empty() && app::take_from_worker(kInductionUpdateTag).empty())
      << "each client took its own updates";
}

// ---------------------------------------------------------------------------------------------------------
// 5. the view

// Curves of a model of 2 layers x 2 heads, one evaluation per {step, previous-token [l0h0 l0h1 l1h0 l1h1],
// prefix-matching [...]}.
Curves hand_made(const std::vector<std::pair<int, std::vector<float>>>& evaluations) {
  Curves c;
  for (const auto& [step, row] : evaluations) {
    c.eval_step.push_back(static_cast<float>(step));
    c.first_half.push_back(2.5f);
    c.second_half.push_back(1.0f);
    c.scores.insert(c.scores.end(), row.begin(), row.end());
  }
  return c;
}

TEST(InductionView, FormedIsTheFirstEvaluationWithEachKindOfHead) {
  const Curves c = hand_made({
      // a later layer's previous-token head and a layer-0 prefix-matching one count for nothing
      {0, {0.1f, 0.2f, 0.9f, 0.9f, 0.9f, 0.9f, 0.1f, 0.1f}},
      {100, {0.1f, 0.4999f, 0.1f, 0.1f, 0.0f, 0.0f, 0.49f, 0.1f}},
      {200, {0.1f, 0.5f, 0.1f, 0.1f, 0.0f, 0.0f, 0.1f, 0.4999f}},  // layer 0's exactly at the floor
      {300, {0.0f, 0.0f, 0.1f, 0.1f, 0.0f, 0.0f, 0.1f, 0.5f}},     // layer 1's at the floor
      {400, {0.9f, 0.9f, 0.1f, 0.1f, 0.0f, 0.0f, 0.9f, 0.9f}},
  });
  const app::induction::Formed f = app::induction::formed(c, 2, 2);
  EXPECT_EQ(f.previous_token, 200);
  EXPECT_EQ(f.induction, 300);

  const app::induction::Formed never = app::induction::formed(
      hand_made({{0, std::vector<float>(8, 0.0f)}, {100, std::vector<float>(8, 0.49f)}}), 2, 2);
  EXPECT_EQ(never.previous_token, -1);
  EXPECT_EQ(never.induction, -1);
  EXPECT_EQ(app::induction::formed(Curves{}, 2, 2).previous_token, -1);

  // evaluation() reads a row back; too few scores are refused
  const tr::InductionMetrics m = app::induction::evaluation(c, 2, 2, 2);
  EXPECT_EQ(m.previous_token, (std::vector<std::vector<double>>{{0.1f, 0.5f}, {0.1f, 0.1f}}));
  EXPECT_EQ(m.induction, (std::vector<std::vector<double>>{{0.0f, 0.0f}, {0.1f, 0.4999f}}));
  EXPECT_TRUE(fx::throws_input_error_saying([&] { app::induction::evaluation(c, 2, 4, 2); }, "missing"));
}

TEST(InductionView, ARowOnlyForAFinishedRunWithItsLongerLengths) {
  const Curves c = hand_made({{0, {0.1f, 0.2f, 0.3f, 0.4f, 0.0f, 0.0f, 0.1f, 0.2f}},
                              {100, {0.7f, 0.6f, 0.3f, 0.95f, 0.8f, 0.0f, 0.25f, 0.65f}}});
  nlohmann::json info;
  info["steps"] = 100;
  info["eval_length"] =
      nlohmann::json::array({{{"length", 64}, {"loss_first_half", 2.7}, {"loss_second_half", 0.75}},
                             {{"length", 128}, {"error", "no"}}});
  const SessionKey key = induction_of(attn::Scheme::Alibi, 3);
  const std::optional<app::induction::Row> row = app::induction::row_of(key, c, info, 2, 2);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->positions, attn::Scheme::Alibi);
  EXPECT_EQ(row->seed, 3);
  EXPECT_EQ(row->steps, 100);
  EXPECT_EQ(row->formed.previous_token, 100);
  EXPECT_EQ(row->formed.induction, 100);
  EXPECT_DOUBLE_EQ(row->best_previous, 0.7f);    // layer 0's, not layer 1's 0.95
  EXPECT_DOUBLE_EQ(row->best_induction, 0.65f);  // the last layer's, not layer 0's 0.8
  EXPECT_DOUBLE_EQ(row->loss_second_half, 1.0);
  ASSERT_EQ(row->longer.size(), 2u);
  EXPECT_EQ(row->longer[0].length, 64);
  EXPECT_DOUBLE_EQ(row->longer[0].loss_second_half, 0.75);
  EXPECT_EQ(row->longer[0].error, "");
  EXPECT_EQ(row->longer[1].error, "no");

  nlohmann::json other = info;
  other["steps"] = 0;  // the snapshot is of another evaluation
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  other = info;
  other["steps"] = 101;
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  other = info;
  other.erase("eval_length");  // a run still training
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  other = info;
  other.erase("steps");
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  EXPECT_FALSE(app::induction::row_of(key, Curves{}, info, 2, 2).has_value());
  EXPECT_FALSE(app::induction::row_of(key, c, nlohmann::json(), 2, 2).has_value());
}

TEST(InductionView, TheHeldOutSequencesAttentionIsCausalAndFollowsTheSwitches) {
  // a model trained a little (its weights no longer the seeded start)
  const tr::InductionConfig task;
  tr::InductionTrainer trainer(task, tr::induction_model_config(task, attn::Scheme::Rope, 2));
  trainer.train(10);
  const tr::Model& model = trainer.model();
  const app::induction::SequenceAttention all = app::induction::sequence_attention(model);
  EXPECT_EQ(all.ids, tr::induction_eval_set(2, 16, 32, 1).front());
  ASSERT_EQ(all.weights.size(), 8u);
  for (size_t k = 0; k < all.weights.size(); ++k) {
    const attn::Mat& w = all.weights[k];
    ASSERT_EQ(w.rows(), 32);
    ASSERT_EQ(w.cols(), 32);
    double above = 0, worst_sum = 0;
    for (int i = 0; i < 32; ++i) {
      for (int j = i + 1; j < 32; ++j) above = std::max(above, std::fabs(double(w(i, j))));
      worst_sum = std::max(worst_sum, std::fabs(double(w.row(i).sum()) - 1.0));
      for (int j = 0; j <= i; ++j) EXPECT_GE(w(i, j), 0.0f);
    }
    EXPECT_EQ(above, 0.0) << "head " << k << ": a weight above the diagonal, largest " << above;
    EXPECT_LE(worst_sum, 1e-5) << "head " << k << ": largest |row sum - 1| " << worst_sum;
  }
  // a layer-1 head off: every head's weights as before (its output feeds no later layer's attention)
  const attn::HeadSwitch late = tr::parse_heads_off("1.2", 2, 4);
  const app::induction::SequenceAttention off1 = app::induction::sequence_attention(model, &late);
  ASSERT_EQ(off1.weights.size(), 8u);
  for (size_t k = 0; k < 8; ++k) {
    const double d = max_diff(off1.weights[k], all.weights[k]);
    EXPECT_EQ(d, 0.0) << "head " << k << ": largest difference " << d;
  }
  // a layer-0 head off: layer 0's weights as before, layer 1's change (layer 0's output is its input)
  const attn::HeadSwitch early = tr::parse_heads_off("0.1", 2, 4);
  const app::induction::SequenceAttention off0 = app::induction::sequence_attention(model, &early);
  ASSERT_EQ(off0.weights.size(), 8u);
  double layer1 = 0;
  for (size_t k = 0; k < 8; ++k) {
    const double d = max_diff(off0.weights[k], all.weights[k]);
    if (k < 4) {
      EXPECT_EQ(d, 0.0) << "layer 0 head " << k << ": largest difference " << d;
    } else {
      layer1 = std::max(layer1, d);
    }
  }
  EXPECT_GT(layer1, 1e-4) << "switching a layer-0 head off left layer 1's attention as it was";

  // measure() is the trainer's evaluation
  const tr::InductionMetrics m = app::induction::measure(model);
  const tr::InductionMetrics want = trainer.evaluate();
  EXPECT_NEAR(m.loss_second_half, want.loss_second_half, 1e-9);
  EXPECT_LE(max_diff(score_row(m), score_row(want)), 1e-9);
  const tr::InductionMetrics m_off = app::induction::measure(model, &early);
  EXPECT_NE(m_off.loss_second_half, m.loss_second_half);
}

TEST(InductionView, InductionHeadsAreTheLaterLayersHeadsAtTheFloor) {
  tr::InductionMetrics m;
  m.induction = {{0.9, 0.95}, {0.3, 0.2999}, {0.0, 0.8}};
  m.previous_token = {{0, 0}, {0, 0}, {0, 0}};
  const attn::HeadSwitch s = app::induction::induction_heads(m);
  EXPECT_EQ(s.off, (std::vector<std::vector<char>>{{0, 0}, {1, 0}, {0, 1}}));
  EXPECT_TRUE(s.mean.empty()) << "switched off to zeros";
  EXPECT_EQ(app::induction::induction_heads(tr::InductionMetrics{}).off.size(), 0u);
}

TEST(InductionView, OffEffectBoundaries) {
  using app::induction::OffEffect;
  tr::InductionMetrics on, off;
  on.loss_first_half = 4.0, on.loss_second_half = 0.5;
  off.loss_first_half = 4.0;
  const auto effect = [&](double second) {
    off.loss_second_half = second;
    return app::induction::off_effect(on, off);
  };
  EXPECT_EQ(effect(3.0), OffEffect::BackUp);  // exactly 3/4 of the first half's
  EXPECT_EQ(effect(3.5), OffEffect::BackUp);
  EXPECT_EQ(effect(2.999), OffEffect::Rises);
  EXPECT_EQ(effect(0.75), OffEffect::Rises);  // exactly 1.5 times the loss with every head on
  EXPECT_EQ(effect(0.7499), OffEffect::Stays);
  EXPECT_EQ(effect(0.25), OffEffect::Stays);
  const std::string a = app::induction::off_effect_text(OffEffect::BackUp),
                    b = app::induction::off_effect_text(OffEffect::Rises),
                    c = app::induction::off_effect_text(OffEffect::Stays);
  EXPECT_FALSE(a.empty() || b.empty() || c.empty());
  EXPECT_TRUE(a != b && b != c && a != c);
}

}  // namespace
