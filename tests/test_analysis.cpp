// Tests of the attention analysis: per-head statistics, offset profiles, permutations, RoPE scores.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "allclose.hpp"
#include "core/analysis.hpp"
#include "core/error.hpp"
#include "reference.hpp"

namespace {

// Row-softmaxed random weights (T, T) built by the reference, not the core.
ref::MatD random_weights(int t, std::uint64_t seed) {
  return ref::softmax_rows(ref::random_matrix(t, t, seed, 3.0));
}

TEST(HeadStats, MatchesAHandComputation) {
  const ref::MatD w = random_weights(7, 11);
  double entropy = 0, distance = 0, first = 0;
  std::set<int> peaks;  // each row's key of largest weight
  for (int i = 0; i < 7; ++i) {
    int best = 0;
    for (int j = 0; j < 7; ++j) {
      entropy -= w(i, j) * std::log(w(i, j));
      distance += w(i, j) * std::abs(i - j);
      if (w(i, j) > w(i, best)) best = j;
    }
    first += w(i, 0);
    peaks.insert(best);
  }
  const attn::HeadStats s = attn::head_stats(ref::to_float(w));
  EXPECT_EQ(s.peak_keys, static_cast<int>(peaks.size()));
  EXPECT_NEAR(s.entropy, entropy / 7, 1e-5);
  EXPECT_NEAR(s.mean_distance, distance / 7, 1e-5);
  EXPECT_NEAR(s.first_token_mass, first / 7, 1e-6);
}

TEST(HeadStats, ExtremesOfUniformAndDiagonal) {
  const int t = 9;
  const attn::HeadStats uniform = attn::head_stats(attn::Mat::Constant(t, t, 1.0f / t));
  EXPECT_NEAR(uniform.entropy, std::log(9.0), 1e-5);
  EXPECT_NEAR(uniform.first_token_mass, 1.0 / 9, 1e-6);
  const attn::HeadStats diag = attn::head_stats(attn::Mat::Identity(t, t));
  EXPECT_EQ(diag.entropy, 0.0f);
  EXPECT_EQ(diag.mean_distance, 0.0f);
  EXPECT_NEAR(diag.first_token_mass, 1.0 / 9, 1e-6);
  EXPECT_EQ(diag.peak_keys, 9) << "every row peaks on its own key";
  EXPECT_EQ(uniform.peak_keys, 1) << "ties go to the first key";
}

TEST(OffsetProfile, AveragesEachDiagonalAndSkipsMaskedCells) {
  attn::Mat m(3, 3);
  m << 1, 2, 3,  //
      4, 5, 6,   //
      7, 8, 9;
  m(0, 2) = -std::numeric_limits<float>::infinity();  // a masked cell
  const attn::OffsetProfile p = attn::offset_profile(m);
  ASSERT_EQ(p.offsets, (std::vector<int>{-2, -1, 0, 1, 2}));
  EXPECT_TRUE(std::isnan(p.mean[0]));          // offset -2 is only the masked (0, 2)
  EXPECT_FLOAT_EQ(p.mean[1], (2 + 6) / 2.0f);  // i - j = -1: (0,1), (1,2)
  EXPECT_FLOAT_EQ(p.mean[2], (1 + 5 + 9) / 3.0f);
  EXPECT_FLOAT_EQ(p.mean[3], (4 + 8) / 2.0f);
  EXPECT_FLOAT_EQ(p.mean[4], 7.0f);
}

TEST(Permutation, RandomIsAPermutationAndSeeded) {
  for (int n : {1, 2, 9, 100}) {
    const std::vector<int> p = attn::random_permutation(n, 5);
    EXPECT_NO_THROW(attn::require_permutation(p, n));
    EXPECT_EQ(p, attn::random_permutation(n, 5));
  }
  EXPECT_NE(attn::random_permutation(50, 5), attn::random_permutation(50, 6));
}

TEST(Permutation, BadPermutationsAreInputErrors) {
  EXPECT_THROW(attn::require_permutation({0, 1}, 3), attn::InputError);
  EXPECT_THROW(attn::require_permutation({0, 0, 1}, 3), attn::InputError);
  EXPECT_THROW(attn::require_permutation({0, 3, 1}, 3), attn::InputError);
  EXPECT_THROW(attn::permute_rows(attn::Mat::Zero(3, 2), {2, 1}), attn::InputError);
}

TEST(Permutation, PermuteRowsAndCompare) {
  const ref::MatD x = ref::random_matrix(5, 4, 3);
  const std::vector<int> perm = {4, 0, 3, 1, 2};
  EXPECT_TRUE(ref::allclose(attn::permute_rows(ref::to_float(x), perm), ref::permute_rows(x, perm), 0, 0));
  const attn::Mat shuffled = ref::to_float(ref::permute_rows(x, perm));
  const attn::ShuffleCheck same = attn::compare_shuffled(ref::to_float(x), shuffled, perm);
  EXPECT_TRUE(same.allclose);
  EXPECT_EQ(same.max_diff, 0.0f);
  attn::Mat off = shuffled;
  off(2, 1) += 0.01f;
  const attn::ShuffleCheck diff = attn::compare_shuffled(ref::to_float(x), off, perm);
  EXPECT_FALSE(diff.allclose);
  EXPECT_NEAR(diff.max_diff, 0.01f, 1e-6);
}

TEST(RopeScore, DependsOnTheGapOnly) {
  const attn::RowVec q = ref::to_float(ref::random_matrix(1, 16, 8)).row(0);
  const attn::RowVec k = ref::to_float(ref::random_matrix(1, 16, 9)).row(0);
  const float s107 = attn::rope_score(q, k, 10, 7);
  EXPECT_NEAR(attn::rope_score(q, k, 5, 2), s107, 1e-5);
  EXPECT_NEAR(attn::rope_score(q, k, 503, 500), s107, 1e-4);
  EXPECT_GT(std::abs(attn::rope_score(q, k, 10, 3) - s107), 1e-3);
  // against the reference rotation
  const ref::MatD qr = ref::rope_rotate(ref::to_double(q), {10}, 10000.0);
  const ref::MatD kr = ref::rope_rotate(ref::to_double(k), {7}, 10000.0);
  EXPECT_NEAR(s107, qr.row(0).dot(kr.row(0)) / 4.0, 1e-5);
  EXPECT_THROW(attn::rope_score(q, attn::RowVec::Zero(8), 1, 1), attn::InputError);
}

}  // namespace
