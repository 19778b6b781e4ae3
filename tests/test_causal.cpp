// The causal mask: no query looks at a later key, so weights above the diagonal are exactly 0.
#include <gtest/gtest.h>

#include <cmath>

#include "core/attention.hpp"
#include "reference.hpp"

TEST(Causal, WeightsAboveTheDiagonalAreExactlyZero) {
  const attn::MhaWeights w = attn::MhaWeights::random(16, 4, 8);
  for (attn::Scheme s : {attn::Scheme::None, attn::Scheme::Rope, attn::Scheme::Alibi}) {
    attn::AttentionOptions opt;
    opt.causal = true;
    opt.positions = s;
    const attn::MhaResult r = attn::multi_head(ref::to_float(ref::random_matrix(7, 16, 9, 3.0)), w, opt);
    for (const attn::HeadResult& h : r.head) {
      for (int i = 0; i < 7; ++i) {
        for (int j = i + 1; j < 7; ++j) {
          EXPECT_EQ(h.weights(i, j), 0.0f) << attn::scheme_name(s) << " (" << i << ", " << j << ")";
          EXPECT_TRUE(std::isinf(h.scores(i, j)) && h.scores(i, j) < 0) << "(" << i << ", " << j << ")";
        }
        EXPECT_GT(h.weights(i, i), 0.0f);
      }
      EXPECT_EQ(h.weights(0, 0), 1.0f);  // the first token can only see itself
    }
  }
}

TEST(Causal, EarlierRowsIgnoreLaterTokens) {
  // Changing the last token cannot change any earlier output row.
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 4);
  attn::AttentionOptions opt;
  opt.causal = true;
  attn::Mat x = ref::to_float(ref::random_matrix(5, 8, 10));
  const attn::Mat before = attn::multi_head(x, w, opt).output;
  x.row(4).setConstant(3.0f);
  const attn::Mat after = attn::multi_head(x, w, opt).output;
  EXPECT_TRUE(before.topRows(4) == after.topRows(4));
  EXPECT_FALSE(before.row(4) == after.row(4));
}
