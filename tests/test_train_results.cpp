// What training the refund router must show, with fixed seeds: positions learn both orders of held-out
// pairs, no positions cannot, learned tables stop at their end, the same seed gives the same weights.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/train/set_chunks.hpp"
#include "core/train/trainer.hpp"

namespace {

using attn::Scheme;
namespace tr = attn::train;

// Steps of the default model (d_model 32, 4 heads, 1 layer, no feed-forward, batch 32, Adam 1e-2).
// Sinusoidal and RoPE pass 99% on the held-out set after 300 steps for each of seeds 1-8; learned
// positions after 200. The tests give 400 (learned: 300) so a slightly different libm cannot tip them.
constexpr int kSteps = 400;
constexpr int kLearnedSteps = 300;

const tr::Dataset& data() {
  static const tr::Dataset d = tr::make_refund_dataset();
  return d;
}

tr::ModelConfig config(Scheme positions, std::uint64_t seed) {
  tr::ModelConfig c;
  c.positions = positions;
  c.seed = seed;
  return c;
}

tr::Metrics train(tr::Trainer& t, int steps, const char* what) {
  const auto start = std::chrono::steady_clock::now();
  t.train(steps);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const tr::Metrics m = t.evaluate();
  std::printf(
      "[ train ] %-28s %4d steps %.2fs (%.0f steps/s): train %.3f test %.3f both-orders %.3f loss %.4f\n",
      what, steps, seconds, steps / seconds, m.train_accuracy, m.test_accuracy, m.flipped_pair_accuracy,
      m.test_loss);
  return m;
}

TEST(TrainResults, SinusoidalLearnsBothOrdersOfHeldOutPairs) {
  for (std::uint64_t seed : {1, 2, 3}) {
    tr::Trainer t(config(Scheme::Sinusoidal, seed), {}, data());
    const tr::Metrics m = train(t, kSteps, ("sinusoidal seed " + std::to_string(seed)).c_str());
    EXPECT_GE(m.test_accuracy, 0.99f) << "seed " << seed;
    EXPECT_GE(m.flipped_pair_accuracy, 0.98f) << "seed " << seed;
    EXPECT_GT(m.max_pair_difference, 0.9f);  // the twins get opposite answers
  }
}

TEST(TrainResults, WithoutPositionsTheTwinsStayIdentical) {
  tr::Trainer t(config(Scheme::None, 1), {}, data());
  for (int round = 0; round < 3; ++round) {
    const tr::Metrics m = train(t, round == 0 ? 100 : 700, "no positions");
    // the two orders get the same output to the last bit, however long it trains
    EXPECT_LT(m.max_pair_difference, 1e-6f);
    EXPECT_EQ(m.max_pair_difference, 0.0f);
    EXPECT_LE(m.flipped_pair_accuracy, 0.5f);
    EXPECT_LE(m.test_accuracy, 0.5f);
    EXPECT_LE(m.train_accuracy, 0.5f);
  }
  // the label it gives a twin pair is one of the two items, with the same confidence for both orders
  const tr::TextPrediction a =
      tr::predict_text(t.model(), t.vocab(), "Refund the delivery fee, not the cake.");
  const tr::TextPrediction b =
      tr::predict_text(t.model(), t.vocab(), "Refund the cake, not the delivery fee.");
  EXPECT_EQ(a.prediction.label, b.prediction.label);
  EXPECT_EQ(a.prediction.confidence, b.prediction.confidence);
  std::printf("[ train ] no positions: both emails -> '%s' with confidence %.3f\n",
              data().items[static_cast<size_t>(a.prediction.label)].c_str(), a.prediction.confidence);
}

TEST(TrainResults, LearnedPositionsLearnAndStopAtTheEndOfTheirTable) {
  tr::Trainer t(config(Scheme::Learned, 1), {}, data());
  const tr::Metrics m = train(t, kLearnedSteps, "learned seed 1");
  EXPECT_GE(m.test_accuracy, 0.99f);
  EXPECT_GE(m.flipped_pair_accuracy, 0.98f);
  // an email longer than the 32 slots is a clear error, not a crash
  const auto longer = tr::lengthen(data().test, 400);
  try {
    tr::evaluate_set(t.model(), t.vocab(), longer);
    ADD_FAILURE() << "a 400-token email went through a 32-slot table";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("position 32 is past the end of the learned table: it has 32 slots"),
              std::string::npos)
        << e.what();
    std::printf("[ train ] learned, 400 extra tokens: %s\n", e.what());
  }
  const tr::SetMetrics near = tr::evaluate_set(t.model(), t.vocab(), tr::lengthen(data().test, 8));
  std::printf("[ train ] learned, 8 extra tokens (inside the table): accuracy %.3f\n", near.accuracy);
}

