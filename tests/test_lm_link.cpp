// The Real model scene's messages and store (app/logic/lm_messages, lm_store): messages round-trip and
// malformed ones are refused; the store's answers are the same here and behind a compute link.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/lm_host.hpp"
#include "app/logic/lm_store.hpp"
#include "core/error.hpp"
#include "lm_fixtures.hpp"

namespace {

using lm_fixtures::ask;
using lm_fixtures::expect_same;
using lm_fixtures::files;
using lm_fixtures::kHeads;
using lm_fixtures::kLayers;

TEST(LmMessages, RoundTripAndRefuseMalformed) {
  app::LmHost host;
  const app::LmInfo info = host.open(1, files());
  const app::LmInfo back = app::decode_lm_info(app::encode(info));
  EXPECT_EQ(back.model, info.model);
  EXPECT_EQ(back.source, info.source);
  EXPECT_EQ(back.parameters, info.parameters);
  EXPECT_EQ(back.kv_heads, info.kv_heads);
  EXPECT_EQ(back.position_table, nullptr) << "llama2.c: no learned table";
  app::LmInfo learned = info;  // a GPT-2's table comes through as it is
  learned.position_table = std::make_shared<const attn::Mat>(attn::Mat::Random(5, 3));
  const app::LmInfo learned_back = app::decode_lm_info(app::encode(learned));
  ASSERT_NE(learned_back.position_table, nullptr);
  EXPECT_EQ(*learned_back.position_table, *learned.position_table);
  app::LmRequest q = ask("the cat");
  q.off = "1.3";
  q.generate = 2;
  q.temperature = 0.7;
  q.seed = 9;
  q.roles = true;
  q.grid = 5;
  const app::LmRequest qb = app::decode_lm_request(app::encode(q));
  EXPECT_TRUE(qb.same_question(q));
  EXPECT_EQ(qb.serial, q.serial);
  const app::LmAnswer a = host.answer(q);
  expect_same(app::decode_lm_answer(app::encode(a)), a);
  app::Bytes bytes = app::encode(a);
  bytes.pop_back();
  EXPECT_THROW(app::decode_lm_answer(bytes), attn::InputError);
  bytes = app::encode(q);
  bytes[0] ^= 1;
  EXPECT_THROW(app::decode_lm_request(bytes), attn::InputError);
}

// A link that keeps what the app posts.
class Outbox : public app::ComputeLink {
 public:
  void post(const std::vector<std::uint8_t>& message) override { sent.push_back(message); }
  std::vector<app::Bytes> sent;
};

TEST(LmStore, AnswersHereOrBehindALinkAlike) {
  app::lm_close();
  // here: the answer at once, asked again only when the question changes
  static app::LmHost host;  // the app's thread's host, as the desktop app provides it
  app::lm_store().answer_here = [](const app::LmRequest& q) { return host.answer(q); };
  const long long here = app::lm_open_started("test files", 1, false);
  app::deliver_lm_info(host.open(here, files()));
  ASSERT_TRUE(app::lm_store().info.ok());
  app::LmRequest q = ask("the cat sat");
  q.roles = true;
  bool waiting = true;
  const std::shared_ptr<const app::LmAnswer> a = app::lm_answer_for(q, waiting);
  ASSERT_NE(a, nullptr);
  EXPECT_FALSE(waiting);
  const app::LmAnswer first = *a;
  EXPECT_EQ(app::lm_store().roles.size(), static_cast<size_t>(kLayers * kHeads));
  EXPECT_EQ(app::lm_answer_for(q, waiting)->serial, first.serial);
  q.roles = false;
  EXPECT_NE(app::lm_answer_for(q, waiting)->serial, first.serial);
  EXPECT_EQ(app::lm_store().roles.size(), static_cast<size_t>(kLayers * kHeads));  // kept

  // behind a link: the worker's host answers the posted question; the same answer arrives
  Outbox link;
  app::use_compute_link(&link);
  app::LmHost worker;
  const long long there = app::lm_open_started("test files", 1, true);
  app::deliver_lm_info(app::decode_lm_info(app::encode(worker.open(there, files()))));
  q.roles = true;
  const std::shared_ptr<const app::LmAnswer> none = app::lm_answer_for(q, waiting);
  EXPECT_EQ(none, nullptr);
  EXPECT_TRUE(waiting);
  ASSERT_EQ(link.sent.size(), 1u);
  app::LmRequest other = q;
  other.text = "the mat";
  app::lm_answer_for(other, waiting);  // one question at a time: nothing more is sent yet
  EXPECT_EQ(link.sent.size(), 1u);
  const app::LmAnswer answered = worker.answer(app::decode_lm_request(link.sent[0]));
  app::deliver_lm_answer(app::decode_lm_answer(app::encode(answered)));
  const std::shared_ptr<const app::LmAnswer> got = app::lm_answer_for(q, waiting);
  ASSERT_NE(got, nullptr);
  EXPECT_FALSE(waiting);
  app::LmAnswer local = first;
  expect_same(*got, local);
  // an answer for an older model is dropped
  app::LmAnswer stale = answered;
  stale.model = there - 1;
  app::deliver_lm_answer(stale);
  EXPECT_EQ(app::lm_answer_for(q, waiting)->model, there);
  app::lm_close();
  ASSERT_EQ(link.sent.size(), 2u);
  EXPECT_TRUE(app::decode_lm_request(link.sent[1]).close);
  EXPECT_FALSE(app::lm_store().info.ok());
  app::use_compute_link(nullptr);
}

}  // namespace
