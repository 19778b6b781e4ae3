// The Induction scene's messages: its updates, commands, the worker's inbox, its session sharing a link.
// Induction updates and commands survive their bytes and malformed curves are refused (train_messages);
// take_from_worker keeps other tags queued (compute_link); and a router and an induction session share one
// compute link undisturbed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/train_client.hpp"
#include "app/logic/train_messages.hpp"
#include "app/logic/train_session.hpp"
#include "app/logic/trained_model.hpp"
#include "core/train/induction.hpp"
#include "core/train/trainer.hpp"
#include "fixtures.hpp"
#include "induction_session_fixtures.hpp"
#include "train_link_worker.hpp"

namespace {

namespace tr = attn::train;
using namespace app::train_ui;
using namespace induction_fx;

SessionKey router_key() {
  SessionKey k;
  k.positions = attn::Scheme::Sinusoidal;
  k.d_model = 16, k.heads = 2, k.layers = 1, k.seed = 1;  // small: its evaluations are of every email
  return k;
}

using train_link::Linked;

// ---------------------------------------------------------------------------------------------------------
// 1. messages

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
// 2. the inbox

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
// 3. two sessions behind one link

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

}  // namespace