TEST(TrainResults, RopeLearnsAndBothClocksReadLongerEmails) {
  tr::Trainer rope(config(Scheme::Rope, 1), {}, data());
  const tr::Metrics m = train(rope, kSteps, "rope seed 1");
  EXPECT_GE(m.test_accuracy, 0.99f);
  EXPECT_GE(m.flipped_pair_accuracy, 0.98f);
  tr::Trainer sin(config(Scheme::Sinusoidal, 1), {}, data());
  train(sin, kSteps, "sinusoidal seed 1");
  // Longer emails (a neutral greeting in front) run through both; the accuracy is reported, and drops with
  // the length as the lesson says (positions never seen in training).
  for (int extra : {2, 8, 32, 400}) {
    std::vector<tr::Example> longer = tr::lengthen(data().test, extra);
    if (extra > 100) longer.resize(100);  // 5 held-out pairs, both orders, every template: enough, and fast
    const tr::SetMetrics s = tr::evaluate_set(sin.model(), sin.vocab(), longer);
    const tr::SetMetrics r = tr::evaluate_set(rope.model(), rope.vocab(), longer);
    std::printf("[ train ] %3d extra tokens: sinusoidal accuracy %.3f (both orders %.3f), rope %.3f (%.3f)\n",
                extra, s.accuracy, s.pair_accuracy, r.accuracy, r.pair_accuracy);
    EXPECT_EQ(s.examples, static_cast<int>(longer.size()));
    EXPECT_EQ(s.twins * 2, s.examples);
    EXPECT_TRUE(std::isfinite(s.loss));
    EXPECT_TRUE(std::isfinite(r.loss));
  }
  // RoPE reads relative distances, so a short greeting hardly disturbs it
  EXPECT_GE(tr::evaluate_set(rope.model(), rope.vocab(), tr::lengthen(data().test, 2)).accuracy, 0.9f);
}

// The page measures longer emails a chunk at a time: the tally of the chunks is the whole set's measures.
TEST(TrainResults, ChunksOfASetTallyToTheWholeSet) {
  tr::Trainer t(config(Scheme::Sinusoidal, 2), {}, data());
  t.train(40);  // part-trained: some emails right, some wrong, twins that differ
  const std::vector<tr::Example> longer = tr::lengthen(data().test, 8);
  const tr::SetMetrics whole = tr::evaluate_set(t.model(), t.vocab(), longer);
  for (size_t per_chunk : {1, 2, 7, 1000}) {
    tr::SetTally tally;
    size_t emails = 0;
    for (const auto& chunk : tr::twin_chunks(longer, per_chunk)) {
      emails += chunk.size();
      tally.add(tr::evaluate_set(t.model(), t.vocab(), chunk));
    }
    const tr::SetMetrics sum = tally.total();
    EXPECT_EQ(emails, longer.size());
    EXPECT_EQ(sum.examples, whole.examples);
    EXPECT_EQ(sum.twins, whole.twins);
    EXPECT_FLOAT_EQ(sum.accuracy, whole.accuracy) << "chunks of " << per_chunk;
    EXPECT_FLOAT_EQ(sum.pair_accuracy, whole.pair_accuracy) << "chunks of " << per_chunk;
    EXPECT_FLOAT_EQ(sum.max_pair_difference, whole.max_pair_difference);
    EXPECT_NEAR(sum.loss, whole.loss, 1e-5 + 1e-5 * whole.loss);
  }
  EXPECT_GT(whole.accuracy, 0.0f);
  EXPECT_LT(whole.pair_accuracy, 1.0f);
}

