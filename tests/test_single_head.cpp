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

// Queries, keys and values (T, d_k) in float64, each from random_matrix: q from seed, k from seed + 1, v from
// seed + 2.
struct Qkv {
  ref::MatD q, k, v;
};
Qkv random_qkv(int tokens, int d_k, std::uint64_t seed) {
  return {ref::random_matrix(tokens, d_k, seed), ref::random_matrix(tokens, d_k, seed + 1),
          ref::random_matrix(tokens, d_k, seed + 2)};
}

// attn::attend on the float copies of q, k, v (T, d_k) and ref::attend on q, k, v themselves, as head
// `head` of `heads`: each gives output (T, d_k), scores and weights (T, T).
struct Attended {
  attn::HeadResult got;
  ref::Head want;
};
Attended attend_both(const Qkv& in, const attn::AttentionOptions& opt, int head = 0, int heads = 1) {
  return {attn::attend(ref::to_float(in.q), ref::to_float(in.k), ref::to_float(in.v), opt, head, heads),
          ref::attend(in.q, in.k, in.v, opt, head, heads)};
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
  attn::AttentionOptions opt;
  opt.positions = attn::Scheme::Rope;
  opt.rope_base = 300.0;
  opt.position_ids = {40, 3, 17, 900, 41};
  const Attended r = attend_both(random_qkv(5, 8, 1), opt);
  EXPECT_ALLCLOSE(r.got.scores, r.want.scores);
  EXPECT_ALLCLOSE(r.got.output, r.want.output);
}

TEST(Attend, AlibiUsesTheSlopeOfTheRequestedHead) {
  const Qkv in = random_qkv(6, 4, 4);
  attn::AttentionOptions opt;
  opt.positions = attn::Scheme::Alibi;
  for (int h = 0; h < 4; ++h) {
    const Attended r = attend_both(in, opt, h, 4);
    EXPECT_ALLCLOSE(r.got.scores, r.want.scores) << "head " << h;
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
