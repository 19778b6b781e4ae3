// Token embeddings: seeded and deterministic, case-insensitive, distinct per token, roughly normal(0, 1).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/tokenizer.hpp"
#include "reference.hpp"

TEST(Embed, SameTokensSameSeedSameMatrix) {
  const std::vector<std::string> tokens = {"Refund", "the", "cake", "the", "."};
  const attn::Mat a = attn::embed_tokens(tokens, 16, 7);
  const attn::Mat b = attn::embed_tokens(tokens, 16, 7);
  ASSERT_EQ(a.rows(), 5);
  ASSERT_EQ(a.cols(), 16);
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a.row(1) == a.row(3));  // "the" twice
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(a.row(i) == attn::embed_token(tokens[static_cast<size_t>(i)], 16, 7));
}

TEST(Embed, CaseIsIgnored) {
  EXPECT_TRUE(attn::embed_token("Refund", 12, 3) == attn::embed_token("refund", 12, 3));
  EXPECT_TRUE(attn::embed_token("REFUND", 12, 3) == attn::embed_token("refund", 12, 3));
}

TEST(Embed, DifferentTokensOrSeedsGiveDifferentVectors) {
  const attn::RowVec cake = attn::embed_token("cake", 16, 7);
  EXPECT_GT((cake - attn::embed_token("fee", 16, 7)).cwiseAbs().maxCoeff(), 0.1f);
  EXPECT_GT((cake - attn::embed_token("cakes", 16, 7)).cwiseAbs().maxCoeff(), 0.1f);
  EXPECT_GT((cake - attn::embed_token("cake", 16, 8)).cwiseAbs().maxCoeff(), 0.1f);
  EXPECT_GT((attn::embed_token("\u20b9", 16, 7) - attn::embed_token("$", 16, 7)).cwiseAbs().maxCoeff(), 0.1f);
}

TEST(Embed, EntriesLookStandardNormal) {
  std::vector<std::string> tokens;
  for (int i = 0; i < 300; ++i) tokens.push_back("word" + std::to_string(i));
  const attn::Mat e = attn::embed_tokens(tokens, 64, 11);
  const double n = static_cast<double>(e.size());
  const double mean = e.cast<double>().sum() / n;
  const double var = (e.cast<double>().array() - mean).square().sum() / n;
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(var, 1.0, 0.05);
}