// The Train scene's session encodes its evaluation sets once: evaluating the encoded set measures exactly
// what encoding each email as it is evaluated does, and ids that do not match the set are refused.
TEST(TrainResults, AnEncodedSetMeasuresWhatEncodingEachEmailDoes) {
  tr::Trainer t(config(Scheme::Sinusoidal, 2), {}, data());
  t.train(40);  // part-trained: some emails right, some wrong, twins that differ
  const std::vector<tr::Example> longer = tr::lengthen(data().test, 8);
  const std::vector<std::vector<int>> ids = tr::encode_set(t.vocab(), longer);
  ASSERT_EQ(ids.size(), longer.size());
  for (size_t i = 0; i < longer.size(); i += 97) EXPECT_EQ(ids[i], t.vocab().encode(longer[i].text));
  const tr::SetMetrics each = tr::evaluate_set(t.model(), t.vocab(), longer);
  const tr::SetMetrics encoded = tr::evaluate_set(t.model(), t.vocab(), longer, &ids);
  EXPECT_EQ(encoded.examples, each.examples);
  EXPECT_EQ(encoded.twins, each.twins);
  EXPECT_EQ(encoded.accuracy, each.accuracy);
  EXPECT_EQ(encoded.pair_accuracy, each.pair_accuracy);
  EXPECT_EQ(encoded.max_pair_difference, each.max_pair_difference);
  EXPECT_EQ(encoded.loss, each.loss);
  EXPECT_GT(each.accuracy, 0.0f);
  EXPECT_LT(each.pair_accuracy, 1.0f);
  const std::vector<std::vector<int>> fewer(ids.begin(), ids.end() - 1);
  try {
    tr::evaluate_set(t.model(), t.vocab(), longer, &fewer);
    ADD_FAILURE() << "ids for one email fewer were taken";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("encoded emails for a set of"), std::string::npos) << e.what();
  }
}

// The page's longer-emails panel steps a SetEvaluation one email a frame, between other work: its measures
// equal the tally of the set evaluated one twin at a time, and another evaluation stepped in between
// (another model's, sharing nothing) changes nothing.
TEST(TrainResults, AnEvaluationSteppedAnEmailAtATimeMeasuresTheWholeSet) {
  tr::Trainer t(config(Scheme::Sinusoidal, 2), {}, data());
  t.train(40);  // part-trained: some emails right, some wrong, twins that differ
  tr::Trainer other(config(Scheme::Rope, 3), {}, data());
  const std::vector<tr::Example> longer = tr::lengthen(data().test, 8);
  tr::SetTally tally;
  for (const auto& twin : tr::twin_chunks(longer, 1)) tally.add(tr::evaluate_set(t.model(), t.vocab(), twin));
  const tr::SetMetrics by_twins = tally.total();

  tr::SetEvaluation stepped(longer), between(longer);
  EXPECT_EQ(stepped.size(), longer.size());
  for (size_t i = 0; i < longer.size(); ++i) {
    ASSERT_FALSE(stepped.done());
    stepped.step(t.model(), t.vocab());
    EXPECT_EQ(stepped.measured(), i + 1);
    if (i % 3 == 0) between.step(other.model(), other.vocab());
  }
  ASSERT_TRUE(stepped.done());
  stepped.step(t.model(), t.vocab());  // nothing left: a no-op
  EXPECT_EQ(stepped.measured(), longer.size());
  const tr::SetMetrics m = stepped.metrics();
  EXPECT_EQ(m.examples, by_twins.examples);
  EXPECT_EQ(m.twins, by_twins.twins);
  EXPECT_FLOAT_EQ(m.accuracy, by_twins.accuracy);
  EXPECT_FLOAT_EQ(m.pair_accuracy, by_twins.pair_accuracy);
  EXPECT_FLOAT_EQ(m.max_pair_difference, by_twins.max_pair_difference);
  EXPECT_NEAR(m.loss, by_twins.loss, 1e-5 + 1e-5 * by_twins.loss);
  EXPECT_GT(m.accuracy, 0.0f);
  EXPECT_LT(m.pair_accuracy, 1.0f);
}

