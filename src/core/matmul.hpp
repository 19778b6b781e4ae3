// The core's three matrix products on MatT<S> and blocks of one: float runs gemm.hpp's packed SIMD kernel,
// double (the gradient checks) a plain loop in the same k order. Every product of inference and of
// training (forward and backward) is one of these; the one Eigen product left is the seeded router's
// classifier, (1, D) x (D, 2) (seeded_router.cpp).
#pragma once

#include "types.hpp"

namespace attn::ops {

// ---- out (T, N) = a (T, K) b (K, N), each output row built as sum_k a(i, k) b(k, :) in a fixed k order.
// Equal rows of `a` give bit-equal rows of `out` wherever they sit (a blocked GEMM may round a row
// differently by its place), so without positions a shuffled email gives exactly the shuffled result.
// `a` and `b` may be blocks of larger matrices.
template <class S>
void matmul_rows(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out);

// ---- out (T, N) = a (T, K) b^T for b (N, K): gradients through a product (d(x W) / dx = dy W^T).
template <class S>
void matmul_bt(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out);

// ---- out (K, N) = a^T b for a (T, K), b (T, N): weight gradients (dW = x^T dy), summed over t = 0 .. T-1.
template <class S>
void matmul_at(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out);

}  // namespace attn::ops
