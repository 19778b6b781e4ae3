// The encoder block against the float64 reference, every intermediate, and normalised output rows.
#include <gtest/gtest.h>

#include <string>

#include "allclose.hpp"
#include "core/encoder.hpp"
#include "reference.hpp"

namespace {

void expect_matches_reference(const attn::EncoderWeights& w, const ref::MatD& x,
                              const attn::AttentionOptions& opt) {
  const attn::EncoderResult got = attn::encoder_block(ref::to_float(x), w, opt);
  const ref::Encoder want = ref::encoder_block(x, w, opt);
  EXPECT_ALLCLOSE(got.input, x);
  EXPECT_ALLCLOSE(got.mha.output, want.mha.output);
  EXPECT_ALLCLOSE(got.residual1, want.residual1);
  EXPECT_ALLCLOSE(got.norm1, want.norm1);
  EXPECT_ALLCLOSE(got.hidden, want.hidden);
  EXPECT_ALLCLOSE(got.ffn, want.ffn);
  EXPECT_ALLCLOSE(got.residual2, want.residual2);
  EXPECT_ALLCLOSE(got.output, want.output);
}

}  // namespace

TEST(Encoder, RandomWeightsHaveUnitGainsAndZeroBiases) {
  const attn::EncoderWeights w = attn::EncoderWeights::random(16, 4, 32, 5);
  EXPECT_EQ(w.d_ff(), 32);
  EXPECT_EQ(w.attention.heads, 4);
  EXPECT_TRUE(w.ln1_gain == attn::RowVec::Ones(16));
  EXPECT_TRUE(w.ln2_gain == attn::RowVec::Ones(16));
  EXPECT_TRUE(w.ln1_bias == attn::RowVec::Zero(16));
  EXPECT_TRUE(w.ln2_bias == attn::RowVec::Zero(16));
  ASSERT_EQ(w.w1.rows(), 16);
  ASSERT_EQ(w.w2.rows(), 32);
  ASSERT_EQ(w.w2.cols(), 16);
}

TEST(Encoder, MatchesTheReferenceOnSeveralShapes) {
  struct Case {
    int d, heads, d_ff, tokens;
    bool causal;
    attn::Scheme scheme;
  };
  for (const Case& c :
       {Case{8, 2, 16, 5, false, attn::Scheme::None}, Case{16, 4, 64, 7, true, attn::Scheme::Rope},
        Case{12, 3, 24, 4, false, attn::Scheme::Alibi}, Case{32, 8, 48, 1, false, attn::Scheme::None}}) {
    SCOPED_TRACE("D " + std::to_string(c.d) + ", H " + std::to_string(c.heads) + ", F " +
                 std::to_string(c.d_ff) + ", T " + std::to_string(c.tokens));
    const attn::EncoderWeights w = attn::EncoderWeights::random(c.d, c.heads, c.d_ff, 17);
    attn::AttentionOptions opt;
    opt.causal = c.causal;
    opt.positions = c.scheme;
    expect_matches_reference(w, ref::random_matrix(c.tokens, c.d, 18), opt);
  }
}

TEST(Encoder, UsesNonTrivialGainsBiasesAndFfnBiases) {
  attn::EncoderWeights w = attn::EncoderWeights::random(8, 2, 12, 3);
  w.ln1_gain = ref::to_float(ref::random_matrix(1, 8, 30, 2.0));
  w.ln1_bias = ref::to_float(ref::random_matrix(1, 8, 31));
  w.ln2_gain = ref::to_float(ref::random_matrix(1, 8, 32, 2.0));
  w.ln2_bias = ref::to_float(ref::random_matrix(1, 8, 33));
  w.b1 = ref::to_float(ref::random_matrix(1, 12, 34));
  w.b2 = ref::to_float(ref::random_matrix(1, 8, 35));
  expect_matches_reference(w, ref::random_matrix(6, 8, 36), attn::AttentionOptions{});
}

TEST(Encoder, OutputRowsHaveMeanZeroAndVarianceOne) {
  const attn::EncoderWeights w = attn::EncoderWeights::random(32, 4, 64, 21);
  const attn::EncoderResult r = attn::encoder_block(ref::to_float(ref::random_matrix(9, 32, 22, 2.0)), w, {});
  for (int i = 0; i < 9; ++i) {
    const Eigen::RowVectorXd row = r.output.row(i).cast<double>();
    const double mean = row.mean();
    const double var = (row.array() - mean).square().mean();
    EXPECT_NEAR(mean, 0.0, 1e-5) << "row " << i;
    EXPECT_NEAR(var, 1.0, 1e-3) << "row " << i;
  }
}
