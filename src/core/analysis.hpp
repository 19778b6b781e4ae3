// Looking at attention weights: per-head statistics, the offset profile, the shuffle test, RoPE scores.
#pragma once

#include <cstdint>
#include <vector>

#include "core/schemes/rope.hpp"  // rope_score
#include "types.hpp"

namespace attn {

struct HeadStats {
  float entropy;           // mean over query rows of -sum_j w_ij ln w_ij (nats); ln T is uniform
  float mean_distance;     // mean over rows of sum_j w_ij |i - j|: how far a query looks
  float first_token_mass;  // mean over rows of w_i0: how much goes to the first token
  int peak_keys;           // how many different keys are some row's largest weight (its first largest)
};
// weights: (T, T), rows summing to 1.
HeadStats head_stats(const Mat& weights);

// Attention spread evenly over every key a query may see: 1 / T in each cell, or with the causal mask
// 1 / (i + 1) over keys 0..i of row i (later keys 0). head_stats() of it is the baseline the per-head
// statistics are read against (ln T entropy without the mask). t >= 1 -> (T, T)
Mat even_weights(int t, bool causal);
// head_stats(even_weights(t, causal)) without the (T, T) matrix: O(T), each row's sums in closed form.
HeadStats even_stats(int t, bool causal);

// The mean of m(i, j) over all cells with i - j = offset, for offset = -(T-1) .. T-1; masked (non-finite)
// cells are left out, and an offset with no cells gets NaN. m: (T, T) -> (2T - 1,) entries.
struct OffsetProfile {
  std::vector<int> offsets;  // -(T-1) .. T-1
  std::vector<float> mean;   // NaN where every cell was masked
};
OffsetProfile offset_profile(const Mat& m);

// A seeded random permutation of 0 .. n-1 (Fisher-Yates on the project's Rng).
std::vector<int> random_permutation(int n, std::uint64_t seed);
// Checks that perm is a permutation of 0 .. n-1; throws InputError otherwise.
void require_permutation(const std::vector<int>& perm, int n);
// Row i of the result is row perm[i] of m. (T, D) -> (T, D)
Mat permute_rows(const Mat& m, const std::vector<int>& perm);

// The shuffle test: does running the shuffled input give the original output, shuffled?
struct ShuffleCheck {
  float max_diff;  // largest |original[perm] - shuffled|
  bool allclose;   // every entry within atol + rtol * |original[perm]|
};
// original, shuffled: (T, D); compares permute_rows(original, perm) with shuffled.
ShuffleCheck compare_shuffled(const Mat& original, const Mat& shuffled, const std::vector<int>& perm,
                              float atol = 1e-5f, float rtol = 1e-4f);

}  // namespace attn
