// shuffle_study against the float64 reference: no positions and word-attached positions keep the shuffle
// test's allclose true, positions that belong to slots make it false.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/error.hpp"
#include "core/pipeline.hpp"
#include "core/rng.hpp"
#include "core/shuffle.hpp"
#include "core/tokenizer.hpp"
#include "fixtures.hpp"
#include "reference.hpp"

namespace {

const std::vector<std::string> kTokens = attn::tokenize("Refund my eggless cake, it was cold.");  // 9 tokens
const std::vector<int> kPerm = {2, 0, 1, 4, 3, 8, 5, 7, 6};

attn::PipelineConfig config(attn::Scheme s) {
  return fx::pipeline_config(16, 4, s, 11);
}

// The reference layer with the pipeline's seeded weights: x (T, D) -> output (T, D).
ref::MatD layer(const attn::PipelineConfig& c, const ref::MatD& x, const attn::AttentionOptions& opt) {
  const attn::MhaWeights w =
      attn::MhaWeights::random(c.d_model, c.heads, attn::mix_seed(c.seed, 22), attn::kSceneWeightGain);
  return ref::multi_head(x, ref::to_double(w.w_qkv), ref::to_double(w.w_o), c.heads, opt).output;
}

ref::MatD embeddings(const attn::PipelineConfig& c) {
  return ref::to_double(attn::embed_tokens(kTokens, c.d_model, c.seed));
}

}  // namespace

TEST(Shuffle, TokensAndTheirNewOrder) {
  const attn::ShuffleStudy s = attn::shuffle_study(kTokens, config(attn::Scheme::Sinusoidal), kPerm);
  EXPECT_EQ(s.tokens, kTokens);
  ASSERT_EQ(s.shuffled.size(), kTokens.size());
  for (size_t i = 0; i < kPerm.size(); ++i) EXPECT_EQ(s.shuffled[i], kTokens[static_cast<size_t>(kPerm[i])]);
  EXPECT_EQ(s.perm, kPerm);
  EXPECT_EQ(s.scheme, attn::Scheme::Sinusoidal);
}

TEST(Shuffle, OriginalIsThePipelineOutput) {
  const attn::PipelineConfig c = config(attn::Scheme::Sinusoidal);
  const attn::ShuffleStudy s = attn::shuffle_study(kTokens, c, kPerm);
  attn::PipelineConfig plain = c;
  plain.positions = attn::Scheme::None;
  EXPECT_EQ(s.none.original, attn::run_pipeline(kTokens, plain).mha.output);
  EXPECT_EQ(s.slots.original, attn::run_pipeline(kTokens, c).mha.output);
  EXPECT_EQ(s.words.original, s.slots.original);
}

TEST(Shuffle, WithoutPositionsTheOutputsAreTheOriginalOnesPermuted) {
  const attn::PipelineConfig c = config(attn::Scheme::Sinusoidal);
  const attn::ShuffleStudy s = attn::shuffle_study(kTokens, c, kPerm);
  const attn::AttentionOptions opt;
  const ref::MatD original = layer(c, embeddings(c), opt);
  EXPECT_ALLCLOSE(s.none.original, original);
  EXPECT_ALLCLOSE(s.none.expected, ref::permute_rows(original, kPerm));
  EXPECT_ALLCLOSE(s.none.shuffled, layer(c, ref::permute_rows(embeddings(c), kPerm), opt));
  EXPECT_TRUE(s.none.check.allclose);
  EXPECT_LT(s.none.check.max_diff, 1e-5f);
}

TEST(Shuffle, SlotPositionsMakeTheNewOrderVisible) {
  const attn::PipelineConfig c = config(attn::Scheme::Sinusoidal);
  const attn::ShuffleStudy s = attn::shuffle_study(kTokens, c, kPerm);
  const attn::AttentionOptions opt;
  const ref::MatD pos = ref::sinusoidal(ref::iota(9), c.d_model);
  const ref::MatD original = layer(c, embeddings(c) + pos, opt);
  const ref::MatD shuffled = layer(c, ref::permute_rows(embeddings(c), kPerm) + pos, opt);
  EXPECT_ALLCLOSE(s.slots.shuffled, shuffled);
  EXPECT_FALSE(s.slots.check.allclose);
  const double want = ref::max_abs_diff(shuffled, ref::permute_rows(original, kPerm));
  EXPECT_GT(want, 1e-3);
  EXPECT_NEAR(s.slots.check.max_diff, want, 1e-4);
}

TEST(Shuffle, PositionsAttachedToWordsHideTheNewOrderAgain) {
  for (attn::Scheme scheme : {attn::Scheme::Sinusoidal, attn::Scheme::Learned}) {
    const attn::PipelineConfig c = config(scheme);
    const attn::ShuffleStudy s = attn::shuffle_study(kTokens, c, kPerm);
    const ref::MatD x = embeddings(c) + ref::to_double(attn::additive_positions(c, 9));
    const attn::AttentionOptions opt;
    EXPECT_ALLCLOSE(s.words.shuffled, layer(c, ref::permute_rows(x, kPerm), opt))
        << attn::scheme_name(scheme);
    EXPECT_TRUE(s.words.check.allclose) << attn::scheme_name(scheme);
    EXPECT_FALSE(s.slots.check.allclose) << attn::scheme_name(scheme);
  }
}

TEST(Shuffle, RopeAndAlibiWordsCarryTheirOldPositionIds) {
  for (attn::Scheme scheme : {attn::Scheme::Rope, attn::Scheme::Alibi}) {
    const attn::PipelineConfig c = config(scheme);
    const attn::ShuffleStudy s = attn::shuffle_study(kTokens, c, kPerm);
    attn::AttentionOptions opt;
    opt.positions = scheme;
    const ref::MatD shuffled_x = ref::permute_rows(embeddings(c), kPerm);
    EXPECT_ALLCLOSE(s.slots.shuffled, layer(c, shuffled_x, opt)) << attn::scheme_name(scheme);
    opt.position_ids = kPerm;
    EXPECT_ALLCLOSE(s.words.shuffled, layer(c, shuffled_x, opt)) << attn::scheme_name(scheme);
    EXPECT_FALSE(s.slots.check.allclose) << attn::scheme_name(scheme);
    EXPECT_TRUE(s.words.check.allclose) << attn::scheme_name(scheme);
  }
}

TEST(Shuffle, TheIdentityChangesNothing) {
  const attn::ShuffleStudy s = attn::shuffle_study(kTokens, config(attn::Scheme::Sinusoidal), ref::iota(9));
  for (const attn::ShuffleCase* k : {&s.none, &s.slots, &s.words}) {
    EXPECT_TRUE(k->check.allclose);
    EXPECT_EQ(k->check.max_diff, 0.0f);
  }
}

TEST(Shuffle, BadInputIsAnInputError) {
  const attn::PipelineConfig c = config(attn::Scheme::Sinusoidal);
  EXPECT_THROW(attn::shuffle_study(kTokens, c, {2, 0, 1}), attn::InputError);
  EXPECT_THROW(attn::shuffle_study(kTokens, c, {0, 0, 1, 2, 3, 4, 5, 6, 7}), attn::InputError);
  EXPECT_THROW(attn::shuffle_study({}, c, {}), attn::InputError);
  attn::PipelineConfig bad = c;
  bad.heads = 3;
  EXPECT_THROW(attn::shuffle_study(kTokens, bad, kPerm), attn::InputError);
}
