// multi_head against the float64 reference, with PyTorch's fused QKV layout, on many shapes and options.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "core/error.hpp"
#include "reference.hpp"

namespace {

struct Case {
  int d_model, heads, tokens;
  bool causal;
  attn::Scheme scheme;
  std::vector<int> position_ids;
};

std::string name(const Case& c) {
  return "D " + std::to_string(c.d_model) + ", H " + std::to_string(c.heads) + ", T " +
         std::to_string(c.tokens) + (c.causal ? ", causal, " : ", ") + attn::scheme_name(c.scheme) +
         (c.position_ids.empty() ? "" : ", custom position ids");
}

}  // namespace

TEST(MultiHead, MatchesTheReferenceOnRandomShapes) {
  const std::vector<Case> cases = {
      {8, 2, 5, false, attn::Scheme::None, {}},
      {12, 3, 7, true, attn::Scheme::None, {}},
      {16, 4, 1, false, attn::Scheme::Rope, {}},
      {16, 4, 9, true, attn::Scheme::Rope, {}},
      {20, 4, 6, false, attn::Scheme::Rope, {}},  // d_k = 5: odd RoPE width
      {32, 8, 6, false, attn::Scheme::Alibi, {}},
      {24, 6, 10, true, attn::Scheme::Alibi, {}},
      {64, 8, 16, true, attn::Scheme::Rope, {}},
      {6, 1, 4, false, attn::Scheme::Alibi, {}},
      {64, 1, 3, false, attn::Scheme::None, {}},
      {9, 3, 4, false, attn::Scheme::Rope, {12, 5, 300, 6}},
      {8, 4, 5, true, attn::Scheme::Alibi, {2, 4, 8, 16, 32}},
  };
  std::uint64_t seed = 500;
  for (const Case& c : cases) {
    SCOPED_TRACE(name(c));
    seed += 10;
    const ref::MatD x = ref::random_matrix(c.tokens, c.d_model, seed);
    const attn::MhaWeights w = ref::random_mha_weights(c.d_model, c.heads, seed + 1);
    attn::AttentionOptions opt;
    opt.causal = c.causal;
    opt.positions = c.scheme;
    opt.position_ids = c.position_ids;
    const attn::MhaResult got = attn::multi_head(ref::to_float(x), w, opt);
    const ref::Mha want = ref::multi_head(x, ref::to_double(w.w_qkv), ref::to_double(w.w_o), c.heads, opt);
    EXPECT_ALLCLOSE(got.output, want.output);
    EXPECT_ALLCLOSE(got.concat, want.concat);
    ASSERT_EQ(got.head.size(), static_cast<size_t>(c.heads));
    for (int h = 0; h < c.heads; ++h) {
      SCOPED_TRACE("head " + std::to_string(h));
      EXPECT_ALLCLOSE(got.head[static_cast<size_t>(h)].output, want.heads[static_cast<size_t>(h)].output);
      EXPECT_ALLCLOSE(got.head[static_cast<size_t>(h)].scores, want.heads[static_cast<size_t>(h)].scores);
      EXPECT_ALLCLOSE(got.head[static_cast<size_t>(h)].weights, want.heads[static_cast<size_t>(h)].weights);
    }
  }
}

TEST(MultiHead, HeadHReadsItsOwnColumnsOfTheQKVBlocks) {
  // Each head equals single_head on its slices: Q cols h*d_k.., K cols D + h*d_k.., V cols 2D + h*d_k..
  const int d = 12, heads = 3, dk = 4;
  const attn::Mat x = ref::to_float(ref::random_matrix(5, d, 41));
  const attn::MhaWeights w = ref::random_mha_weights(d, heads, 42);
  const attn::AttentionOptions opt;
  const attn::MhaResult got = attn::multi_head(x, w, opt);
  for (int h = 0; h < heads; ++h) {
    const attn::Mat wq = w.w_qkv.block(0, h * dk, d, dk);
    const attn::Mat wk = w.w_qkv.block(0, d + h * dk, d, dk);
    const attn::Mat wv = w.w_qkv.block(0, 2 * d + h * dk, d, dk);
    const attn::HeadResult one = attn::single_head(x, wq, wk, wv, opt);
    EXPECT_ALLCLOSE(got.head[static_cast<size_t>(h)].weights, one.weights) << "head " << h;
    EXPECT_ALLCLOSE(got.concat.block(0, h * dk, 5, dk), one.output) << "head " << h;
  }
}

