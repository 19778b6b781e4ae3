// The batched (B, T, D) multi_head gives each item exactly what the single-item call gives.
#include <gtest/gtest.h>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "core/error.hpp"
#include "reference.hpp"

TEST(Batch, EachItemEqualsThePerItemResult) {
  const attn::MhaWeights w = attn::MhaWeights::random(16, 4, 3);
  attn::AttentionOptions opt;
  opt.causal = true;
  opt.positions = attn::Scheme::Rope;
  attn::Batch x;
  for (int b = 0; b < 3; ++b)
    x.push_back(ref::to_float(ref::random_matrix(5, 16, 70u + static_cast<unsigned>(b))));
  const std::vector<attn::MhaResult> batched = attn::multi_head(x, w, opt);
  ASSERT_EQ(batched.size(), 3u);
  for (size_t b = 0; b < 3; ++b) {
    const attn::MhaResult one = attn::multi_head(x[b], w, opt);
    EXPECT_ALLCLOSE_TOL(batched[b].output, one.output, 1e-6, 1e-6) << "item " << b;
    EXPECT_ALLCLOSE_TOL(batched[b].head[2].weights, one.head[2].weights, 1e-6, 1e-6) << "item " << b;
  }
  // Items are not mixed up: different inputs give different outputs.
  EXPECT_GT(ref::max_abs_diff(ref::to_double(batched[0].output), ref::to_double(batched[1].output)), 1e-3);
}

TEST(Batch, AnItemOfTheWrongWidthIsAnInputError) {
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 3);
  attn::Batch x;
  x.push_back(ref::to_float(ref::random_matrix(4, 8, 1)));
  x.push_back(ref::to_float(ref::random_matrix(4, 6, 2)));
  EXPECT_THROW(attn::multi_head(x, w, attn::AttentionOptions{}), attn::InputError);
}
