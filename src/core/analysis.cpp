// Per-head statistics, offset profiles, the shuffle test and RoPE scores.
#include "analysis.hpp"

#include <cmath>
#include <limits>

#include "error.hpp"
#include "ops.hpp"
#include "positions.hpp"
#include "rng.hpp"

namespace attn {

HeadStats head_stats(const Mat& w) {
  // w: (T, T)
  const Eigen::Index t = w.rows();
  HeadStats s{0.0f, 0.0f, 0.0f, 0};
  if (t == 0) return s;
  double entropy = 0.0, distance = 0.0, first = 0.0;
  std::vector<char> peak(static_cast<size_t>(w.cols()), 0);
  for (Eigen::Index i = 0; i < t; ++i) {
    Eigen::Index best = 0;
    for (Eigen::Index j = 0; j < w.cols(); ++j) {
      const double p = w(i, j);
      if (p > 0.0) entropy -= p * std::log(p);
      distance += p * static_cast<double>(std::abs(i - j));
      if (w(i, j) > w(i, best)) best = j;
    }
    first += w(i, 0);
    if (w.cols() > 0 && !peak[static_cast<size_t>(best)]) {
      peak[static_cast<size_t>(best)] = 1;
      ++s.peak_keys;
    }
  }
  const auto n = static_cast<double>(t);
  s.entropy = static_cast<float>(entropy / n);
  s.mean_distance = static_cast<float>(distance / n);
  s.first_token_mass = static_cast<float>(first / n);
  return s;
}

Mat even_weights(int t, bool causal) {
  require_range(t, 1, kMaxTokens, "tokens for even attention");
  Mat w = Mat::Zero(t, t);  // (T, T)
  for (int i = 0; i < t; ++i) {
    const int keys = causal ? i + 1 : t;  // row i sees keys 0..keys-1
    w.row(i).head(keys).setConstant(1.0f / static_cast<float>(keys));
  }
  return w;
}

HeadStats even_stats(int t, bool causal) {
  require_range(t, 1, kMaxTokens, "tokens for even attention");
  double entropy = 0.0, distance = 0.0, first = 0.0;
  for (int i = 0; i < t; ++i) {
    const int keys = causal ? i + 1 : t;
    const double p = 1.0f / static_cast<float>(keys);                   // the cell value even_weights stores
    const double before = 0.5 * i * (i + 1.0);                          // sum of |i - j| over keys j <= i
    const double after = causal ? 0.0 : 0.5 * (t - 1.0 - i) * (t - i);  // ... and over j > i
    entropy -= keys * p * std::log(p);
    distance += p * (before + after);
    first += p;
  }
  const auto n = static_cast<double>(t);
  // every row's largest weight is first at key 0
  return {static_cast<float>(entropy / n), static_cast<float>(distance / n), static_cast<float>(first / n),
          1};
}

OffsetProfile offset_profile(const Mat& m) {
  const auto t = static_cast<int>(m.rows());
  OffsetProfile p;
  for (int k = -(t - 1); k <= t - 1; ++k) {
    double sum = 0.0;
    int n = 0;
    for (int i = std::max(0, k); i < t && i - k < t; ++i) {  // cells (i, i - k)
      const float v = m(i, i - k);
      if (std::isfinite(v)) sum += v, ++n;
    }
    p.offsets.push_back(k);
    p.mean.push_back(n ? static_cast<float>(sum / n) : std::numeric_limits<float>::quiet_NaN());
  }
  return p;
}

std::vector<int> random_permutation(int n, std::uint64_t seed) {
  require_range(n, 0, kMaxTokens, "the number of tokens to shuffle");
  std::vector<int> perm = range_positions(n);
  Rng rng(mix_seed(seed, 0x5bu));
  for (int i = n - 1; i > 0; --i) {
    const auto j = static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(i + 1));
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
  }
  return perm;
}

void require_permutation(const std::vector<int>& perm, int n) {
  if (static_cast<int>(perm.size()) != n) {
    throw_input_error({"the permutation has ", perm.size(), " entries for ", n,
                       " tokens; give each token index 0 to ", n - 1, " once"});
  }
  std::vector<char> seen(static_cast<size_t>(n), 0);
  for (int p : perm) {
    if (p < 0 || p >= n || seen[static_cast<size_t>(p)]) {
      throw_input_error({"the permutation must use each token index 0 to ", n - 1, " exactly once (", p,
                         " is out of range or repeated)"});
    }
    seen[static_cast<size_t>(p)] = 1;
  }
}

Mat permute_rows(const Mat& m, const std::vector<int>& perm) {
  require_permutation(perm, static_cast<int>(m.rows()));
  Mat out(m.rows(), m.cols());
  for (size_t i = 0; i < perm.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = m.row(perm[i]);
  return out;
}

ShuffleCheck compare_shuffled(const Mat& original, const Mat& shuffled, const std::vector<int>& perm,
                              float atol, float rtol) {
  const Mat want = permute_rows(original, perm);
  if (want.rows() != shuffled.rows() || want.cols() != shuffled.cols()) {
    throw InputError("the shuffled output has a different shape from the original");
  }
  ShuffleCheck c{0.0f, true};
  for (Eigen::Index r = 0; r < want.rows(); ++r) {
    for (Eigen::Index col = 0; col < want.cols(); ++col) {
      const float d = std::abs(want(r, col) - shuffled(r, col));
      c.max_diff = std::max(c.max_diff, d);
      if (!(d <= atol + rtol * std::abs(want(r, col)))) c.allclose = false;
    }
  }
  return c;
}

}  // namespace attn
