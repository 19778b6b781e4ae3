// The one transformer forward: a layer in steps (projection, heads, W_o, norms and feed-forward) and the
// stack of layers; every model of the core runs through it.
#include "core/model/transformer.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/positions.hpp"

namespace attn {
namespace {

// The copies and sums of this file as plain loops over the row-major data: the page's wasm builds this
// file for size (-Os), where an Eigen assignment calls a function per entry (a tenth of the router's
// training time in the page).
// dst's rows first .. first + n - 1 and columns col .. col + m - 1 = src (n, m)
template <class S>
void put_block(const MatT<S>& src, int first, int col, MatT<S>& dst) {
  for (Eigen::Index r = 0; r < src.rows(); ++r) {
    std::copy_n(src.data() + r * src.cols(), src.cols(), dst.data() + (first + r) * dst.cols() + col);
  }
}

// dst = src (T, D)
template <class S>
void copy_to(const MatT<S>& src, MatT<S>& dst) {
  dst.resize(src.rows(), src.cols());
  std::copy_n(src.data(), src.size(), dst.data());
}

// out = a + b, each (T, D): a residual connection
template <class S>
void add_to(const MatT<S>& a, const MatT<S>& b, MatT<S>& out) {
  eigen_assert(a.rows() == b.rows() && a.cols() == b.cols());
  out.resize(a.rows(), a.cols());
  for (Eigen::Index i = 0; i < a.size(); ++i) out.data()[i] = a.data()[i] + b.data()[i];
}

// rows [at + first, at + first + n) of out (at + T, N) = rows [first, first + n) of x (T, K) w (K, N)
template <class S>
void project_rows(const MatT<S>& x, const MatT<S>& w, int first, int n, MatT<S>& out, int at = 0) {
  if (at == 0 && first == 0 && n == x.rows() && n == out.rows()) {  // all rows: straight into out
    ops::matmul_rows<S>(x, w, out);
    return;
  }
  MatT<S> part;  // (n, N)
  ops::matmul_rows<S>(x.middleRows(first, n), w, part);
  put_block(part, at + first, 0, out);
}

// rows [first, first + n) of out (T, N) += bias (1, N); an empty bias adds nothing
template <class S>
void add_bias_rows(const MatT<S>& bias, int first, int n, MatT<S>& out) {
  if (bias.size() == 0) return;
  for (int r = first; r < first + n; ++r) {
    for (Eigen::Index c = 0; c < out.cols(); ++c) out(r, c) += bias(0, c);
  }
}

// Rows first .. first + n - 1 of x (T, K) times columns col .. col + m - 1 of w (K, N), into the same
// block of out (T, N): each entry the same sum over k as a product with all of w gives.
template <class S>
void project_row_cols(const MatT<S>& x, const MatT<S>& w, int first, int n, int col, int m, MatT<S>& out) {
  MatT<S> part;  // (n, m)
  ops::matmul_rows<S>(x.middleRows(first, n), w.middleCols(col, m), part);
  put_block(part, first, col, out);
}

}  // namespace

bool HeadSwitch::is_off(int layer, int head) const {
  const auto l = static_cast<size_t>(layer), h = static_cast<size_t>(head);
  return l < off.size() && h < off[l].size() && off[l][h] != 0;
}

template <class S>
LayerSteps<S>::LayerSteps(const TransformerConfig& c, const LayerWeightsT<S>& w, const MatT<S>& x,
                          LayerCaptureT<S>& out, const std::vector<int>* positions,
                          const ops::RopeTable* turn, const std::vector<char>* heads_off, int step_rows,
                          HeadSpan span, const std::vector<std::vector<double>>* heads_mean, bool extend)
    : c_(c), w_(w), x_(x), in_(&x), out_(out), turn_(turn), mean_(heads_mean) {
  // x (T, D); w_qkv (D, D + 2 G d_k); w_o (D, D)
  const auto t = static_cast<int>(x.rows());
  d_ = static_cast<int>(x.cols());
  dk_ = d_ / c.heads;
  const int groups = c.kv_groups();
  if (groups < 1 || c.heads % groups != 0) {
    throw_input_error({c.kv_heads, " key/value heads do not divide ", c.heads, " heads"});
  }
  group_ = c.heads / groups;
  if (w.w_qkv.cols() != d_ + 2 * groups * dk_) {
    throw_input_error({"W_qkv has ", w.w_qkv.cols(), " columns; ", groups, " key/value heads of ", dk_,
                       " need ", d_ + 2 * groups * dk_});
  }
  first_ = span.begin, last_ = span.end_of(c.heads);
  if (first_ < 0 || first_ >= last_ || last_ > c.heads) {
    throw_input_error(
        {"heads ", first_, " to ", last_ - 1, " are not a span of the layer's ", c.heads, " heads"});
  }
  part_ = !span.all(c.heads);
  if (part_ && (c.norm != Norm::None || w.b_qkv.size() > 0 || w.b_o.size() > 0)) {
    throw InputError("only the bare attention layer, without biases, splits its heads");
  }
  if ((w.b_qkv.size() > 0 && w.b_qkv.cols() != w.w_qkv.cols()) ||
      (w.b_o.size() > 0 && w.b_o.cols() != w.w_o.cols())) {
    throw InputError("a projection's bias does not match its weight's width");
  }
  if (extend) {
    if (positions || part_ || (out.qkv.rows() > 0 && out.qkv.cols() != w.w_qkv.cols())) {
      throw InputError("a key/value cache continues whole layers at the next positions only");
    }
    past_ = static_cast<int>(out.qkv.rows());
  }
  rows_ = step_rows > 0 ? std::min(step_rows, std::max(t, 1)) : t;
  blocks_ = rows_ > 0 ? (t + rows_ - 1) / rows_ : 0;
  total_ = part_ ? blocks_ + (last_ - first_) : 2 * blocks_ + c.heads + (c.norm == Norm::None ? 0 : 1);
  mask_.causal = c.causal;
  mask_.first_query = past_;
  if (positions) mask_.positions = *positions;
  span_ = position_span(mask_.positions, past_ + t);
  const SchemeDef& scheme = scheme_def(c.positions);
  if (scheme.rotation && !turn_) {
    own_turn_ = scheme.rotation(dk_, positions ? *positions : range_positions(past_ + t), c.base);
    turn_ = &own_turn_;
  }
  if (!scheme.rotation) turn_ = nullptr;
  if (c.norm == Norm::PreLayerNorm || c.norm == Norm::PreRMSNorm) {  // the sub-layer reads norm(x): (T, D)
    pre_norm(c_, x, w.ln1_gain, w.ln1_bias, out_.norm1, out_.xhat1, out_.rstd1);
    in_ = &out_.norm1;
  }
  if (past_ > 0) {  // the cache's rows, then room for the new ones'
    MatT<S> qkv(past_ + t, w.w_qkv.cols());
    std::copy_n(out_.qkv.data(), past_ * qkv.cols(), qkv.data());
    out_.qkv.swap(qkv);
  } else {  // a whole forward keeps the capture's storage (training's steps reuse it)
    out_.qkv.resize(t, w.w_qkv.cols());
  }
  out_.scores.resize(static_cast<size_t>(c.heads));
  out_.weights.resize(static_cast<size_t>(c.heads));
  out_.off.assign(static_cast<size_t>(c.heads), 0);
  if (heads_off) {
    for (size_t h = 0; h < out_.off.size() && h < heads_off->size(); ++h) out_.off[h] = (*heads_off)[h];
  }
  out_.concat.resize(t, d_);
  if (part_) {
    out_.concat.setZero();
    out_.attention = MatT<S>();  // empty
  } else {
    out_.attention.resize(t, d_);
  }
}

template <class S>
void LayerSteps<S>::step() {
  if (done()) return;
  const auto t = static_cast<int>(x_.rows());
  const int k = next_++;
  last_head_ = -1;
  if (k < blocks_) {  // 1. all heads' queries, keys and values: (T, 3D), a block of rows
    const int first = k * rows_, n = std::min(rows_, t - k * rows_);
    if (!part_) {
      project_rows(*in_, w_.w_qkv, first, n, out_.qkv, past_);
      add_bias_rows(w_.b_qkv, past_ + first, n, out_.qkv);
      return;
    }
    // the span's queries, and the keys and values of their groups
    const int g0 = first_ / group_, g1 = (last_ - 1) / group_ + 1, groups = c_.heads / group_;
    project_row_cols(*in_, w_.w_qkv, first, n, first_ * dk_, (last_ - first_) * dk_, out_.qkv);
    project_row_cols(*in_, w_.w_qkv, first, n, d_ + g0 * dk_, (g1 - g0) * dk_, out_.qkv);
    project_row_cols(*in_, w_.w_qkv, first, n, d_ + (groups + g0) * dk_, (g1 - g0) * dk_, out_.qkv);
    return;
  }
  if (k < blocks_ + (last_ - first_)) {
    // 2. head h reads its d_k-wide slice of q and its group's slices of k and v in place:
    // view(B, T, H, d_k).transpose(1, 2), the keys and values repeated over the group
    const int h = first_ + k - blocks_;
    const auto hs = static_cast<size_t>(h);
    last_head_ = h;
    const int k_col = c_.key_column(d_, h), v_col = c_.value_column(d_, h);
    if (turn_) {  // the scheme turns this head's queries, and its group's keys once, by their positions
      ops::rope_rotate(out_.qkv, h * dk_, dk_, *turn_, false, past_);
      if (h % group_ == 0 || h == first_) ops::rope_rotate(out_.qkv, k_col, dk_, *turn_, false, past_);
    }
    set_head_bias(scheme_def(c_.positions), mask_, h, c_.heads, &w_.distance_bias, span_);
    ops::attention_forward<S>(out_.qkv.block(past_, h * dk_, t, dk_), out_.qkv.middleCols(k_col, dk_),
                              out_.qkv.middleCols(v_col, dk_), mask_, out_.scores[hs], out_.weights[hs],
                              head_out_);
    // 3. glue the heads back together side by side: (T, D); a switched-off head adds nothing, or its mean
    if (out_.off[hs]) {
      const bool has_mean = mean_ && hs < mean_->size() && !(*mean_)[hs].empty();
      if (has_mean && static_cast<int>((*mean_)[hs].size()) != dk_) {
        throw_input_error(
            {"the mean output of head ", h, " has ", (*mean_)[hs].size(), " numbers; d_k is ", dk_});
      }
      for (Eigen::Index r = 0; r < head_out_.rows(); ++r) {
        for (int j = 0; j < dk_; ++j)
          head_out_(r, j) = has_mean ? static_cast<S>((*mean_)[hs][static_cast<size_t>(j)]) : S(0);
      }
    }
    put_block(head_out_, 0, h * dk_, out_.concat);
    return;
  }
  if (k < 2 * blocks_ + c_.heads) {  // 4. W_o mixes the heads: (T, D), a block of rows (never in a part)
    const int b = k - blocks_ - c_.heads;
    project_rows(out_.concat, w_.w_o, b * rows_, std::min(rows_, t - b * rows_), out_.attention);
    add_bias_rows(w_.b_o, b * rows_, std::min(rows_, t - b * rows_), out_.attention);
    if (c_.norm == Norm::None && done()) copy_to(out_.attention, out_.output);
    return;
  }
  finish();
}

template <class S>
void LayerSteps<S>::finish() {
  // 5. add the residual and normalise: (T, D)
  LayerCaptureT<S>& L = out_;
  add_to(L.attention, x_, L.residual1);
  if (c_.norm == Norm::PreLayerNorm || c_.norm == Norm::PreRMSNorm) {  // the residual stream unnormalised
    if (c_.d_ff <= 0) {
      copy_to(L.residual1, L.output);
      return;
    }
    // feed-forward of norm(residual1), added to it: (T, D)
    pre_norm(c_, L.residual1, w_.ln2_gain, w_.ln2_bias, L.norm2, L.xhat2, L.rstd2);
    feed_forward(L.norm2, L);
    add_to(L.residual1, L.ffn, L.output);
    return;
  }
  ops::layer_norm_forward(L.residual1, w_.ln1_gain, w_.ln1_bias, L.norm1, L.xhat1, L.rstd1);
  if (c_.d_ff <= 0) {
    copy_to(L.norm1, L.output);
    return;
  }
  // 6. feed-forward of norm1, the second residual and LayerNorm
  feed_forward(L.norm1, L);
  add_to(L.norm1, L.ffn, L.residual2);
  ops::layer_norm_forward(L.residual2, w_.ln2_gain, w_.ln2_bias, L.output, L.xhat2, L.rstd2);
}

template <class S>
void pre_norm(const TransformerConfig& c, const MatT<S>& in, const MatT<S>& gain, const MatT<S>& bias,
              MatT<S>& out, MatT<S>& xhat, MatT<S>& rstd) {
  if (c.norm == Norm::PreRMSNorm) {
    ops::rms_norm_forward(in, gain, out, rstd, c.norm_eps);
    xhat = MatT<S>();
  } else if (bias.size() == 0) {
    ops::layer_norm_forward(in, gain, MatT<S>(MatT<S>::Zero(1, in.cols())), out, xhat, rstd,
                            static_cast<S>(c.norm_eps));
  } else {
    ops::layer_norm_forward(in, gain, bias, out, xhat, rstd, static_cast<S>(c.norm_eps));
  }
}

template <class S>
void LayerSteps<S>::feed_forward(const MatT<S>& in, LayerCaptureT<S>& L) const {
  // ReLU: ReLU(in W1 + b1) (T, F); SwiGLU: SiLU(in W1) * (in W3) (T, F); then W2 + b2 (T, D)
  ops::matmul_rows(in, w_.w1, L.hidden);
  if (w_.b1.size() > 0) L.hidden.rowwise() += w_.b1.row(0);
  if (c_.activation == Activation::Gelu) {
    ops::gelu_tanh_inplace(L.hidden);
  } else if (c_.activation == Activation::SwiGLU) {
    MatT<S> gate;  // (T, F)
    ops::matmul_rows(in, w_.w3, gate);
    ops::silu_inplace(L.hidden);
    L.hidden.array() *= gate.array();
  } else {
    L.hidden = L.hidden.cwiseMax(S(0));
  }
  ops::matmul_rows(L.hidden, w_.w2, L.ffn);
  if (w_.b2.size() > 0) L.ffn.rowwise() += w_.b2.row(0);
}

template <class S>
void layer_forward(const TransformerConfig& c, const LayerWeightsT<S>& w, const MatT<S>& x,
                   LayerCaptureT<S>& out, const std::vector<int>* positions, const ops::RopeTable* turn,
                   const std::vector<char>* heads_off, const std::vector<std::vector<double>>* heads_mean,
                   bool extend) {
  LayerSteps<S> steps(c, w, x, out, positions, turn, heads_off, 0, {}, heads_mean, extend);
  while (!steps.done()) steps.step();
}

template <class S>
void transformer_forward(const TransformerConfig& c, const std::vector<LayerWeightsT<S>>& layers,
                         const MatT<S>& x, std::vector<LayerCaptureT<S>>& capture, const HeadSwitch* off,
                         const ops::RopeTable* turn, bool extend) {
  capture.resize(layers.size());
  for (size_t l = 0; l < layers.size(); ++l) {
    LayerCaptureT<S>& L = capture[l];
    L.input = l == 0 ? x : capture[l - 1].output;
    const std::vector<char>* layer_off = off && l < off->off.size() ? &off->off[l] : nullptr;
    const std::vector<std::vector<double>>* layer_mean =
        off && l < off->mean.size() ? &off->mean[l] : nullptr;
    layer_forward(c, layers[l], L.input, L, nullptr, turn, layer_off, layer_mean, extend);
  }
}

template void pre_norm(const TransformerConfig&, const MatT<float>&, const MatT<float>&, const MatT<float>&,
                       MatT<float>&, MatT<float>&, MatT<float>&);
template void pre_norm(const TransformerConfig&, const MatT<double>&, const MatT<double>&,
                       const MatT<double>&, MatT<double>&, MatT<double>&, MatT<double>&);
template class LayerSteps<float>;
template class LayerSteps<double>;
template void layer_forward(const TransformerConfig&, const LayerWeightsT<float>&, const MatT<float>&,
                            LayerCaptureT<float>&, const std::vector<int>*, const ops::RopeTable*,
                            const std::vector<char>*, const std::vector<std::vector<double>>*, bool);
template void transformer_forward(const TransformerConfig&, const std::vector<LayerWeightsT<float>>&,
                                  const MatT<float>&, std::vector<LayerCaptureT<float>>&, const HeadSwitch*,
                                  const ops::RopeTable*, bool);
template void transformer_forward(const TransformerConfig&, const std::vector<LayerWeightsT<double>>&,
                                  const MatT<double>&, std::vector<LayerCaptureT<double>>&, const HeadSwitch*,
                                  const ops::RopeTable*, bool);

}  // namespace attn
