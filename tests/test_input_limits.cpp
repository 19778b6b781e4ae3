// Limits on untrusted input: JSON nesting, one-line echoes, capped reads, a tokenizer that keeps only what
// it needs, weight caps, the work caps, and results that overflow float32 reported as errors (never silent
// NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <streambuf>
#include <string>

#include "core/attention.hpp"
#include "core/encoder.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "core/ops.hpp"
#include "core/positions.hpp"
#include "core/rng.hpp"
#include "core/tokenizer.hpp"

namespace {

using attn::InputError;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(InputLimits, JsonDepthIsCheckedOutsideStrings) {
  EXPECT_NO_THROW(attn::require_json_depth(std::string(64, '[') + std::string(64, ']'), "x"));
  EXPECT_THROW(attn::require_json_depth(std::string(65, '[') + std::string(65, ']'), "x"), InputError);
  EXPECT_THROW(attn::require_json_depth(std::string(200000, '{'), "x"), InputError);  // unclosed too
  // brackets inside strings, with escaped quotes, do not count
  EXPECT_NO_THROW(attn::require_json_depth(
      "{\"a\": \"" + std::string(100, '[') + "\\\"" + std::string(100, '{') + "\"}", "x"));
  try {
    attn::require_json_depth(std::string(70, '['), "the input");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "the input nests")) << e.what();
    EXPECT_TRUE(has(e.what(), "64")) << e.what();
  }
}

TEST(InputLimits, EchoesStayOnOneLine) {
  EXPECT_EQ(attn::one_line("a\nerror: forged\r\tx\x01"), "a\\nerror: forged\\r\\tx\\x01");
  EXPECT_EQ(attn::one_line(std::string(300, 'z'), 10), std::string(10, 'z') + "...");
  EXPECT_EQ(attn::one_line("caf\xC3\xA9 \xE2\x82\xB9"), "caf\xC3\xA9 \xE2\x82\xB9");  // UTF-8 kept
}

// An endless stream of zero bytes, like /dev/zero.
class Zeros : public std::streambuf {
 public:
  Zeros() { setg(buf_, buf_, buf_ + sizeof buf_); }

 protected:
  int_type underflow() override {
    setg(buf_, buf_, buf_ + sizeof buf_);
    return 0;
  }

 private:
  char buf_[4096] = {};
};

TEST(InputLimits, ReadsAreCappedEvenForEndlessStreams) {
  Zeros zeros;
  std::istream endless(&zeros);
  try {
    attn::read_capped(endless, "the input on stdin");
    FAIL() << "read an endless stream";
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "larger than 64 MiB")) << e.what();
  }
  std::istringstream small("{\"x\": 1}");
  EXPECT_EQ(attn::read_capped(small, "x"), "{\"x\": 1}");
  EXPECT_THROW(attn::read_file_capped("/", "the input file"), InputError);  // a folder
  EXPECT_THROW(attn::read_file_capped("/no/such/file", "the input file"), InputError);
}

TEST(InputLimits, TokenizerKeepsOnlyWhatItIsAskedFor) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "w" + std::to_string(i) + (i % 7 == 0 ? "! " : " ");
  const std::vector<std::string> all = attn::tokenize(text);
  std::size_t total = 0;
  const std::vector<std::string> first = attn::tokenize(text, 1024, &total);
  EXPECT_EQ(total, all.size());
  ASSERT_EQ(first.size(), 1024u);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), all.begin()));
  // a joiner after the cut does not glue onto the last kept token
  std::size_t n = 0;
  const auto two = attn::tokenize("a b c\u200D\xF0\x9F\x98\x80", 2, &n);
  EXPECT_EQ(two, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(n, 3u);
  // invalid UTF-8 past the cut is still an error
  EXPECT_THROW(attn::tokenize("a b c \xFF", 1), InputError);
}

TEST(InputLimits, WeightsAreCapped) {
  EXPECT_THROW(attn::MhaWeights::random(4096, 8, 1), InputError);  // 4 x 4096^2 = 67 M weights
  EXPECT_NO_THROW(attn::MhaWeights::random(1024, 8, 1));
  EXPECT_THROW(attn::Learned(65536, 1024, 1), InputError);
  EXPECT_THROW(attn::EncoderWeights::random(2048, 8, 8192, 1), InputError);
}

TEST(InputLimits, OverflowingResultsAreErrorsNotNaN) {
  // weights of 1e20: the scores overflow float32
  const attn::Mat x = attn::Mat::Constant(3, 4, 1.0f);
  attn::MhaWeights w = attn::MhaWeights::random(4, 2, 1);
  w.w_qkv.setConstant(1e20f);
  try {
    attn::multi_head(x, w, {});
    FAIL() << "an overflowing attention layer returned a result";
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "overflowed float32")) << e.what();
  }
}

// A causal head reads the scores on and below the diagonal only (the rest are masked to -inf): an
// overflow above it is no error, one on or below it is.
TEST(InputLimits, ACausalHeadChecksTheScoresItReads) {
  attn::Mat q = attn::Mat::Ones(3, 2), k = attn::Mat::Ones(3, 2);
  const attn::Mat v = attn::Mat::Ones(3, 2);
  q.row(0).setConstant(1e20f);
  k.row(2).setConstant(1e20f);  // score (0, 2) = 2e40 / sqrt(2) overflows; every other one is finite
  attn::AttentionOptions causal;
  causal.causal = true;
  const attn::HeadResult r = attn::attend(q, k, v, causal);
  EXPECT_TRUE(r.weights.allFinite());
  EXPECT_EQ(r.weights(0, 0), 1.0f) << "the first query reads only the first key";
  const auto overflows = [&](const attn::AttentionOptions& opt, const char* what) {
    try {
      attn::attend(q, k, v, opt);
      ADD_FAILURE() << what << ": an overflowing score was read without an error";
    } catch (const InputError& e) {
      EXPECT_TRUE(has(e.what(), "overflowed float32")) << e.what();
    }
  };
  overflows({}, "not causal");
  k.row(2).setOnes();
  q.row(1).setConstant(1e20f);
  k.row(1).setConstant(1e20f);  // now (0, 1) above the diagonal overflows and (1, 1) on it, which is read
  overflows(causal, "causal, on the diagonal");
}

