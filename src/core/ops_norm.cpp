// Forward and backward of the norms (LayerNorm, RMSNorm) and activations (SiLU, GELU) of ops.hpp, written
// out by hand, for float and double.
#include <cmath>

#include "ops.hpp"

namespace attn::ops {

// ---------------------------------------------------------------------------------------------------
// [SECTION] LayerNorm
// ---------------------------------------------------------------------------------------------------

template <class S>
void layer_norm_forward(const MatT<S>& x, const MatT<S>& gain, const MatT<S>& bias, MatT<S>& y, MatT<S>& xhat,
                        MatT<S>& rstd, S eps) {
  // x (T, D) -> y, xhat (T, D); rstd (T, 1)
  const Eigen::Index t = x.rows(), d = x.cols();
  y.resize(t, d);
  xhat.resize(t, d);
  rstd.resize(t, 1);
  for (Eigen::Index r = 0; r < t; ++r) {
    // 1. mean and population variance in double
    const Eigen::RowVectorXd row = x.row(r).template cast<double>();
    const double mean = row.mean();
    const Eigen::RowVectorXd centred = row.array() - mean;
    const double sd = std::sqrt(centred.squaredNorm() / static_cast<double>(d) + static_cast<double>(eps));
    // 2. standardise, then scale and shift in S
    xhat.row(r) = (centred / sd).template cast<S>();
    rstd(r, 0) = static_cast<S>(1.0 / sd);
    y.row(r) = xhat.row(r).cwiseProduct(gain) + bias;
  }
}

template <class S>
void rms_norm_forward(const MatT<S>& x, const MatT<S>& gain, MatT<S>& y, MatT<S>& rstd, double eps) {
  // x (T, D) -> y (T, D); rstd (T, 1)
  const Eigen::Index t = x.rows(), d = x.cols();
  y.resize(t, d);
  rstd.resize(t, 1);
  for (Eigen::Index r = 0; r < t; ++r) {
    double squares = 0.0;
    for (Eigen::Index c = 0; c < d; ++c)
      squares += static_cast<double>(x(r, c)) * static_cast<double>(x(r, c));
    const double inv = 1.0 / std::sqrt(squares / static_cast<double>(d) + eps);
    rstd(r, 0) = static_cast<S>(inv);
    for (Eigen::Index c = 0; c < d; ++c)
      y(r, c) = static_cast<S>(static_cast<double>(x(r, c)) * inv) * gain(0, c);
  }
}

template <class S>
void silu_inplace(MatT<S>& m) {
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const S v = m.data()[i];
    m.data()[i] = v / (S(1) + std::exp(-v));
  }
}

template <class S>
void gelu_tanh_inplace(MatT<S>& m) {
  const double k = std::sqrt(2.0 / M_PI);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const double x = static_cast<double>(m.data()[i]);
    m.data()[i] = static_cast<S>(0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x))));
  }
}

template <class S>
void layer_norm_backward(const MatT<S>& dy, const MatT<S>& xhat, const MatT<S>& rstd, const MatT<S>& gain,
                         MatT<S>& dx, MatT<S>& dgain, MatT<S>& dbias) {
  // dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)), dxhat = dy * gain
  const Eigen::Index t = dy.rows(), d = dy.cols();
  dx.resize(t, d);
  for (Eigen::Index r = 0; r < t; ++r) {
    dgain += dy.row(r).cwiseProduct(xhat.row(r));
    dbias += dy.row(r);
    S mean_g = 0, mean_gx = 0;
    for (Eigen::Index c = 0; c < d; ++c) {
      const S g = dy(r, c) * gain(0, c);
      dx(r, c) = g;
      mean_g += g;
      mean_gx += g * xhat(r, c);
    }
    mean_g /= S(d);
    mean_gx /= S(d);
    const S inv = rstd(r, 0);
    for (Eigen::Index c = 0; c < d; ++c) dx(r, c) = inv * (dx(r, c) - mean_g - xhat(r, c) * mean_gx);
  }
}

#define ATTN_NORM_OPS(S)                                                                                  \
  template void layer_norm_forward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, MatT<S>&, MatT<S>&, \
                                      MatT<S>&, S);                                                       \
  template void rms_norm_forward<S>(const MatT<S>&, const MatT<S>&, MatT<S>&, MatT<S>&, double);          \
  template void silu_inplace<S>(MatT<S>&);                                                                \
  template void gelu_tanh_inplace<S>(MatT<S>&);                                                           \
  template void layer_norm_backward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, const MatT<S>&,    \
                                       MatT<S>&, MatT<S>&, MatT<S>&);

ATTN_NORM_OPS(float)
ATTN_NORM_OPS(double)

}  // namespace attn::ops
