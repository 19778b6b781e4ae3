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
  if (causal) {
    const Mat lower = scores.triangularView<Eigen::Lower>();
    require_finite_result(lower, "the attention scores");
  } else {
    require_finite_result(scores, "the attention scores");
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
  ops::HeadMask mask;
  mask.causal = opt.causal;
  mask.positions = positions_for(opt, t);
  if (opt.positions == Scheme::Alibi) mask.alibi_slope = Alibi{heads}.slope(head);
  // 1. RoPE turns each query and key by its own position.
  // 2. scores = (q / sqrt(d_k)) k^T (T, T) with ALiBi's distance penalty and the causal mask, the weights
  //    (T, T) and the blend (T, d_v)
  HeadResult r;
  if (opt.positions == Scheme::Rope) {
    const Rope rope{opt.rope_base};
    const Mat q = rope.rotate(q_in, mask.positions), k = rope.rotate(k_in, mask.positions);
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

namespace {

// rows [first, first + n) of out (T, N) = x (T, K) w (K, N)
void project_rows(const Mat& x, const Mat& w, int first, int n, Mat& out) {
  if (first == 0 && n == x.rows()) {  // all rows: straight into out
    ops::matmul_rows<float>(x, w, out);
    return;
  }
  Mat part;  // (n, N)
  ops::matmul_rows<float>(x.middleRows(first, n), w, part);
  out.middleRows(first, n) = part;
}

}  // namespace

MhaSteps::MhaSteps(const Mat& x, const MhaWeights& w, const AttentionOptions& opt, int step_rows)
    : x_(x), w_(w), opt_(opt) {
  // x: (T, D); w_qkv: (D, 3D); w_o: (D, D)
  require_tokens(x);
  d_ = static_cast<int>(x.cols());
  d_k_ = head_dim(d_, w.heads);
  require_shape(w.w_qkv, d_, 3 * d_, "w_qkv");
  require_shape(w.w_o, d_, d_, "w_o");
  require_finite(w.w_qkv, "w_qkv");
  require_finite(w.w_o, "w_o");
  const auto t = static_cast<int>(x.rows());
  rows_ = step_rows > 0 ? step_rows : t;
  blocks_ = (t + rows_ - 1) / rows_;
  total_ = 2 * blocks_ + w.heads;
  qkv_.resize(t, 3 * d_);
  r_.concat.resize(t, d_);
  r_.output.resize(t, d_);
  r_.head.reserve(static_cast<size_t>(w.heads));
}

void MhaSteps::step() {
  if (done()) return;
  const auto t = static_cast<int>(x_.rows());
  const int k = next_++;
  if (k < blocks_) {  // 1. all heads' queries, keys and values: (T, 3D), a block of rows
    project_rows(x_, w_.w_qkv, k * rows_, std::min(rows_, t - k * rows_), qkv_);
    return;
  }
  if (k < blocks_ + w_.heads) {
    // 2. head h reads its d_k-wide slice of each block in place: view(B, T, H, d_k).transpose(1, 2)
    const int h = k - blocks_;
    r_.head.push_back(attend(qkv_.middleCols(h * d_k_, d_k_), qkv_.middleCols(d_ + h * d_k_, d_k_),
                             qkv_.middleCols(2 * d_ + h * d_k_, d_k_), opt_, h, w_.heads));
    // 3. glue the heads back together side by side: (T, D)
    r_.concat.middleCols(h * d_k_, d_k_) = r_.head.back().output;
    return;
  }
  // 4. W_O mixes the heads: (T, D), a block of rows
  const int b = k - blocks_ - w_.heads;
  project_rows(r_.concat, w_.w_o, b * rows_, std::min(rows_, t - b * rows_), r_.output);
  if (done()) {
    qkv_.resize(0, 0);
    require_finite_result(r_.output, "the attention output");
  }
}

MhaResult MhaSteps::take() {
  if (!done()) throw InputError("the attention layer has not finished its steps");
  return std::move(r_);
}

MhaResult multi_head(const Mat& x, const MhaWeights& w, const AttentionOptions& opt) {
  MhaSteps steps(x, w, opt);
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
