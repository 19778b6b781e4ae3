// Single-precision matrix product for the whole core (one source: SIMD128 in wasm, SSE natively), the
// vectorised exp of the softmax and the finite check. Row-independent: row i of the product is built from row
// i of `a` alone, each entry summed over k = 0, 1, ..., K-1 in that order with one multiply and one add per
// step (no FMA), wherever the row and the column sit in the matrix (edge tiles use the same kernel on zero
// padding). So equal rows of `a` give bit-equal rows of the product, and a permuted `a` gives exactly the
// permuted product: without positions a shuffled email gives exactly the shuffled result.
#pragma once

#include <vector>

namespace attn::gemm {

// A row-major float matrix or a block of one: entry (i, j) at data[i * stride + j], stride >= cols.
struct In {
  const float* data;
  int rows, cols, stride;
};
struct Out {
  float* data;
  int rows, cols, stride;
};

// Views of an Eigen row-major float matrix, a block of one (middleCols, ...) or a Ref with inner stride 1.
template <class M>
In in(const M& m) {
  return {m.data(), static_cast<int>(m.rows()), static_cast<int>(m.cols()),
          static_cast<int>(m.outerStride())};
}
template <class M>
Out out(M& m) {
  return {m.data(), static_cast<int>(m.rows()), static_cast<int>(m.cols()),
          static_cast<int>(m.outerStride())};
}

// c (M, N) = (scale * a (M, K)) b (K, N). `a` is scaled entry by entry first (rounded to float), as if the
// caller had scaled it. Throws std::invalid_argument on mismatched shapes. The packing buffers are
// thread_local and grow only: no heap allocation once they are large enough.
void multiply(In a, In b, Out c, float scale = 1.0f);
// c (M, N) = (scale * a (M, K)) b^T for b (N, K): q k^T without transposing k.
void multiply_bt(In a, In b, Out c, float scale = 1.0f);
// c (M, N) = a (M, K) b (K, N) with the k steps taken in the order k_order[0], k_order[1], ..., a
// permutation of 0 .. K-1 (columns of a and rows of b gathered while packing): weights x values with the
// keys in a canonical order (ops::attention_forward), so that shuffled keys give bit-identical sums.
// Row-independent like multiply.
void multiply_in_order(In a, In b, Out c, const int* k_order);

// b packed once for many products with it (row blocks of a): the same bits as multiply, multiply_bt or
// multiply_in_order with that b. Its buffer only grows (keep one per operand, e.g. thread_local).
class PackedB {
 public:
  // b (K, N), or b (N, K) used as its transpose when `transposed`; with k_order (a permutation of
  // 0 .. K-1, kept by pointer: it must outlive the products) the k steps go in that order.
  void pack(In b, bool transposed, const int* k_order = nullptr);
  // c (M, N) = (scale * a (M, K)) b, summed over k in the packed order (columns of a gathered alike).
  void multiply(In a, Out c, float scale = 1.0f) const;

 private:
  std::vector<float> panels_;
  const int* order_ = nullptr;
  int k_ = 0, n_ = 0;
};

// exp of every entry of x (n) into y (n) (x == y allowed), 4 lanes at a time: within 2 ulp of std::exp for
// results of at least FLT_MIN; exp(-inf) and anything below about -104 give exactly 0, above about 88.72
// +inf, NaN stays NaN. Every entry gets the same value wherever it sits (the tail is padded to 4 lanes).
void exp(const float* x, float* y, int n);
// y (n) = exp(x - shift) entry by entry (as gemm::exp; x == y allowed); returns the sum of y, taken in
// double (entry c into running sum c % 4, the four added last): the softmax's and log-sum-exp's pass.
double exp_shifted_sum(const float* x, float shift, float* y, int n);
// Largest entry of x (n >= 1), NaN entries ignored unless all are NaN (then -inf).
float max(const float* x, int n);
// y (n) *= s.
void scale(float* y, int n, float s);
// Whether no entry of x (n) is NaN or infinite (exponent bits all ones), 4 lanes at a time.
bool all_finite(const float* x, long long n);

}  // namespace attn::gemm
