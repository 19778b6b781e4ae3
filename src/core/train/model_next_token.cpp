// The next-token model's backward pass: the mean cross-entropy over the positions with a target, through the
// final LayerNorm and the pre-norm layers (kept apart from model.cpp so the page, which trains only the
// post-norm router, does not carry it).
#include <string>

#include "core/error.hpp"
#include "core/ops.hpp"
#include "core/train/model.hpp"

namespace attn::train {

template <class S>
S ModelT<S>::backward_tokens(const ForwardT<S>& f, const std::vector<int>& targets, ParamsT<S>& g,
                             S scale) const {
  const ModelConfig& c = config;
  if (c.output != Output::NextToken) throw InputError("backward_tokens() needs a next-token model");
  const int t = f.tokens();
  if (static_cast<int>(targets.size()) != t) {
    throw_input_error({"there are ", targets.size(), " targets for ", t, " tokens"});
  }
  // 1. softmax cross-entropy per row: dlogits (T, C) = scale / n * (p - onehot), rows without a target 0
  int n = 0;
  for (int y : targets) n += y >= 0 ? 1 : 0;
  if (n == 0) throw InputError("no position has a target token");
  MatT<S> dlogits = f.probs, row;
  S loss = 0;
  for (int i = 0; i < t; ++i) {
    const int y = targets[static_cast<size_t>(i)];
    if (y < 0) {
      dlogits.row(i).setZero();
      continue;
    }
    require_range(y, 0, c.classes - 1, "a target token");
    row = f.logits.row(i);
    loss += ops::cross_entropy(row, y);
    dlogits(i, y) -= S(1);
  }
  dlogits *= scale / S(n);
  // 2. linear on every row: logits = top W + b
  MatT<S> dw, dx;  // dx (T, D)
  ops::matmul_at<S>(f.top, dlogits, dw);
  g.classifier_w += dw;
  g.classifier_b += dlogits.colwise().sum();
  ops::matmul_bt<S>(dlogits, params.classifier_w, dx);
  if (c.norm == Norm::PreLayerNorm) {
    backward_layers_pre(f, dx, g);
  } else {
    backward_layers(f, dx, g);
  }
  return loss / S(n);
}

template <class S>
void ModelT<S>::backward_layers_pre(const ForwardT<S>& f, MatT<S>& dx, ParamsT<S>& g) const {
  MatT<S> dres, dnorm, din;
  // the final LayerNorm: d top -> d(last layer's output)
  ops::layer_norm_backward(dx, f.final_xhat, f.final_rstd, params.final_gain, dres, g.final_gain,
                           g.final_bias);
  dx = dres;
  for (int l = config.layers - 1; l >= 0; --l) {
    const LayerParamsT<S>& p = params.layers[static_cast<size_t>(l)];
    LayerParamsT<S>& gp = g.layers[static_cast<size_t>(l)];
    const LayerForwardT<S>& L = f.layers[static_cast<size_t>(l)];
    // output = residual1 [+ ffn(LayerNorm(residual1))]: dres1 (T, D)
    dres = dx;
    if (config.d_ff > 0) {
      backward_ffn(L, p, gp, dx, L.norm2, din);
      ops::layer_norm_backward(din, L.xhat2, L.rstd2, p.ln2_gain, dnorm, gp.ln2_gain, gp.ln2_bias);
      dres += dnorm;
    }
    // residual1 = x + attention(LayerNorm(x))
    backward_attention(L, p, gp, dres, L.norm1, din);
    ops::layer_norm_backward(din, L.xhat1, L.rstd1, p.ln1_gain, dnorm, gp.ln1_gain, gp.ln1_bias);
    dx = dres + dnorm;
  }
  backward_embeddings(f, dx, g);
}

template float ModelT<float>::backward_tokens(const ForwardT<float>&, const std::vector<int>&,
                                              ParamsT<float>&, float) const;
template double ModelT<double>::backward_tokens(const ForwardT<double>&, const std::vector<int>&,
                                                ParamsT<double>&, double) const;

}  // namespace attn::train
