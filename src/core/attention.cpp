// Scaled dot-product attention: one head, and multi-head attention (fused QKV) in steps or at once.
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "error.hpp"
#include "ops.hpp"
#include "rng.hpp"

namespace attn {
namespace {

template <class M>
void require_shape(const M& m, Eigen::Index rows, Eigen::Index cols, const std::string& what) {
  if (m.rows() != rows || m.cols() != cols) {
    throw_input_error(
        {what, " has shape (", m.rows(), ", ", m.cols(), "); expected (", rows, ", ", cols, ")"});
  }
}

// Checks x (T, D) for a usable token count and finite entries.
void require_tokens(const Mat& x) {
  if (x.rows() == 0) throw InputError("the input has no tokens; attention needs at least one");
  if (x.rows() > kMaxTokens) {
    throw_input_error({"the input has ", x.rows(), " tokens; allowed: 1 to ", kMaxTokens});
  }
  if (x.cols() == 0) throw InputError("the input rows are empty; d_model must be at least 1");
  require_finite(x, "the input x");
}

// Throws when a score the softmax reads (every entry, or the lower triangle when causal) is not finite.
void require_unmasked_finite(const Mat& scores, bool causal) {
  if (!causal) {
    require_finite_result(scores, "the attention scores");
    return;
  }
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {  // row i's keys 0 .. i, adjacent in the row-major data
    require_finite_result(scores.data() + i * scores.cols(), std::min(i + 1, scores.cols()),
                          "the attention scores");
  }
}

std::vector<int> positions_for(const AttentionOptions& opt, Eigen::Index t) {
  if (opt.position_ids.empty()) return range_positions(static_cast<int>(t));
  if (static_cast<Eigen::Index>(opt.position_ids.size()) != t) {
    throw_input_error({"got ", opt.position_ids.size(), " position ids for ", t, " tokens"});
  }
  require_positions(opt.position_ids);
  return opt.position_ids;
}

}  // namespace

HeadResult attend(const ConstBlock<float>& q_in, const ConstBlock<float>& k_in, const ConstBlock<float>& v,
                  const AttentionOptions& opt, int head, int heads) {
  // q, k: (T, d_k); v: (T, d_v)
  const Eigen::Index t = q_in.rows();
  if (t == 0) throw InputError("the input has no tokens; attention needs at least one");
  require_shape(k_in, t, q_in.cols(), "the keys");
  if (v.rows() != t) require_shape(v, t, v.cols(), "the values");
  const SchemeDef& scheme = scheme_def(opt.positions);
  ops::HeadMask mask;
  mask.causal = opt.causal;
  mask.positions = positions_for(opt, t);
  set_head_bias<float>(scheme, mask, head, heads, nullptr,
                       position_span(mask.positions, static_cast<int>(t)));
  // 1. the scheme turns each query and key by its own position (RoPE).
  // 2. scores = (q / sqrt(d_k)) k^T (T, T) with the scheme's bias and the causal mask, the weights
  //    (T, T) and the blend (T, d_v)
  HeadResult r;
  if (scheme.rotation) {
    const auto width = static_cast<int>(q_in.cols());
    const ops::RopeTable turn = scheme.rotation(width, mask.positions, opt.rope_base);
    Mat q = q_in, k = k_in;
    ops::rope_rotate(q, 0, width, turn, false);
    ops::rope_rotate(k, 0, width, turn, false);
    ops::attention_forward<float>(q, k, v, mask, r.scores, r.weights, r.output);
  } else {
    ops::attention_forward<float>(q_in, k_in, v, mask, r.scores, r.weights, r.output);
  }
  require_unmasked_finite(r.scores, opt.causal);
  return r;
}

HeadResult single_head(const Mat& x, const Mat& w_q, const Mat& w_k, const Mat& w_v,
                       const AttentionOptions& opt) {
  require_tokens(x);
  const Eigen::Index d = x.cols();
  require_shape(w_q, d, w_q.cols(), "w_q");
  if (w_q.cols() == 0) throw InputError("w_q has no columns; d_k must be at least 1");
  require_shape(w_k, d, w_q.cols(), "w_k");
  require_shape(w_v, d, w_v.cols(), "w_v");
  require_finite(w_q, "w_q");
  require_finite(w_k, "w_k");
  require_finite(w_v, "w_v");
  Mat q, k, v;  // (T, d_k), (T, d_k), (T, d_v)
  ops::matmul_rows<float>(x, w_q, q);
  ops::matmul_rows<float>(x, w_k, k);
  ops::matmul_rows<float>(x, w_v, v);
  HeadResult r = attend(q, k, v, opt);
  require_finite_result(r.output, "the attention output");
  return r;
}

MhaWeights MhaWeights::random(int d_model, int heads, std::uint64_t seed, float gain) {
  require_range(d_model, 1, kMaxDModel, "d_model");
  head_dim(d_model, heads);
  require_weight_count(4LL * d_model * d_model, "an attention layer (4 x d_model x d_model)");
  Rng rng(mix_seed(seed, 0xa77eULL));
  MhaWeights w;
  w.heads = heads;
  const float scale = gain / std::sqrt(static_cast<float>(d_model));
  w.w_qkv = rng.normal_matrix(d_model, 3 * d_model, scale);
  w.w_o = rng.normal_matrix(d_model, d_model, scale);
  return w;
}

TransformerConfig attention_layer_config(int d_model, int heads, const AttentionOptions& opt) {
  TransformerConfig c;
  c.d_model = d_model;
  c.heads = heads;
  c.norm = Norm::None;
  c.positions = opt.positions;
  c.causal = opt.causal;
  c.base = opt.rope_base;
  return c;
}

std::vector<int> require_attention_inputs(const Mat& x, const MhaWeights& w, const AttentionOptions& opt) {
  // x: (T, D); w_qkv: (D, 3D); w_o: (D, D)
  require_tokens(x);
  const auto d = static_cast<int>(x.cols());
  head_dim(d, w.heads);
  require_shape(w.w_qkv, d, 3 * d, "w_qkv");
  require_shape(w.w_o, d, d, "w_o");
  require_finite(w.w_qkv, "w_qkv");
  require_finite(w.w_o, "w_o");
  if (scheme_def(opt.positions).rotation) require_base(opt.rope_base);
  return positions_for(opt, x.rows());
}

void require_finite_heads(const LayerCapture& capture, bool causal) {
  for (const Mat& scores : capture.scores) require_unmasked_finite(scores, causal);
  require_finite_result(capture.attention, "the attention output");
}

MhaResult take_heads(LayerCapture& capture) {
  MhaResult r;
  const auto heads = static_cast<Eigen::Index>(capture.scores.size());
  const Eigen::Index d_k = heads > 0 ? capture.concat.cols() / heads : 0;
  r.output = std::move(capture.attention);
  r.head.resize(capture.scores.size());
  for (size_t h = 0; h < r.head.size(); ++h) {
    // head h's blend (T, d_k): its slice of the concatenation
    r.head[h].output = capture.concat.middleCols(static_cast<Eigen::Index>(h) * d_k, d_k);
    r.head[h].scores = std::move(capture.scores[h]);
    r.head[h].weights = std::move(capture.weights[h]);
  }
  r.concat = std::move(capture.concat);
  return r;
}

MhaSteps::MhaSteps(const Mat& x, const MhaWeights& w, const AttentionOptions& opt, int step_rows,
                   const std::vector<char>* heads_off, HeadSpan span) {
  positions_ = require_attention_inputs(x, w, opt);
  config_ = attention_layer_config(static_cast<int>(x.cols()), w.heads, opt);
  layer_ = std::make_unique<LayerSteps<float>>(config_, w, x, capture_, &positions_, nullptr, heads_off,
                                               step_rows, span);
  whole_ = span.all(w.heads);
}

void MhaSteps::step() {
  if (done()) return;
  layer_->step();
  if (layer_->last_head() >= 0) {
    require_unmasked_finite(capture_.scores[static_cast<size_t>(layer_->last_head())], config_.causal);
  }
  if (done()) {
    capture_.qkv.resize(0, 0);
    if (whole_) require_finite_result(capture_.attention, "the attention output");
  }
}

Mat mha_output_rows(const Mat& concat, const MhaWeights& w, int first, int n) {
  // concat (T, D), W_O (D, D) -> (n, D)
  if (concat.cols() != w.w_o.rows() || first < 0 || n < 0 || first + n > concat.rows()) {
    throw_input_error({"rows ", first, " to ", first + n - 1, " of a (", concat.rows(), ", ", concat.cols(),
                       ") concatenation do not fit W_O (", w.w_o.rows(), ", ", w.w_o.cols(), ")"});
  }
  Mat out;
  ops::matmul_rows<float>(concat.middleRows(first, n), w.w_o, out);
  require_finite_result(out, "the attention output");
  return out;
}

MhaResult MhaSteps::take() {
  if (!done()) throw InputError("the attention layer has not finished its steps");
  return take_heads(capture_);
}

MhaResult multi_head(const Mat& x, const MhaWeights& w, const AttentionOptions& opt,
                     const std::vector<char>* heads_off) {
  MhaSteps steps(x, w, opt, 0, heads_off);
  while (!steps.done()) steps.step();
  return steps.take();
}

std::vector<MhaResult> multi_head(const Batch& x, const MhaWeights& w, const AttentionOptions& opt) {
  if (x.empty()) throw InputError("the batch is empty; give at least one sequence");
  std::vector<MhaResult> out;
  out.reserve(x.size());
  for (const Mat& item : x) out.push_back(multi_head(item, w, opt));
  return out;
}

int head_dim(int d_model, int heads) {
  if (heads < 1) throw_input_error({"the number of heads is ", heads, "; it must be at least 1"});
  if (d_model < 1) throw_input_error({"d_model is ", d_model, "; it must be at least 1"});
  if (d_model % heads != 0) {
    throw_input_error({"d_model ", d_model, " is not divisible by ", heads,
                       " heads: the heads must split d_model evenly (", d_model, " / ", heads,
                       " is not a whole number)"});
  }
  return d_model / heads;
}

ParameterCount count_parameters(int d_model, int heads) {
  require_range(d_model, 1, 1 << 20, "d_model");
  const int d_k = head_dim(d_model, heads);
  const long long d = d_model;
  ParameterCount p;
  p.d_k = d_k;
  p.fused = static_cast<long long>(heads) * 3 * d * d_k + d * d;  // H heads of Q, K, V (D, d_k) + W_O
  p.single_head = 3 * d * d + d * d;                              // W_Q, W_K, W_V (D, D) + W_O
  return p;
}

}  // namespace attn
