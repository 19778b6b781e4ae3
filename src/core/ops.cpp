// Forward and backward of softmax, RoPE, ALiBi, one attention head and the loss, written out by hand, for
// float and double (the norms and activations: ops_norm.cpp).
#include "ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "gemm.hpp"
#include "index_sort.hpp"
#include "positions.hpp"

namespace attn::ops {

// ---------------------------------------------------------------------------------------------------
// [SECTION] Softmax
// ---------------------------------------------------------------------------------------------------

namespace {

// Row r of scores (T, N): e_c = exp(s_c - max) for the row's largest entry `max`, written to row r of
// `e` (which may be scores itself), or to a scratch row when e is null; returns the sum of the e_c.
// float: gemm::exp_shifted_sum (4 lanes); double: std::exp. exp(-inf) = 0 for masked keys. The sum is taken
// in double: then it hardly depends on the key order, so without positions a shuffled email gets the same
// weights (shuffled) to the last bit in practice.
template <class S>
double shifted_exp_sum(const MatT<S>& scores, Eigen::Index r, S max, MatT<S>* e) {
  const Eigen::Index n = scores.cols();
  thread_local MatT<S> scratch;  // one row, for cross_entropy (grows only)
  if (!e && scratch.cols() < n) scratch.resize(1, n);
  S* out = e ? e->data() + r * n : scratch.data();
  const S* in = scores.data() + r * n;
  if constexpr (std::is_same_v<S, float>) {
    return gemm::exp_shifted_sum(in, max, out, static_cast<int>(n));
  } else {
    double sum = 0.0;
    for (Eigen::Index c = 0; c < n; ++c) {
      out[c] = std::exp(in[c] - max);
      sum += out[c];
    }
    return sum;
  }
}

// Largest entry of row r of m (N >= 1 entries).
template <class S>
S row_max(const MatT<S>& m, Eigen::Index r) {
  if constexpr (std::is_same_v<S, float>) {
    return gemm::max(m.data() + r * m.cols(), static_cast<int>(m.cols()));
  } else {
    return m.row(r).maxCoeff();
  }
}

// Rows r0 .. r1-1 of weights (T, N) = softmax of the same rows of scores (T, N), weights sized already.
template <class S>
void softmax_rows(const MatT<S>& scores, MatT<S>& weights, Eigen::Index r0, Eigen::Index r1) {
  for (Eigen::Index r = r0; r < r1; ++r) {
    const S max = row_max(scores, r);
    if (!std::isfinite(max)) {  // a fully masked row attends nowhere
      weights.row(r).setZero();
      continue;
    }
    const double sum = shifted_exp_sum(scores, r, max, &weights);
    if constexpr (std::is_same_v<S, float>) {
      gemm::scale(weights.data() + r * weights.cols(), static_cast<int>(weights.cols()),
                  static_cast<float>(1.0 / sum));
    } else {
      weights.row(r) *= 1.0 / sum;
    }
  }
}

}  // namespace

template <class S>
void softmax_forward(const MatT<S>& scores, MatT<S>& weights) {
  // scores (T, N) -> weights (T, N)
  weights.resize(scores.rows(), scores.cols());
  if (scores.cols() == 0) return;
  softmax_rows(scores, weights, 0, scores.rows());
}

template <class S>
void softmax_backward(const MatT<S>& weights, const MatT<S>& dweights, MatT<S>& dscores) {
  // dscores_ij = w_ij * (dw_ij - sum_k dw_ik w_ik)
  dscores.resize(weights.rows(), weights.cols());
  for (Eigen::Index r = 0; r < weights.rows(); ++r) {
    const S dot = weights.row(r).dot(dweights.row(r));
    dscores.row(r) = weights.row(r).cwiseProduct((dweights.row(r).array() - dot).matrix());
  }
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] RoPE and ALiBi
// ---------------------------------------------------------------------------------------------------

namespace {

// cos/sin (rows, width / 2) of position(r) * speed_i.
template <class Position>
void fill_rope(RopeTable& table, int width, int rows, double base, Position position) {
  const int half = width / 2;
  table.width = width;
  table.rows = rows;
  table.cos.assign(static_cast<size_t>(rows) * static_cast<size_t>(half), 0.0);
  table.sin.assign(table.cos.size(), 0.0);
  for (int i = 0; i < half; ++i) {
    const double speed = rotation_speed(base, i, width);
    for (int r = 0; r < rows; ++r) {
      const double angle = position(r) * speed;
      table.cos[static_cast<size_t>(r) * half + i] = std::cos(angle);
      table.sin[static_cast<size_t>(r) * half + i] = std::sin(angle);
    }
  }
}

}  // namespace

void RopeTable::ensure(int w, int tokens, double base) {
  if (w == width && tokens <= rows) return;
  int p = std::max(tokens, 64);
  if (w == width) p = std::max(p, 2 * rows);
  fill_rope(*this, w, p, base, [](int r) { return static_cast<double>(r); });
}

RopeTable RopeTable::for_positions(int w, const std::vector<int>& positions, double base) {
  RopeTable table;
  fill_rope(table, w, static_cast<int>(positions.size()), base,
            [&positions](int r) { return static_cast<double>(positions[static_cast<size_t>(r)]); });
  return table;
}

template <class S>
void rope_rotate(MatT<S>& m, int col, int width, const RopeTable& table, bool inverse, int first_row) {
  // m (T, *): columns col .. col+width-1 hold one head's (T, d) queries or keys; pair i is (2i, 2i+1).
  const int half = width / 2;
  const double sign = inverse ? -1.0 : 1.0;
  for (Eigen::Index t = first_row; t < m.rows(); ++t) {
    const size_t row = static_cast<size_t>(t) * static_cast<size_t>(table.width / 2);
    for (int i = 0; i < half; ++i) {
      const double c = table.cos[row + i], s = sign * table.sin[row + i];
      const double x0 = m(t, col + 2 * i), x1 = m(t, col + 2 * i + 1);
      m(t, col + 2 * i) = static_cast<S>(x0 * c - x1 * s);
      m(t, col + 2 * i + 1) = static_cast<S>(x0 * s + x1 * c);
    }
  }
}

namespace {

// Steps 2-3 of a head on rows r0 .. r1-1 of scores (T, T'): the scheme's bias (ALiBi's -slope * |p_i - p_j|,
// the mask's slope in S, or its bias per clipped distance p_j - p_i), then -inf for keys j > i when causal.
// Query row i is token first_query + i.
template <class S>
void mask_rows(MatT<S>& scores, const HeadMask& mask, S slope, Eigen::Index r0, Eigen::Index r1) {
  const std::vector<int>& positions = mask.positions;
  const auto at = [&positions](Eigen::Index i) {
    return positions.empty() ? static_cast<int>(i) : positions[static_cast<size_t>(i)];
  };
  const int reach = static_cast<int>(mask.distance_bias.size() / 2);  // M
  for (Eigen::Index r = r0; r < r1; ++r) {
    const Eigen::Index i = r + mask.first_query;
    if (slope != S(0)) {
      for (Eigen::Index j = 0; j < scores.cols(); ++j) {
        scores(r, j) += -slope * static_cast<S>(std::abs(at(i) - at(j)));
      }
    }
    if (!mask.distance_bias.empty()) {
      for (Eigen::Index j = 0; j < scores.cols(); ++j) {
        const int distance = std::clamp(at(j) - at(i), -reach, reach);
        scores(r, j) += static_cast<S>(mask.distance_bias[static_cast<size_t>(distance + reach)]);
      }
    }
    if (mask.causal) {
      for (Eigen::Index j = i + 1; j < scores.cols(); ++j) scores(r, j) = -std::numeric_limits<S>::infinity();
    }
  }
}

}  // namespace

template <class S>
void add_alibi_bias(MatT<S>& scores, const std::vector<int>& positions, S slope) {
  // scores (T, T) += -slope * |p_i - p_j|
  HeadMask mask;
  mask.positions = positions;
  mask_rows(scores, mask, slope, 0, scores.rows());
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] One attention head
// ---------------------------------------------------------------------------------------------------

template <class S>
void attention_scores(const ConstBlock<S>& q, const ConstBlock<S>& k, const HeadMask& mask, MatT<S>& scores) {
  // 1. scores (T, T') = (q / sqrt(d)) k^T: the queries scaled first, then one row-independent product
  const S scale = S(1) / std::sqrt(S(q.cols()));
  if constexpr (std::is_same_v<S, float>) {
    scores.resize(q.rows(), k.rows());
    gemm::multiply_bt(gemm::in(q), gemm::in(k), gemm::out(scores), scale);
  } else {
    const MatT<S> qs = q * scale;      // (T, d)
    const MatT<S> kt = k.transpose();  // (d, T')
    matmul_rows<S>(qs, kt, scores);
  }
  // 2. ALiBi: a distance penalty per head; 3. causal: query i sees keys j <= i only
  mask_rows(scores, mask, static_cast<S>(mask.alibi_slope), 0, scores.rows());
}

namespace {

// The keys 0 .. T-1 sorted by the bits of their key row, then of their value row (memcmp order). Shuffled
// tokens give the same sorted sequence of (k, v) rows; keys with equal rows get equal weights and add
// equal terms, so their order among themselves changes nothing. k (T, d), v (T, d_v) -> order (T)
void canonical_key_order(const ConstBlock<float>& k, const ConstBlock<float>& v, std::vector<int>& order) {
  const size_t kb = sizeof(float) * static_cast<size_t>(k.cols()),
               vb = sizeof(float) * static_cast<size_t>(v.cols());
  sort_indices(
      static_cast<int>(k.rows()),
      [&](int x, int y) {
        const int c = std::memcmp(k.data() + x * k.outerStride(), k.data() + y * k.outerStride(), kb);
        if (c != 0) return c < 0;
        return std::memcmp(v.data() + x * v.outerStride(), v.data() + y * v.outerStride(), vb) < 0;
      },
      order);
}

}  // namespace

template <class S>
void attention_forward(const ConstBlock<S>& q, const ConstBlock<S>& k, const ConstBlock<S>& v,
                       const HeadMask& mask, MatT<S>& scores, MatT<S>& weights, MatT<S>& out) {
  if constexpr (std::is_same_v<S, float>) {
    // Blocks of query rows through steps 1-4 while in cache, against k and v packed once: the bits of
    // attention_scores, softmax_forward and multiply_in_order (all row-independent). The blend sums over
    // the keys in their canonical order (canonical_key_order), whatever order the tokens come in: without
    // positions a shuffled email gets exactly the shuffled blend.
    thread_local std::vector<int> order;
    thread_local gemm::PackedB kp, vp;  // k^T (d, T'), v (T', d_v) with its rows in canonical order
    canonical_key_order(k, v, order);
    kp.pack(gemm::in(k), true);
    vp.pack(gemm::in(v), false, order.data());
    const Eigen::Index t = q.rows(), tk = k.rows();
    scores.resize(t, tk);
    weights.resize(t, tk);
    out.resize(t, v.cols());
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));
    const Eigen::Index rows = 64;  // per block: its scores and weights within 512 KB (T <= 1024)
    for (Eigen::Index r0 = 0; r0 < t; r0 += rows) {
      const Eigen::Index n = std::min(rows, t - r0);
      auto s_rows = scores.middleRows(r0, n);
      auto o_rows = out.middleRows(r0, n);
      kp.multiply(gemm::in(q.middleRows(r0, n)), gemm::out(s_rows), scale);  // 1. (q / sqrt(d)) k^T
      mask_rows(scores, mask, mask.alibi_slope, r0, r0 + n);                 // 2-3.
      if (tk > 0) softmax_rows(scores, weights, r0, r0 + n);                 // 4.
      vp.multiply(gemm::in(weights.middleRows(r0, n)), gemm::out(o_rows));
    }
  } else {
    // 1-3. scores (T, T); 4. weights (T, T); the blend (T, d_v) with the keys in their given order
    // (double: the gradient checks, whose rounding is far below their tolerance)
    attention_scores<S>(q, k, mask, scores);
    softmax_forward(scores, weights);
    matmul_rows<S>(weights, v, out);
  }
}