TEST(MultiHead, ConcatTimesWoIsTheOutput) {
  const attn::Mat x = ref::to_float(ref::random_matrix(4, 8, 51));
  const attn::MhaWeights w = ref::random_mha_weights(8, 2, 52);
  const attn::MhaResult got = attn::multi_head(x, w, attn::AttentionOptions{});
  EXPECT_ALLCLOSE(got.output, ref::matmul(ref::to_double(got.concat), ref::to_double(w.w_o)));
}

TEST(MultiHead, RopeWeightsDependOnlyOnRelativePositions) {
  const attn::Mat x = ref::to_float(ref::random_matrix(6, 16, 61));
  const attn::MhaWeights w = ref::random_mha_weights(16, 2, 62);
  attn::AttentionOptions a, b;
  a.positions = b.positions = attn::Scheme::Rope;
  b.position_ids = {100, 101, 102, 103, 104, 105};
  const attn::MhaResult ra = attn::multi_head(x, w, a), rb = attn::multi_head(x, w, b);
  EXPECT_ALLCLOSE(ra.output, rb.output);
  EXPECT_ALLCLOSE(ra.head[1].weights, rb.head[1].weights);
}

TEST(MhaWeights, RandomHasTheDocumentedShapesAndScale) {
  const attn::MhaWeights w = attn::MhaWeights::random(64, 8, 9);
  EXPECT_EQ(w.heads, 8);
  EXPECT_EQ(w.d_model(), 64);
  ASSERT_EQ(w.w_qkv.rows(), 64);
  ASSERT_EQ(w.w_qkv.cols(), 192);
  ASSERT_EQ(w.w_o.rows(), 64);
  ASSERT_EQ(w.w_o.cols(), 64);
  const double n = static_cast<double>(w.w_qkv.size());
  const double mean = w.w_qkv.cast<double>().sum() / n;
  const double sd = std::sqrt((w.w_qkv.cast<double>().array() - mean).square().sum() / n);
  EXPECT_NEAR(sd, 1.0 / 8.0, 0.05 / 8.0);  // std 1/sqrt(D)
  const attn::MhaWeights same = attn::MhaWeights::random(64, 8, 9),
                         other = attn::MhaWeights::random(64, 8, 10);
  EXPECT_TRUE(same.w_qkv == w.w_qkv && same.w_o == w.w_o);
  EXPECT_FALSE(other.w_qkv == w.w_qkv);
}

TEST(MhaSteps, ALongTextInRowBlocksMatchesTheReferenceStepByStep) {
  // 300 tokens: three 128-row blocks of the QKV projection and of W_O, one head per step
  const int t = 300, d = 16, heads = 4;
  const ref::MatD x = ref::random_matrix(t, d, 71);
  const attn::MhaWeights w = ref::random_mha_weights(d, heads, 72);
  attn::AttentionOptions opt;
  opt.causal = true;
  const attn::Mat xf = ref::to_float(x);
  attn::MhaSteps steps(xf, w, opt, attn::kStepRows);
  EXPECT_EQ(steps.steps_total(), 2 * 3 + heads);
  int taken = 0;
  while (!steps.done()) {
    steps.step();
    EXPECT_EQ(steps.steps_done(), ++taken);
  }
  const attn::MhaResult got = steps.take();
  const ref::Mha want = ref::multi_head(x, ref::to_double(w.w_qkv), ref::to_double(w.w_o), heads, opt);
  EXPECT_ALLCLOSE(got.output, want.output);
  EXPECT_ALLCLOSE(got.concat, want.concat);
  for (int h = 0; h < heads; ++h)
    EXPECT_ALLCLOSE(got.head[static_cast<size_t>(h)].weights, want.heads[static_cast<size_t>(h)].weights);
  // multi_head projects all rows at once: the same bits
  const attn::MhaResult whole = attn::multi_head(xf, w, opt);
  EXPECT_TRUE((whole.output.array() == got.output.array()).all());
}

TEST(MhaSteps, TakingBeforeTheLastStepIsAnError) {
  const attn::Mat x = ref::to_float(ref::random_matrix(4, 8, 81));
  const attn::MhaWeights w = ref::random_mha_weights(8, 2, 82);
  attn::MhaSteps steps(x, w, attn::AttentionOptions{});
  steps.step();
  EXPECT_THROW(steps.take(), attn::InputError);
}
