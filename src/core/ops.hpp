// The building blocks of attention, forward and backward, written once and templated on the scalar:
// float for the app, the CLI and training, double for the gradient checks. The inference path (attend,
// multi_head, the encoder block, Rope::rotate, ALiBi, the seeded router) and the trainable model both call
// the softmax, LayerNorm, RoPE, ALiBi and attention ops, and every forward product (the projections
// x W_qkv and W_o, q k^T, weights x v, the feed-forward layer) and every backward one is matmul.hpp's.
// Shapes: T tokens, D = d_model, d = head width, N/K any width, C = classes.
#pragma once

#include <vector>

#include "matmul.hpp"  // matmul_rows, matmul_bt, matmul_at
#include "types.hpp"

namespace attn::ops {

// ---- LayerNorm over each row: y = xhat * gain + bias, xhat = (x - mean) * rstd, rstd = 1/sqrt(var + eps).
// The mean and the population variance are summed in double whatever S is (a float sum of rows of 3e38
// would overflow). x (T, D), gain/bias (1, D) -> y (T, D), xhat (T, D), rstd (T, 1)
inline constexpr double kLayerNormEps = 1e-5;
template <class S>
void layer_norm_forward(const MatT<S>& x, const MatT<S>& gain, const MatT<S>& bias, MatT<S>& y, MatT<S>& xhat,
                        MatT<S>& rstd, S eps = static_cast<S>(kLayerNormEps));
// dy (T, D) -> dx (T, D) (overwritten); dgain, dbias (1, D) accumulated.
template <class S>
void layer_norm_backward(const MatT<S>& dy, const MatT<S>& xhat, const MatT<S>& rstd, const MatT<S>& gain,
                         MatT<S>& dx, MatT<S>& dgain, MatT<S>& dbias);

// ---- RMSNorm over each row (Zhang and Sennrich, 2019; Llama): y = x * rstd * gain, rstd = 1/sqrt(mean(x^2)
// + eps), the mean of squares summed in double. x (T, D), gain (1, D) -> y (T, D), rstd (T, 1)
template <class S>
void rms_norm_forward(const MatT<S>& x, const MatT<S>& gain, MatT<S>& y, MatT<S>& rstd, double eps);

// ---- SiLU (swish): x * sigmoid(x), entrywise, in place. m (R, C)
template <class S>
void silu_inplace(MatT<S>& m);
// ---- GELU, tanh approximation (Hendrycks and Gimpel, 2016; GPT-2's "gelu_new"):
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), entrywise, in place. m (R, C)
template <class S>
void gelu_tanh_inplace(MatT<S>& m);

// ---- Row softmax, stable (subtracts each row's max; the sum over a row is taken in double). float uses
// gemm::exp (4 lanes, within 2 ulp of std::exp), double std::exp.
// scores (T, N) -> weights (T, N); -inf entries get weight exactly 0, a row of -inf gets all zeros.
template <class S>
void softmax_forward(const MatT<S>& scores, MatT<S>& weights);
// dweights (T, N) -> dscores (T, N): w * (dw - sum_j dw_j w_j), row by row.
template <class S>
void softmax_backward(const MatT<S>& weights, const MatT<S>& dweights, MatT<S>& dscores);

// ---- RoPE: pair i = (2i, 2i+1) of a width-d row at position p turns by p * speed_i,
// speed_i = base^(-2i/d) (rotation_speed in positions.hpp); an odd last dimension stays as it is.
// The cos/sin of every (row, pair) angle, in double: (rows, d/2) each, row-major.
struct RopeTable {
  int width = 0;  // d, the width of one head's queries or keys
  int rows = 0;   // rows covered: row r holds position r (ensure) or positions[r] (for_positions)
  std::vector<double> cos, sin;
  // Row t holds position t for t in 0 .. tokens-1 (at least 64 rows; recomputed only when the width
  // changes or more rows are needed).
  void ensure(int width, int tokens, double base = 10000.0);
  // Row r holds positions[r] (T rows).
  static RopeTable for_positions(int width, const std::vector<int>& positions, double base);
};
// Rotates the (T, d) block starting at column `col` of m in place, row r by the angles of table row r
// (T <= table.rows, d == table.width), rows first_row .. T-1 only. inverse: by the opposite angles, which
// is the backward pass.
template <class S>
void rope_rotate(MatT<S>& m, int col, int width, const RopeTable& table, bool inverse, int first_row = 0);

// ---- ALiBi: adds -slope * |p_i - p_j| to score (i, j). scores (T, T); positions (T) or empty for 0 .. T-1.
template <class S>
void add_alibi_bias(MatT<S>& scores, const std::vector<int>& positions, S slope);

// ---- One attention head: scores = (q / sqrt(d)) k^T [+ ALiBi] [causal: -inf for keys j > i] (the
// queries are scaled, entry by entry, before the product), weights = softmax(scores), out = weights v
// (float: gemm::multiply_in_order over the keys sorted by the bits of their (k, v) rows, so that shuffled
// tokens add the same terms in the same order and give exactly the shuffled blend; double: summed in
// double). q, k, v may be a head's columns of the fused (T, 3D) matrix: no copy.
struct HeadMask {
  bool causal = false;         // mask keys after the query (j > i)
  int first_query = 0;         // query row i is token first_query + i of the keys (a key/value cache's step)
  float alibi_slope = 0.0f;    // 0: no ALiBi bias
  std::vector<int> positions;  // token positions for the distances; empty means 0 .. T-1
  // Empty, or 2M + 1 values added to score (i, j) at distance p_j - p_i clipped to -M .. M (entry M +
  // distance): a bias per distance bucket, constant past M.
  std::vector<double> distance_bias;
};
// Steps 1-3 alone: q (T, d), k (T', d) -> scores (T, T') = (q / sqrt(d)) k^T, biased and masked.
template <class S>
void attention_scores(const ConstBlock<S>& q, const ConstBlock<S>& k, const HeadMask& mask, MatT<S>& scores);
// q, k (T, d), v (T, d_v) -> scores (T, T) (attention_scores), weights (T, T), out (T, d_v).
template <class S>
void attention_forward(const ConstBlock<S>& q, const ConstBlock<S>& k, const ConstBlock<S>& v,
                       const HeadMask& mask, MatT<S>& scores, MatT<S>& weights, MatT<S>& out);
// dout (T, d_v) -> dq, dk (T, d), dv (T, d_v) (overwritten), and the scores' gradient (T, T) when
// dscores is given. Masked entries have weight 0, so no gradient.
template <class S>
void attention_backward(const MatT<S>& q, const MatT<S>& k, const MatT<S>& v, const MatT<S>& weights,
                        const MatT<S>& dout, MatT<S>& dq, MatT<S>& dk, MatT<S>& dv,
                        MatT<S>* dscores = nullptr);

// ---- Mean pool: x (T, D) -> (1, D), the mean over the rows, summed in double: the rows of a shuffled
// email sum to the same value before rounding, so without positions both orders pool to the same float.
template <class S>
MatT<S> mean_pool(const MatT<S>& x);

// ---- Softmax cross-entropy. logits (1, C) -> -log softmax(logits)[label], from the log-sum-exp.
template <class S>
S cross_entropy(const MatT<S>& logits, int label);
// logits (1, C) -> probs (1, C) (softmax_forward); returns cross_entropy(logits, label).
template <class S>
S softmax_cross_entropy(const MatT<S>& logits, int label, MatT<S>& probs);
// dlogits (1, C) = probs - onehot(label).
template <class S>
void softmax_cross_entropy_backward(const MatT<S>& probs, int label, MatT<S>& dlogits);

}  // namespace attn::ops