template <class S>
void attention_backward(const MatT<S>& q, const MatT<S>& k, const MatT<S>& v, const MatT<S>& weights,
                        const MatT<S>& dout, MatT<S>& dq, MatT<S>& dk, MatT<S>& dv, MatT<S>* dscores) {
  const S scale = S(1) / std::sqrt(S(q.cols()));
  // out = w v: dw = dout v^T (T, T), dv = w^T dout (T, d_v)
  MatT<S> dw;
  matmul_bt<S>(dout, v, dw);
  matmul_at<S>(weights, dout, dv);
  // through the softmax (masked entries have w = 0, so their gradient is 0); the ALiBi bias is constant
  MatT<S> ds;
  softmax_backward(weights, dw, ds);
  // scores = q k^T * scale
  matmul_rows<S>(ds, k, dq);
  dq *= scale;
  matmul_at<S>(ds, q, dk);
  dk *= scale;
  if (dscores) *dscores = std::move(ds);  // a bias added to the scores gets their gradient as it is
}

// ---------------------------------------------------------------------------------------------------
// [SECTION] Softmax cross-entropy
// ---------------------------------------------------------------------------------------------------

template <class S>
S cross_entropy(const MatT<S>& logits, int label) {
  // log-sum-exp - logit(label), stable: the softmax's sum, shifted by the largest logit
  const S max = logits.maxCoeff();
  const double sum = shifted_exp_sum<S>(logits, 0, max, nullptr);
  return static_cast<S>(std::log(sum)) + max - logits(0, label);
}

