// The refund router's building blocks, forward and backward, one function each (templated on the scalar).
// Shapes: T tokens, D = d_model, d = head width, F = feed-forward width, C = classes.
#pragma once

#include <vector>

#include "core/train/model.hpp"

namespace attn::train::ops {

// ---- Row-independent product: out (T, N) = a (T, K) b (K, N), each output row built as
// sum_k a(i, k) b(k, :) in a fixed k order. Equal rows of `a` give bit-equal rows of `out` wherever they
// sit (a blocked GEMM may round a row differently by its place), so without positions a shuffled email
// gives exactly the shuffled result.
template <class S>
void matmul_rows(const MatT<S>& a, const MatT<S>& b, MatT<S>& out);

// ---- LayerNorm over each row (eps 1e-5): y = xhat * gain + bias, xhat = (x - mean) * rstd.
// x (T, D), gain/bias (1, D) -> y (T, D), xhat (T, D), rstd (T, 1)
template <class S>
void layer_norm_forward(const MatT<S>& x, const MatT<S>& gain, const MatT<S>& bias, MatT<S>& y, MatT<S>& xhat,
                        MatT<S>& rstd);
// dy (T, D) -> dx (T, D) (overwritten); dgain, dbias (1, D) accumulated.
template <class S>
void layer_norm_backward(const MatT<S>& dy, const MatT<S>& xhat, const MatT<S>& rstd, const MatT<S>& gain,
                         MatT<S>& dx, MatT<S>& dgain, MatT<S>& dbias);

// ---- Row softmax. scores (T, T) -> weights (T, T); -inf entries get weight 0.
template <class S>
void softmax_forward(const MatT<S>& scores, MatT<S>& weights);
// dweights (T, T) -> dscores (T, T): w * (dw - sum_j dw_j w_j), row by row.
template <class S>
void softmax_backward(const MatT<S>& weights, const MatT<S>& dweights, MatT<S>& dscores);

// ---- RoPE (RopeTable, the cos/sin tables, is declared in model.hpp).
// Rotates the (T, d) block starting at column `col` of m in place, row t by angle t * speed_i
// (inverse: by the opposite angle, which is the backward of the rotation).
template <class S>
void rope_rotate(MatT<S>& m, int col, int width, const RopeTable& table, bool inverse);

// ---- One head. q, k (T, d), v (T, d) -> weights (T, T), out (T, d). Causal masks keys j > i.
template <class S>
void attention_head_forward(const MatT<S>& q, const MatT<S>& k, const MatT<S>& v, bool causal,
                            MatT<S>& weights, MatT<S>& out);
// dout (T, d) -> dq, dk, dv (T, d) (overwritten).
template <class S>
void attention_head_backward(const MatT<S>& q, const MatT<S>& k, const MatT<S>& v, const MatT<S>& weights,
                             const MatT<S>& dout, MatT<S>& dq, MatT<S>& dk, MatT<S>& dv);

// ---- Softmax cross-entropy. logits (1, C) -> probs (1, C); returns -log p(label).
template <class S>
S softmax_cross_entropy(const MatT<S>& logits, int label, MatT<S>& probs);
// dlogits (1, C) = probs - onehot(label).
template <class S>
void softmax_cross_entropy_backward(const MatT<S>& probs, int label, MatT<S>& dlogits);

}  // namespace attn::train::ops
