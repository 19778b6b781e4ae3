// Recompute helpers of the pipeline tests: a text of n words, a configuration large enough for the compute
// worker, and two results compared bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/pipeline.hpp"

namespace fx {

inline std::string words(int n) {
  static const char* w[] = {"refund", "the", "delivery", "fee", "not", "cake", "it", "was", "late"};
  std::string s;
  for (int i = 0; i < n; ++i) s += std::string(i ? " " : "") + w[i % 9];
  return s;
}

// Large enough to go to the worker (pipeline_cache.cpp's kLocalWork), small enough to be quick.
inline attn::PipelineConfig wide() {
  attn::PipelineConfig c;
  c.d_model = 256, c.heads = 8, c.positions = attn::Scheme::Rope, c.causal = true, c.seed = 3;
  return c;
}

inline bool same(const attn::Mat& a, const attn::Mat& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0);
}

// Every number of two results, bit for bit.
inline void expect_same(const attn::PipelineResult& a, const attn::PipelineResult& b) {
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.dropped_tokens, b.dropped_tokens);
  EXPECT_TRUE(same(a.embeddings, b.embeddings));
  EXPECT_TRUE(same(a.position_table, b.position_table));
  EXPECT_TRUE(same(a.inputs, b.inputs));
  EXPECT_TRUE(same(a.mha.output, b.mha.output));
  EXPECT_TRUE(same(a.mha.concat, b.mha.concat));
  ASSERT_EQ(a.mha.head.size(), b.mha.head.size());
  for (std::size_t h = 0; h < a.mha.head.size(); ++h) {
    EXPECT_TRUE(same(a.mha.head[h].output, b.mha.head[h].output)) << "head " << h;
    EXPECT_TRUE(same(a.mha.head[h].scores, b.mha.head[h].scores)) << "head " << h;
    EXPECT_TRUE(same(a.mha.head[h].weights, b.mha.head[h].weights)) << "head " << h;
  }
  ASSERT_EQ(a.stats.size(), b.stats.size());
  for (std::size_t h = 0; h < a.stats.size(); ++h)
    EXPECT_EQ(std::memcmp(&a.stats[h], &b.stats[h], sizeof a.stats[h]), 0) << "head " << h;
}

}  // namespace fx
