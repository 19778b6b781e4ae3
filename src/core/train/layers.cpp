// Forward and backward of each building block of the refund router, written out by hand.
#include "core/train/layers.hpp"

#include <cmath>
#include <limits>

namespace attn::train::ops {

template <class S>
void matmul_rows(const MatT<S>& a, const MatT<S>& b, MatT<S>& out) {
  const Eigen::Index t = a.rows(), kk = a.cols(), n = b.cols();
  out.setZero(t, n);
  for (Eigen::Index i = 0; i < t; ++i) {
    S* o = out.data() + i * n;
    for (Eigen::Index k = 0; k < kk; ++k) {
      const S s = a(i, k);
      const S* br = b.data() + k * n;
      for (Eigen::Index c = 0; c < n; ++c) o[c] += s * br[c];  // lanes independent: no reordering
    }
  }
}

template <class S>
void layer_norm_forward(const MatT<S>& x, const MatT<S>& gain, const MatT<S>& bias, MatT<S>& y, MatT<S>& xhat,
                        MatT<S>& rstd) {
  // x (T, D) -> y, xhat (T, D); rstd (T, 1)
  const Eigen::Index t = x.rows(), d = x.cols();
  y.resize(t, d);
  xhat.resize(t, d);
  rstd.resize(t, 1);
  const S eps = S(1e-5);
  for (Eigen::Index r = 0; r < t; ++r) {
    const S mean = x.row(r).sum() / S(d);
    S var = 0;
    for (Eigen::Index c = 0; c < d; ++c) {
      const S e = x(r, c) - mean;
      xhat(r, c) = e;
      var += e * e;
    }
    var /= S(d);
    const S inv = S(1) / std::sqrt(var + eps);
    rstd(r, 0) = inv;
    xhat.row(r) *= inv;
    y.row(r) = xhat.row(r).cwiseProduct(gain) + bias;
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

template <class S>
void softmax_forward(const MatT<S>& scores, MatT<S>& weights) {
  weights.resize(scores.rows(), scores.cols());
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    const S max = scores.row(r).maxCoeff();
    if (!std::isfinite(max)) {  // a fully masked row attends nowhere
      weights.row(r).setZero();
      continue;
    }
    // The sum over keys is taken in double: then the result hardly depends on the key order, so without
    // positions a shuffled email gets the same weights (shuffled) to the last bit in practice.
    double sum = 0.0;
    for (Eigen::Index c = 0; c < scores.cols(); ++c) {
      const S e = std::exp(scores(r, c) - max);  // exp(-inf) = 0 for masked keys
      weights(r, c) = e;
      sum += static_cast<double>(e);
    }
    weights.row(r) *= static_cast<S>(1.0 / sum);
  }
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

void RopeTable::ensure(int w, int tokens, double base) {
  if (w == width && tokens <= positions) return;
  const int half = w / 2;
  int p = std::max(tokens, 64);
  if (w == width) p = std::max(p, 2 * positions);
  width = w;
  positions = p;
  cos.assign(static_cast<size_t>(p) * static_cast<size_t>(half), 0.0);
  sin.assign(cos.size(), 0.0);
  for (int i = 0; i < half; ++i) {
    // the same speed as the core's Rope: base^(-2i / width)
    const double speed = std::exp(-std::log(base) * (2.0 * i) / static_cast<double>(w));
    for (int t = 0; t < p; ++t) {
      const double angle = t * speed;
      cos[static_cast<size_t>(t) * half + i] = std::cos(angle);
      sin[static_cast<size_t>(t) * half + i] = std::sin(angle);
    }
  }
}

template <class S>
void rope_rotate(MatT<S>& m, int col, int width, const RopeTable& table, bool inverse) {
  // m (T, *): columns col .. col+width-1 hold one head's (T, d) queries or keys; pair i is (2i, 2i+1).
  const int half = width / 2;
  const double sign = inverse ? -1.0 : 1.0;
  for (Eigen::Index t = 0; t < m.rows(); ++t) {
    const size_t base = static_cast<size_t>(t) * static_cast<size_t>(table.width / 2);
    for (int i = 0; i < half; ++i) {
      const double c = table.cos[base + i], s = sign * table.sin[base + i];
      const double x0 = m(t, col + 2 * i), x1 = m(t, col + 2 * i + 1);
      m(t, col + 2 * i) = static_cast<S>(x0 * c - x1 * s);
      m(t, col + 2 * i + 1) = static_cast<S>(x0 * s + x1 * c);
    }
  }
}

template <class S>
void attention_head_forward(const MatT<S>& q, const MatT<S>& k, const MatT<S>& v, bool causal,
                            MatT<S>& weights, MatT<S>& out) {
  // 1. scores (T, T) = q k^T / sqrt(d)
  const S scale = S(1) / std::sqrt(S(q.cols()));
  const MatT<S> kt = k.transpose();  // (d, T)
  MatT<S> scores;
  matmul_rows(q, kt, scores);
  scores *= scale;
  // 2. causal: query i sees keys j <= i only
  if (causal) {
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
      for (Eigen::Index j = i + 1; j < scores.cols(); ++j) scores(i, j) = -std::numeric_limits<S>::infinity();
    }
  }
  // 3. weights (T, T), blend (T, d)
  softmax_forward(scores, weights);
  // The blend sums over keys in double (exact products, order-independent to double rounding), for the
  // same reason as the softmax sum.
  out = (weights.template cast<double>() * v.template cast<double>()).template cast<S>();
}

template <class S>
void attention_head_backward(const MatT<S>& q, const MatT<S>& k, const MatT<S>& v, const MatT<S>& weights,
                             const MatT<S>& dout, MatT<S>& dq, MatT<S>& dk, MatT<S>& dv) {
  const S scale = S(1) / std::sqrt(S(q.cols()));
  // out = w v: dw = dout v^T (T, T), dv = w^T dout (T, d)
  const MatT<S> dw = dout * v.transpose();
  dv.noalias() = weights.transpose() * dout;
  // through the softmax (masked entries have w = 0, so their gradient is 0)
  MatT<S> ds;
  softmax_backward(weights, dw, ds);
  // scores = q k^T * scale
  dq.noalias() = (ds * k) * scale;
  dk.noalias() = (ds.transpose() * q) * scale;
}

template <class S>
S softmax_cross_entropy(const MatT<S>& logits, int label, MatT<S>& probs) {
  softmax_forward(logits, probs);
  // -log p computed from the logits: log-sum-exp - logit(label)
  const S max = logits.maxCoeff();
  S sum = 0;
  for (Eigen::Index c = 0; c < logits.cols(); ++c) sum += std::exp(logits(0, c) - max);
  return std::log(sum) + max - logits(0, label);
}

template <class S>
void softmax_cross_entropy_backward(const MatT<S>& probs, int label, MatT<S>& dlogits) {
  dlogits = probs;
  dlogits(0, label) -= S(1);
}

#define ATTN_TRAIN_OPS(S)                                                                                  \
  template void matmul_rows<S>(const MatT<S>&, const MatT<S>&, MatT<S>&);                                  \
  template void layer_norm_forward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, MatT<S>&, MatT<S>&,  \
                                      MatT<S>&);                                                           \
  template void layer_norm_backward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, const MatT<S>&,     \
                                       MatT<S>&, MatT<S>&, MatT<S>&);                                      \
  template void softmax_forward<S>(const MatT<S>&, MatT<S>&);                                              \
  template void softmax_backward<S>(const MatT<S>&, const MatT<S>&, MatT<S>&);                             \
  template void rope_rotate<S>(MatT<S>&, int, int, const RopeTable&, bool);                                \
  template void attention_head_forward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, bool, MatT<S>&,  \
                                          MatT<S>&);                                                       \
  template void attention_head_backward<S>(const MatT<S>&, const MatT<S>&, const MatT<S>&, const MatT<S>&, \
                                           const MatT<S>&, MatT<S>&, MatT<S>&, MatT<S>&);                  \
  template S softmax_cross_entropy<S>(const MatT<S>&, int, MatT<S>&);                                      \
  template void softmax_cross_entropy_backward<S>(const MatT<S>&, int, MatT<S>&);

ATTN_TRAIN_OPS(float)
ATTN_TRAIN_OPS(double)

}  // namespace attn::train::ops