template <class S>
S softmax_cross_entropy(const MatT<S>& logits, int label, MatT<S>& probs) {
  softmax_forward(logits, probs);
  return cross_entropy(logits, label);
}

template <class S>
void softmax_cross_entropy_backward(const MatT<S>& probs, int label, MatT<S>& dlogits) {
  dlogits = probs;
  dlogits(0, label) -= S(1);
}

template <class S>
MatT<S> mean_pool(const MatT<S>& x) {
  // x (T, D) -> (1, D)
  return (x.template cast<double>().colwise().sum() / static_cast<double>(x.rows())).template cast<S>();
}

#define ATTN_OPS(S)                                                                                         \
  template void softmax_forward<S>(const MatT<S>&, MatT<S>&);                                               \
  template void softmax_backward<S>(const MatT<S>&, const MatT<S>&, MatT<S>&);                              \
  template void rope_rotate<S>(MatT<S>&, int, int, const RopeTable&, bool, int);                            \
  template void add_alibi_bias<S>(MatT<S>&, const std::vector<int>&, S);                                    \
  template void attention_scores<S>(const ConstBlock<S>&, const ConstBlock<S>&, const HeadMask&, MatT<S>&); \
  template void attention_forward<S>(const ConstBlock<S>&, const ConstBlock<S>&, const ConstBlock<S>&,      \
                                     const HeadMask&, MatT<S>&, MatT<S>&, MatT<S>&);                        \
  template void attention_backward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, const MatT<S>&,       \
                                      const MatT<S>&, MatT<S>&, MatT<S>&, MatT<S>&, MatT<S>*);              \
  template MatT<S> mean_pool<S>(const MatT<S>&);                                                            \
  template S cross_entropy<S>(const MatT<S>&, int);                                                         \
  template S softmax_cross_entropy<S>(const MatT<S>&, int, MatT<S>&);                                       \
  template void softmax_cross_entropy_backward<S>(const MatT<S>&, int, MatT<S>&);

ATTN_OPS(float)
ATTN_OPS(double)

}  // namespace attn::ops
