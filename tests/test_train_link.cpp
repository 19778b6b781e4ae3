// The Train scene's session behind its messages (app/logic/train_*): commands and updates survive their
// byte form exactly and malformed bytes are refused; a TrainClient gets the same training, step for step
// and bit for bit, whether its session runs in-process or behind a compute link whose updates arrive late
// and in bursts (as from the page's worker) - and the same as a Session driven directly; an idle session
// sends nothing; a pause always reaches the worker.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/train_client.hpp"
#include "app/logic/train_host.hpp"
#include "app/logic/train_messages.hpp"
#include "core/error.hpp"
#include "fixtures.hpp"
#include "train_link_worker.hpp"

namespace {

using namespace app::train_ui;

SessionKey lesson_key() {
  SessionKey k;
  k.positions = attn::Scheme::Sinusoidal;
  k.d_model = 32, k.heads = 4, k.layers = 1, k.seed = 1;
  return k;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), 4 * a.size()) == 0);
}

TEST(TrainMessages, ACommandAndAnUpdateSurviveTheirBytes) {
  Command c;
  c.kind = Command::Kind::Run, c.generation = 7, c.key = lesson_key(), c.run = true, c.max_steps = 900;
  c.acked = 3;
  const Command c2 = decode_command(encode(c));
  EXPECT_EQ(c2.kind, c.kind);
  EXPECT_EQ(c2.generation, 7);
  EXPECT_TRUE(c2.key == c.key);
  EXPECT_TRUE(c2.run);
  EXPECT_EQ(c2.max_steps, 900);
  EXPECT_EQ(c2.acked, 3);

  Update u;
  u.generation = 9, u.stop = Stop::Target;
  u.progress.has_trainer = true, u.progress.steps = 175, u.progress.last_loss = 0.0809675157f;
  u.progress.metrics.test_accuracy = 0.99565220f, u.progress.metrics_step = 175, u.progress.seconds = 0.25;
  u.progress.error = "an error, in words";
  u.tails.loss = {1.5f, 0.25f, -0.0f}, u.loss_from = 12;
  u.tails.eval_step = {25}, u.tails.test_accuracy = {0.5f}, u.tails.flipped = {0.125f}, u.eval_from = 1;
  u.has_model = true, u.weights = {1e-38f, 3.4e38f, -2.5f};
  u.info["steps"] = 175;
  const Update u2 = decode_update(encode(u));
  EXPECT_EQ(u2.generation, 9);
  EXPECT_EQ(u2.stop, Stop::Target);
  EXPECT_EQ(u2.progress.steps, 175);
  EXPECT_EQ(u2.progress.last_loss, u.progress.last_loss);
  EXPECT_EQ(u2.progress.metrics.test_accuracy, u.progress.metrics.test_accuracy);
  EXPECT_EQ(u2.progress.metrics_step, 175);
  EXPECT_EQ(u2.progress.seconds, 0.25);
  EXPECT_EQ(u2.progress.error, "an error, in words");
  EXPECT_TRUE(same_bits(u2.tails.loss, u.tails.loss));
  EXPECT_EQ(u2.loss_from, 12);
  EXPECT_TRUE(same_bits(u2.tails.flipped, u.tails.flipped));
  EXPECT_EQ(u2.eval_from, 1);
  EXPECT_TRUE(u2.has_model);
  EXPECT_TRUE(same_bits(u2.weights, u.weights));
  EXPECT_EQ(u2.info, u.info);
}

TEST(TrainMessages, MalformedBytesAreRefusedInWords) {
  Update u;
  u.tails.loss = {1, 2, 3};
  const std::vector<std::uint8_t> good = encode(u);
  for (const std::size_t cut : {std::size_t{0}, std::size_t{3}, good.size() / 2, good.size() - 1}) {
    const std::vector<std::uint8_t> shorter(good.begin(), good.begin() + static_cast<long>(cut));
    EXPECT_TRUE(fx::throws_input_error_saying([&] { decode_update(shorter); }, "malformed")) << cut;
  }
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_TRUE(fx::throws_input_error_saying([&] { decode_update(longer); }, "malformed"));
  EXPECT_TRUE(fx::throws_input_error_saying([&] { decode_command(good); }, "malformed"));  // another kind
  std::vector<std::uint8_t> huge = good;
  huge.back() = 0xff;  // the last field, the info text's length (0 here): now far past the end
  EXPECT_TRUE(fx::throws_input_error_saying([&] { decode_update(huge); }, "malformed"));
}

// A session driven directly, as the Train scene did before it had a worker: tick until the target.
struct Direct {
  Session session;
  std::vector<float> weights;
  int target_step = -1;
  explicit Direct(const SessionKey& k) {
    session.reset(k);
    for (int i = 0; i < 100000 && target_step < 0; ++i) {
      if (session.tick(5.0, true, 2000) == Stop::Target) target_step = session.steps();
    }
    weights = flat_weights(session.snapshot_model());
  }
};

// Runs `client` to its target; `pump` is called before each tick (the worker's side of the link).
template <class Pump>
int train_to_target(TrainClient& client, Pump&& pump) {
  client.reset(lesson_key());
  for (int i = 0; i < 200000; ++i) {
    pump();
    if (client.tick(5.0, true, 2000) == Stop::Target) return client.steps();
  }
  return -1;
}

