// single_head and attend against the float64 reference: plain, causal, RoPE and ALiBi.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "reference.hpp"

namespace {

struct Case {
  int d_model, d_k, tokens;
  bool causal;
  attn::Scheme scheme;
};

std::string name(const Case& c) {
  return "D " + std::to_string(c.d_model) + ", d_k " + std::to_string(c.d_k) + ", T " +
         std::to_string(c.tokens) + (c.causal ? ", causal, " : ", ") + attn::scheme_name(c.scheme);
}

}  // namespace

TEST(SingleHead, MatchesTheReferenceOnRandomShapes) {
  const std::vector<Case> cases = {
      {8, 4, 3, false, attn::Scheme::None},   {8, 8, 6, true, attn::Scheme::None},
      {16, 5, 7, false, attn::Scheme::Rope},  {12, 6, 9, true, attn::Scheme::Rope},
      {10, 4, 5, false, attn::Scheme::Alibi}, {32, 16, 12, true, attn::Scheme::Alibi},
      {4, 3, 1, true, attn::Scheme::Rope},
  };
  std::uint64_t seed = 100;
  for (const Case& c : cases) {
    SCOPED_TRACE(name(c));
    const ref::MatD x = ref::random_matrix(c.tokens, c.d_model, ++seed);
    const ref::MatD wq = ref::random_matrix(c.d_model, c.d_k, ++seed, 0.5);
    const ref::MatD wk = ref::random_matrix(c.d_model, c.d_k, ++seed, 0.5);
    const ref::MatD wv = ref::random_matrix(c.d_model, c.d_k, ++seed, 0.5);
    attn::AttentionOptions opt;
    opt.causal = c.causal;
    opt.positions = c.scheme;
    const attn::HeadResult got =
        attn::single_head(ref::to_float(x), ref::to_float(wq), ref::to_float(wk), ref::to_float(wv), opt);
    // single_head is one head of one: ALiBi uses head 0 of 1.
    const ref::Head want = ref::attend(ref::matmul(x, wq), ref::matmul(x, wk), ref::matmul(x, wv), opt, 0, 1);
    EXPECT_ALLCLOSE(got.output, want.output);
    EXPECT_ALLCLOSE(got.scores, want.scores);
    EXPECT_ALLCLOSE(got.weights, want.weights);
  }
}

TEST(Attend, RopeWithExplicitPositionIdsAndCustomBase) {
  const ref::MatD q = ref::random_matrix(5, 8, 1), k = ref::random_matrix(5, 8, 2),
                  v = ref::random_matrix(5, 8, 3);
  attn::AttentionOptions opt;
  opt.positions = attn::Scheme::Rope;
  opt.rope_base = 300.0;
  opt.position_ids = {40, 3, 17, 900, 41};
  const attn::HeadResult got = attn::attend(ref::to_float(q), ref::to_float(k), ref::to_float(v), opt);
  const ref::Head want = ref::attend(q, k, v, opt, 0, 1);
  EXPECT_ALLCLOSE(got.scores, want.scores);
  EXPECT_ALLCLOSE(got.output, want.output);
}

TEST(Attend, AlibiUsesTheSlopeOfTheRequestedHead) {
  const ref::MatD q = ref::random_matrix(6, 4, 4), k = ref::random_matrix(6, 4, 5),
                  v = ref::random_matrix(6, 4, 6);
  attn::AttentionOptions opt;
  opt.positions = attn::Scheme::Alibi;
  for (int h = 0; h < 4; ++h) {
    const attn::HeadResult got =
        attn::attend(ref::to_float(q), ref::to_float(k), ref::to_float(v), opt, h, 4);
    EXPECT_ALLCLOSE(got.scores, ref::attend(q, k, v, opt, h, 4).scores) << "head " << h;
  }
}

TEST(Attend, SinusoidalDoesNothingInsideAttention) {
  // Only RoPE and ALiBi act inside attention; additive schemes are the caller's job.
  const attn::Mat q = ref::to_float(ref::random_matrix(4, 6, 7));
  const attn::Mat k = ref::to_float(ref::random_matrix(4, 6, 8));
  const attn::Mat v = ref::to_float(ref::random_matrix(4, 6, 9));
  attn::AttentionOptions none, sin;
  sin.positions = attn::Scheme::Sinusoidal;
  EXPECT_TRUE(attn::attend(q, k, v, none).output == attn::attend(q, k, v, sin).output);
}
