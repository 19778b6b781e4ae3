// Tests of the scenes' pipeline: text -> embeddings (+ positions) -> seeded attention, and its encoder twin.
#include <gtest/gtest.h>

#include <limits>
#include <memory>

#include "allclose.hpp"
#include "core/error.hpp"
#include "core/pipeline.hpp"
#include "core/rng.hpp"
#include "core/tokenizer.hpp"
#include "fixtures.hpp"
#include "reference.hpp"

namespace {

const char* kEmail = "Refund my eggless cake, it was cold.";

TEST(Pipeline, EqualsTheLayerComposedByHand) {
  for (attn::Scheme scheme : attn::pipeline_schemes()) {
    attn::PipelineConfig c = fx::pipeline_config(16, 4, scheme);
    c.causal = scheme == attn::Scheme::Alibi;
    const attn::PipelineResult r = attn::run_pipeline(kEmail, c);
    ASSERT_EQ(r.tokens.size(), 9u);
    // the inputs: embeddings plus the additive table (sinusoidal checked against the reference)
    EXPECT_TRUE(ref::allclose(r.embeddings, attn::embed_tokens(r.tokens, 16, c.seed), 0, 0));
    if (scheme == attn::Scheme::Sinusoidal) {
      EXPECT_TRUE(ref::allclose(r.inputs - r.embeddings, ref::sinusoidal(ref::iota(9), 16)));
    }
    // every head against the float64 reference on the same inputs and weights
    const attn::MhaWeights w =
        attn::MhaWeights::random(16, 4, attn::mix_seed(c.seed, 22), attn::kSceneWeightGain);
    attn::AttentionOptions opt;
    opt.causal = c.causal;
    opt.positions = attn::scheme_def(scheme).added ? attn::Scheme::None : scheme;  // the rest acts inside
    const ref::Mha want =
        ref::multi_head(ref::to_double(r.inputs), ref::to_double(w.w_qkv), ref::to_double(w.w_o), 4, opt);
    EXPECT_TRUE(ref::allclose(r.mha.output, want.output)) << attn::scheme_name(scheme);
    for (int h = 0; h < 4; ++h) EXPECT_TRUE(ref::allclose(r.mha.head[h].weights, want.heads[h].weights));
    ASSERT_EQ(r.stats.size(), 4u);
  }
}

TEST(Pipeline, StepsAdvanceTheProgressAndGiveTheSameResult) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += i % 3 ? "cake " : "refund ";
  const attn::PipelineConfig c = fx::pipeline_config(16, 4, attn::Scheme::Sinusoidal);
  attn::PipelineSteps steps(text, c, nullptr, attn::kStepRows);
  float last = steps.progress();
  EXPECT_EQ(last, 0.0f);
  int n = 0;
  while (!steps.done()) {
    steps.step();
    EXPECT_GT(steps.progress(), last) << "step " << n;
    last = steps.progress();
    ++n;
  }
  EXPECT_EQ(last, 1.0f);
  EXPECT_EQ(n, 2 * 2 + 4 + 4);  // QKV and W_O in two row blocks each, 4 heads, 4 heads' statistics
  const attn::PipelineResult got = steps.take(), whole = attn::run_pipeline(text, c);
  ASSERT_EQ(got.tokens.size(), 200u);
  EXPECT_TRUE(ref::allclose(got.mha.output, whole.mha.output, 0, 0));
  ASSERT_EQ(got.stats.size(), 4u);
  EXPECT_EQ(got.stats[3].entropy, whole.stats[3].entropy);
}