void expect_same_training(const TrainClient& c, const Direct& d) {
  EXPECT_EQ(c.target_step(), d.target_step);
  EXPECT_EQ(c.metrics_step(), d.target_step);
  EXPECT_EQ(c.metrics().test_accuracy, d.session.metrics().test_accuracy);
  EXPECT_EQ(c.metrics().flipped_pair_accuracy, d.session.metrics().flipped_pair_accuracy);
  EXPECT_EQ(c.metrics().max_pair_difference, d.session.metrics().max_pair_difference);
  EXPECT_TRUE(same_bits(c.curves().loss, d.session.curves().loss));
  EXPECT_TRUE(same_bits(c.curves().test_accuracy, d.session.curves().test_accuracy));
  EXPECT_TRUE(same_bits(c.curves().train_accuracy, d.session.curves().train_accuracy));
  EXPECT_TRUE(same_bits(flat_weights(c.snapshot().model), d.weights))
      << "the snapshot is the session's model";
  ASSERT_NE(app::trained_model(), nullptr);
  EXPECT_EQ(app::trained_model()->version, c.snapshot().version) << "the snapshot was published";
  EXPECT_EQ(c.snapshot().info["steps"], d.target_step);
}

TEST(TrainClient, InProcessItTrainsAsTheSessionDoes) {
  app::LogicState state;
  app::use_logic_state(&state);
  const Direct direct(lesson_key());
  ASSERT_GT(direct.target_step, 0);
  TrainClient client;
  EXPECT_EQ(train_to_target(client, [] {}), direct.target_step);
  EXPECT_FALSE(client.in_worker());
  expect_same_training(client, direct);
  app::use_logic_state(nullptr);
}

using train_link::Linked;
using train_link::LoopbackWorker;

TEST(TrainClient, BehindALinkItTrainsAsTheSessionDoes) {
  app::LogicState state;
  app::use_logic_state(&state);
  const Direct direct(lesson_key());
  LoopbackWorker worker;
  app::use_compute_link(&worker);
  TrainClient client;
  EXPECT_EQ(train_to_target(client, [&] { worker.pump(); }), direct.target_step);
  EXPECT_TRUE(client.in_worker());
  expect_same_training(client, direct);

  // a reset drops what the old session still sends: the new one starts from nothing
  client.reset(lesson_key());
  for (int i = 0; i < 200000 && client.metrics_step() < 0; ++i) {  // (slices of 2 ms: sanitizers are slow)
    worker.pump();
    client.tick(5.0, false, 2000);
  }
  EXPECT_EQ(client.steps(), 0);
  EXPECT_EQ(client.metrics_step(), 0) << "the untrained model was evaluated";
  EXPECT_TRUE(client.curves().loss.empty());
  app::use_compute_link(nullptr);
  app::use_logic_state(nullptr);
}

TEST(TrainHost, APausedSessionWithNothingToDoSendsNothing) {
  TrainHost host;
  Command start;
  start.kind = Command::Kind::Start, start.generation = 1, start.key = lesson_key();
  host.receive(start);
  long long sent = 0;
  for (int i = 0; i < 100000; ++i) {  // the untrained model's evaluation, then its update
    const bool more = host.work(5.0);
    if (host.take_update(!more)) ++sent;
    Command ack;
    ack.kind = Command::Kind::Ack, ack.generation = 1, ack.acked = sent;
    host.receive(ack);
    if (!more && i > 10) break;
  }
  ASSERT_GT(sent, 0);
  for (int i = 0; i < 20; ++i) {
    EXPECT_FALSE(host.work(5.0));
    EXPECT_FALSE(host.take_update(true).has_value()) << "an idle page would be woken for nothing";
  }
}

TEST(TrainClient, ARunSentWhileTheSessionStoppedItselfIsUndoneByThePause) {
  Linked linked;
  LoopbackWorker& worker = linked.worker;
  TrainClient client;
  client.reset(lesson_key());
  worker.hold_stops = true;
  Stop stop = Stop::None;
  for (int i = 0; i < 100000 && !worker.holding; ++i) {
    worker.pump();
    stop = client.tick(5.0, true, 30);
  }
  ASSERT_TRUE(worker.holding) << "the stop at max steps is on its way";
  ASSERT_EQ(stop, Stop::None);
  // the learner raises max steps while the stop is on its way: the worker trains on ...
  client.tick(5.0, true, 100000);
  worker.pump();
  worker.hold_stops = worker.holding = false;
  for (int i = 0; i < 100 && stop == Stop::None; ++i) {
    worker.pump();
    stop = client.tick(5.0, true, 100000);
  }
  ASSERT_EQ(stop, Stop::MaxSteps);
  // ... until the pause the scene then sets
  for (int i = 0; i < 100; ++i) {
    worker.pump();
    client.tick(5.0, false, 100000);
  }
  const int settled = client.steps();
  for (int i = 0; i < 100; ++i) {
    worker.pump();
    client.tick(5.0, false, 100000);
  }
  EXPECT_EQ(client.steps(), settled) << "the worker still trains while the scene says paused";
}

TEST(TrainClient, AnUnusableModelIsRefusedBeforeAnythingIsSent) {
  Linked linked;
  TrainClient client;
  SessionKey k = lesson_key();
  k.heads = 5;  // does not divide d_model 32
  EXPECT_TRUE(fx::throws_input_error_saying([&] { client.reset(k); }, "heads"));
  EXPECT_FALSE(client.has_trainer());
  EXPECT_TRUE(linked.worker.commands.empty());
}

}  // namespace
