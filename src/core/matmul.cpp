// The core's matrix products (matmul.hpp): gemm's kernel for float, plain loops for double.
#include "matmul.hpp"

#include <type_traits>
#include <vector>

#include "gemm.hpp"

namespace attn::ops {
namespace {

// out (M, N) += a (M, K) b (K, N) with b's rows `b_stride` apart: the double path, lanes independent and
// k in order, so its sums are taken in the same order as the float kernel's.
template <class S>
void add_product(const S* a, Eigen::Index a_stride, const S* b, Eigen::Index b_stride, Eigen::Index m,
                 Eigen::Index kk, Eigen::Index n, S* out) {
  for (Eigen::Index i = 0; i < m; ++i) {
    S* o = out + i * n;
    for (Eigen::Index k = 0; k < kk; ++k) {
      const S s = a[i * a_stride + k];
      const S* br = b + k * b_stride;
      for (Eigen::Index c = 0; c < n; ++c) o[c] += s * br[c];
    }
  }
}

}  // namespace

template <class S>
void matmul_rows(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out) {
  // a (T, K), b (K, N) -> out (T, N)
  if constexpr (std::is_same_v<S, float>) {
    out.resize(a.rows(), b.cols());
    gemm::multiply(gemm::in(a), gemm::in(b), gemm::out(out));
  } else {
    out.setZero(a.rows(), b.cols());
    add_product(a.data(), a.outerStride(), b.data(), b.outerStride(), a.rows(), a.cols(), b.cols(),
                out.data());
  }
}

template <class S>
void matmul_bt(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out) {
  // a (T, K), b (N, K) -> out (T, N)
  if constexpr (std::is_same_v<S, float>) {
    out.resize(a.rows(), b.rows());
    gemm::multiply_bt(gemm::in(a), gemm::in(b), gemm::out(out));
  } else {
    const MatT<S> bt = b.transpose();  // (K, N)
    out.setZero(a.rows(), b.rows());
    add_product(a.data(), a.outerStride(), bt.data(), bt.cols(), a.rows(), a.cols(), bt.cols(), out.data());
  }
}

template <class S>
void matmul_at(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out) {
  // a (T, K), b (T, N) -> out (K, N); a^T is written out once (K, T) and multiplied as a row-major matrix
  thread_local MatT<S> at;
  at = a.transpose();
  matmul_rows<S>(at, b, out);
}

#define ATTN_MATMUL(S)                                                                \
  template void matmul_rows<S>(const ConstBlock<S>&, const ConstBlock<S>&, MatT<S>&); \
  template void matmul_bt<S>(const ConstBlock<S>&, const ConstBlock<S>&, MatT<S>&);   \
  template void matmul_at<S>(const ConstBlock<S>&, const ConstBlock<S>&, MatT<S>&);

ATTN_MATMUL(float)
ATTN_MATMUL(double)

}  // namespace attn::ops
