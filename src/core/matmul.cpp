// The core's matrix products (matmul.hpp): gemm's kernel for float, plain loops for double.
#include "matmul.hpp"

#include <type_traits>

#include "gemm.hpp"

namespace attn::ops {

template <class S>
void matmul_rows(const ConstBlock<S>& a, const ConstBlock<S>& b, MatT<S>& out) {
  // a (T, K), b (K, N) -> out (T, N)
  const Eigen::Index t = a.rows(), kk = a.cols(), n = b.cols();
  if constexpr (std::is_same_v<S, float>) {
    out.resize(t, n);
    gemm::multiply(gemm::in(a), gemm::in(b), gemm::out(out));
  } else {  // lanes independent and k in order: the float kernel's summation order
    out.setZero(t, n);
    for (Eigen::Index i = 0; i < t; ++i) {
      S* o = out.data() + i * n;
      for (Eigen::Index k = 0; k < kk; ++k) {
        const S s = a(i, k);
        const S* br = b.data() + k * b.outerStride();
        for (Eigen::Index c = 0; c < n; ++c) o[c] += s * br[c];
      }
    }
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
    matmul_rows<S>(a, bt, out);
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