// Several workers share a recompute: each runs a span of the heads; the heads, their statistics and the
// output rows made from the joined heads (mha_output_rows, in row blocks) are run_pipeline's to the bit.
TEST(Pipeline, SpansOfTheHeadsJoinToTheWholeResult) {
  std::string text;
  for (int i = 0; i < 150; ++i) text += i % 4 ? "cake " : "not ";
  for (attn::Scheme scheme : attn::pipeline_schemes()) {
    SCOPED_TRACE(attn::scheme_name(scheme));
    attn::PipelineConfig c = fx::pipeline_config(24, 6, scheme);
    c.causal = scheme != attn::Scheme::Sinusoidal;
    c.learned_slots = 256;
    const attn::PipelineResult whole = attn::run_pipeline(text, c);
    const auto weights = std::make_shared<const attn::MhaWeights>(attn::scene_weights(c));
    attn::Mat concat = attn::Mat::Zero(150, 24);  // (T, D)
    for (const attn::HeadSpan span : {attn::HeadSpan{0, 2}, attn::HeadSpan{2, 5}, attn::HeadSpan{5, -1}}) {
      attn::PipelineSteps steps(text, c, weights, attn::kStepRows, span);
      float last = steps.progress();
      while (!steps.done()) {
        steps.step();
        EXPECT_GT(steps.progress(), last);
        last = steps.progress();
      }
      EXPECT_EQ(last, 1.0f);
      const attn::PipelineResult part = steps.take();
      EXPECT_TRUE(part.inputs == whole.inputs);
      EXPECT_EQ(part.mha.output.size(), 0);
      ASSERT_EQ(part.mha.head.size(), 6u);
      const int end = span.end_of(6);
      ASSERT_EQ(part.stats.size(), static_cast<size_t>(end - span.begin));
      for (int h = span.begin; h < end; ++h) {
        const auto hs = static_cast<size_t>(h);
        EXPECT_TRUE(part.mha.head[hs].weights == whole.mha.head[hs].weights) << "head " << h;
        EXPECT_TRUE(part.mha.head[hs].output == whole.mha.head[hs].output) << "head " << h;
        EXPECT_EQ(part.stats[hs - static_cast<size_t>(span.begin)].entropy, whole.stats[hs].entropy);
        EXPECT_EQ(part.stats[hs - static_cast<size_t>(span.begin)].peak_keys, whole.stats[hs].peak_keys);
        concat.middleCols(h * 4, 4) = part.mha.head[hs].output;
      }
    }
    EXPECT_TRUE(concat == whole.mha.concat);
    attn::Mat output(150, 24);
    output.topRows(100) = attn::mha_output_rows(concat, *weights, 0, 100);
    output.bottomRows(50) = attn::mha_output_rows(concat, *weights, 100, 50);
    EXPECT_TRUE(output == whole.mha.output);
  }
}

TEST(Pipeline, OutputRowsRejectRowsOutsideAndNonFiniteHeads) {
  const attn::PipelineConfig c = fx::pipeline_config(8, 2, attn::Scheme::None);
  const attn::MhaWeights w = attn::scene_weights(c);
  attn::Mat concat = attn::Mat::Ones(3, 8);
  EXPECT_TRUE(fx::throws_input_error_saying([&] { attn::mha_output_rows(concat, w, 2, 2); }, "do not fit"));
  EXPECT_TRUE(fx::throws_input_error_saying([&] { attn::mha_output_rows(concat.leftCols(4), w, 0, 1); },
                                            "do not fit"));
  concat(1, 3) = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(
      fx::throws_input_error_saying([&] { attn::mha_output_rows(concat, w, 0, 3); }, "the attention output"));
  EXPECT_EQ(attn::mha_output_rows(concat, w, 2, 1).rows(), 1);
}

TEST(Pipeline, CutsLongTextAndRejectsBadInput) {
  std::string long_text;
  for (int i = 0; i < 1100; ++i) long_text += "cake ";
  attn::PipelineConfig c;
  const attn::PipelineResult r = attn::run_pipeline(long_text, c);
  EXPECT_EQ(r.tokens.size(), static_cast<size_t>(attn::kMaxTokens));
  EXPECT_EQ(r.dropped_tokens, 1100 - attn::kMaxTokens);
  EXPECT_THROW(attn::run_pipeline("", c), attn::InputError);
  EXPECT_THROW(attn::run_pipeline("  \n ", c), attn::InputError);
  c.d_model = 512;
  c.heads = 6;
  EXPECT_THROW(attn::run_pipeline(kEmail, c), attn::InputError);
  c = attn::PipelineConfig{};
  c.positions = attn::Scheme::Learned;
  c.learned_slots = 4;
  ASSERT_TRUE(fx::throws_input_error_saying([&] { attn::run_pipeline(kEmail, c); }, "4 slots"))
      << "a 9-token text must not fit a 4-slot learned table";
  c.positions = attn::Scheme::Raw;
  EXPECT_THROW(attn::run_pipeline(kEmail, c), attn::InputError);
}

TEST(Pipeline, EncoderTwinUsesTheSameInputs) {
  const attn::PipelineConfig c = fx::pipeline_config(8, 2, attn::Scheme::Sinusoidal);
  const attn::EncoderPipelineResult e = attn::run_encoder_pipeline(kEmail, c, 32);
  const attn::PipelineResult p = attn::run_pipeline(kEmail, c);
  EXPECT_TRUE(ref::allclose(e.block.input, p.inputs, 0, 0));
  EXPECT_EQ(e.block.hidden.cols(), 32);
  const attn::EncoderWeights w = attn::EncoderWeights::random(8, 2, 32, attn::mix_seed(c.seed, 23));
  const ref::Encoder want = ref::encoder_block(ref::to_double(p.inputs), w, attn::AttentionOptions{});
  EXPECT_TRUE(ref::allclose(e.block.output, want.output, 1e-4, 1e-4));
}

}  // namespace
