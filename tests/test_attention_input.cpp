// Edge inputs to attention: no tokens, one token, non-finite numbers, mismatched shapes, too many tokens.
#include <gtest/gtest.h>

#include <limits>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "reference.hpp"

using attn::InputError;

namespace {
const attn::AttentionOptions kPlain{};
}

TEST(AttentionInput, NoTokensIsAnInputError) {
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 1);
  EXPECT_THROW(attn::multi_head(attn::Mat(0, 8), w, kPlain), InputError);
  const attn::Mat wq = ref::to_float(ref::random_matrix(8, 4, 2));
  EXPECT_THROW(attn::single_head(attn::Mat(0, 8), wq, wq, wq, kPlain), InputError);
}

TEST(AttentionInput, OneTokenGetsWeightExactlyOne) {
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 1);
  for (bool causal : {false, true}) {
    attn::AttentionOptions opt;
    opt.causal = causal;
    opt.positions = attn::Scheme::Alibi;
    const attn::MhaResult r = attn::multi_head(ref::to_float(ref::random_matrix(1, 8, 3)), w, opt);
    for (const attn::HeadResult& h : r.head) {
      ASSERT_EQ(h.weights.rows(), 1);
      ASSERT_EQ(h.weights.cols(), 1);
      EXPECT_EQ(h.weights(0, 0), 1.0f);
    }
  }
}

TEST(AttentionInput, NonFiniteInputIsAnInputError) {
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 1);
  const attn::Mat wq = ref::to_float(ref::random_matrix(8, 4, 2));
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    attn::Mat x = ref::to_float(ref::random_matrix(3, 8, 4));
    x(1, 5) = bad;
    EXPECT_THROW(attn::multi_head(x, w, kPlain), InputError) << bad;
    EXPECT_THROW(attn::single_head(x, wq, wq, wq, kPlain), InputError) << bad;
  }
}

TEST(AttentionInput, MismatchedShapesAreInputErrors) {
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 1);
  EXPECT_THROW(attn::multi_head(ref::to_float(ref::random_matrix(3, 6, 4)), w, kPlain), InputError);
  attn::MhaWeights bad = w;
  bad.w_qkv = ref::to_float(ref::random_matrix(8, 20, 5));  // not (D, 3D)
  EXPECT_THROW(attn::multi_head(ref::to_float(ref::random_matrix(3, 8, 4)), bad, kPlain), InputError);
  const attn::Mat wq = ref::to_float(ref::random_matrix(8, 4, 2));
  const attn::Mat wk_short = ref::to_float(ref::random_matrix(8, 3, 2));
  EXPECT_THROW(attn::single_head(ref::to_float(ref::random_matrix(3, 8, 4)), wq, wk_short, wq, kPlain),
               InputError);
}

TEST(AttentionInput, PositionIdsOfTheWrongCountAreAnInputError) {
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 1);
  attn::AttentionOptions opt;
  opt.positions = attn::Scheme::Rope;
  opt.position_ids = {0, 1};
  EXPECT_THROW(attn::multi_head(ref::to_float(ref::random_matrix(3, 8, 4)), w, opt), InputError);
}

TEST(AttentionInput, MoreThanMaxTokensIsAnInputError) {
  const attn::MhaWeights w = attn::MhaWeights::random(4, 1, 1);
  EXPECT_NO_THROW(attn::multi_head(ref::to_float(ref::random_matrix(attn::kMaxTokens, 4, 4)), w, kPlain));
  EXPECT_THROW(attn::multi_head(ref::to_float(ref::random_matrix(attn::kMaxTokens + 1, 4, 4)), w, kPlain),
               InputError);
}