TEST(InputLimits, LayerNormOfHugeValuesIsExact) {
  // a float sum of 3e38 + 3e38 overflows; the mean and variance are summed in double
  attn::Mat x(2, 4);
  x << 3e38f, -3e38f, 1.0f, 2.0f, 3e38f, 3e38f, 3e38f, 3e38f;
  const attn::Mat gain = attn::Mat::Ones(1, 4), bias = attn::Mat::Zero(1, 4);
  attn::Mat y, xhat, rstd;
  attn::ops::layer_norm_forward(x, gain, bias, y, xhat, rstd);
  ASSERT_TRUE(y.allFinite());
  // independent float64: row 0 has mean ~0 and standard deviation 3e38 / sqrt(2)
  double m = 0, v = 0;
  for (int c = 0; c < 4; ++c) m += static_cast<double>(x(0, c)) / 4;
  for (int c = 0; c < 4; ++c) v += std::pow(static_cast<double>(x(0, c)) - m, 2) / 4;
  for (int c = 0; c < 4; ++c) {
    const double want = (static_cast<double>(x(0, c)) - m) / std::sqrt(v + 1e-5);
    EXPECT_NEAR(y(0, c), want, 1e-6 + 1e-5 * std::fabs(want)) << "column " << c;
  }
  for (int c = 0; c < 4; ++c) EXPECT_EQ(y(1, c), 0.0f) << "a constant row standardises to 0";
}

// The work caps count what the core really prints and holds: every matrix an encoder block or a head
// returns, at the widths given (a w_v wider than w_q, a w1 wider than 4 x d_model).
TEST(InputLimits, WorkCountsAreTheSizesTheCoreReturns) {
  attn::Rng rng(3);
  const int t = 5, d = 4, heads = 2, d_ff = 19;
  const attn::Mat x = rng.normal_matrix(t, d, 1.0f);
  const attn::EncoderWeights w = attn::EncoderWeights::random(d, heads, d_ff, 9);
  const attn::EncoderResult r = attn::encoder_block(x, w, {});
  long long printed = r.input.size() + r.mha.output.size() + r.residual1.size() + r.norm1.size() +
                      r.hidden.size() + r.ffn.size() + r.residual2.size() + r.output.size();
  for (const auto& h : r.mha.head) printed += h.weights.size();
  const attn::WorkCount block = attn::block_work(t, d, heads, d_ff);
  EXPECT_EQ(block.printed, printed);
  EXPECT_EQ(block.weights, w.attention.w_qkv.size() + w.attention.w_o.size() + w.w1.size() + w.b1.size() +
                               w.w2.size() + w.b2.size() + w.ln1_gain.size() + w.ln1_bias.size() +
                               w.ln2_gain.size() + w.ln2_bias.size());
  EXPECT_GE(block.computed, printed - r.input.size());  // every result but the input is computed

  const int d_q = 3, d_v = 7;
  const attn::Mat w_q = rng.normal_matrix(d, d_q, 0.5f), w_k = rng.normal_matrix(d, d_q, 0.5f);
  const attn::Mat w_v = rng.normal_matrix(d, d_v, 0.5f);
  const attn::HeadResult h = attn::single_head(x, w_q, w_k, w_v, {});
  const attn::WorkCount head = attn::single_head_work(2, t, d, d_q, d_q, d_v);  // two items of x
  EXPECT_EQ(head.printed, 2 * (h.weights.size() + h.output.size()));
  EXPECT_EQ(head.computed,
            2 * (t * (d_q + d_q + d_v) + h.scores.size() + h.weights.size() + h.output.size()));
  EXPECT_EQ(head.weights, w_q.size() + w_k.size() + w_v.size());
}

TEST(InputLimits, WorkCapsNameTheFigureAndTheLimit) {
  EXPECT_NO_THROW(attn::require_within_caps(attn::single_head_work(1, 1024, 1, 1, 1, 3000), "x"));
  try {  // the 100,000-wide w_v: 103,448,576 numbers to print
    attn::require_within_caps(attn::single_head_work(1, 1024, 1, 1, 1, 100000), "the output");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "would print 103448576 numbers for the output")) << e.what();
    EXPECT_TRUE(has(e.what(), "up to 4194304")) << e.what();
  }
  try {  // w_q and w_k 100,000 wide: little to print, 207 million numbers to compute
    attn::require_within_caps(attn::single_head_work(1, 1024, 1, 100000, 100000, 1), "the output");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "would compute 206899200 numbers")) << e.what();
    EXPECT_TRUE(has(e.what(), "up to 16777216")) << e.what();
  }
  try {  // one token through a 4096-wide block: 4 x 4096^2 + 2 x 4096 x 16 + 16 + 5 x 4096 weights
    attn::require_within_caps(attn::block_work(1, 4096, 1, 16), "x");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "the layer would have 67260432 weights; allowed: up to 16777216")) << e.what();
  }
}

}  // namespace