TEST(TrainResults, TheSameSeedTrainsToBitIdenticalWeights) {
  auto run = [](std::uint64_t seed, Scheme s) {
    tr::ModelConfig c = config(s, seed);
    c.d_ff = 16;
    tr::Trainer t(c, {}, data());
    t.train(60);
    return t;
  };
  for (Scheme s : {Scheme::Sinusoidal, Scheme::Rope, Scheme::Learned}) {
    const tr::Trainer a = run(7, s), b = run(7, s), other = run(8, s);
    const auto ta = a.model().params.named_tensors();
    const auto tb = b.model().params.named_tensors();
    const auto to = other.model().params.named_tensors();
    bool all_same = true, any_other = false;
    for (size_t i = 0; i < ta.size(); ++i) {
      const size_t bytes = sizeof(float) * static_cast<size_t>(ta[i].second->size());
      all_same = all_same && std::memcmp(ta[i].second->data(), tb[i].second->data(), bytes) == 0;
      any_other = any_other || std::memcmp(ta[i].second->data(), to[i].second->data(), bytes) != 0;
    }
    EXPECT_TRUE(all_same) << attn::scheme_name(s);
    EXPECT_TRUE(any_other) << attn::scheme_name(s);
    EXPECT_EQ(a.last_loss(), b.last_loss());
    EXPECT_EQ(a.steps(), 60);
  }
}

TEST(TrainResults, TrainersSharingOnePreparedDataSetTrainAsOnesThatPrepareTheirOwn) {
  const auto shared = std::make_shared<const tr::TrainingData>(data());
  ASSERT_EQ(shared->train_ids.size(), data().train.size());
  EXPECT_EQ(shared->train_ids[5], shared->vocab.encode(data().train[5].text));
  tr::Trainer own(config(Scheme::Rope, 4), {}, data());
  tr::Trainer a(config(Scheme::Rope, 4), {}, shared), b(config(Scheme::Sinusoidal, 4), {}, shared);
  EXPECT_EQ(shared.use_count(), 3);  // a, b and this test: the set is not copied
  EXPECT_EQ(a.vocab().size(), own.vocab().size());
  own.train(30);
  a.train(30);
  b.train(30);
  EXPECT_EQ(a.last_loss(), own.last_loss());
  const auto mine = own.model().params.named_tensors();
  const auto theirs = a.model().params.named_tensors();
  ASSERT_EQ(mine.size(), theirs.size());
  for (size_t i = 0; i < mine.size(); ++i) {
    EXPECT_EQ(*mine[i].second, *theirs[i].second) << mine[i].first;
  }
  const tr::Metrics m = a.evaluate(), n = own.evaluate();
  EXPECT_EQ(m.train_accuracy, n.train_accuracy);
  EXPECT_EQ(m.test_loss, n.test_loss);
  EXPECT_NE(b.last_loss(), a.last_loss());  // the other trainer on the set trains its own model
}

TEST(TrainResults, TrainerChecksItsConfig) {
  tr::ModelConfig c = config(Scheme::Sinusoidal, 1);
  c.classes = 3;
  EXPECT_THROW(tr::Trainer(c, {}, data()), attn::InputError);
  tr::TrainConfig bad;
  bad.batch = 0;
  EXPECT_THROW(tr::Trainer(config(Scheme::Sinusoidal, 1), bad, data()), attn::InputError);
  bad = {};
  bad.learning_rate = -1;
  EXPECT_THROW(tr::Trainer(config(Scheme::Sinusoidal, 1), bad, data()), attn::InputError);
}

}  // namespace
