// One description of every transformer the core runs: a config plus named weights, and one forward, layer
// by layer, that captures each head's scores and weights and can switch heads off. The seeded attention
// layer (attn::multi_head), the encoder block and both refund routers are configs of it.
//
// Per layer: x (T, D) -> qkv = x W_qkv (T, D + 2 G d_k) with G key/value heads (G = H: every head its own)
// -> the scheme turns each head's q and each group's k -> head h attends with its d_k-wide query slice and
// the key and value slices of its group h / (H / G) (scores (T, T) with the scheme's bias and the causal
// mask, weights, out (T, d_k)),
// a switched-off head's out is zero -> concat (T, D) -> attention = concat W_o (T, D) -> with
// Norm::PostLayerNorm: LayerNorm(x + attention) [-> ReLU feed-forward -> LayerNorm(norm1 + ffn)].
// Norm::PreLayerNorm normalises first: qkv = LayerNorm(x) W_qkv, output x + attention [-> + feed-forward of
// LayerNorm(x + attention)]; the model then normalises the last layer's output once more. Norm::PreRMSNorm
// does the same with RMSNorm; Activation::SwiGLU makes the feed-forward SiLU(x W1) * (x W3), then W2 (Llama).
// The maths is templated on the scalar: float for the app and training, double for gradient checks.
#pragma once

#include <vector>

#include "core/ops.hpp"
#include "core/schemes/scheme.hpp"
#include "core/types.hpp"

namespace attn {

// Where a layer normalises. None: the bare attention layer, whose output is concat W_o (no residual).
// PostLayerNorm: after each residual sum (the 2017 transformer). PreLayerNorm: each sub-layer's input, the
// residual stream itself left as it is (GPT-2 and later).
// PreRMSNorm: the same places with RMSNorm (no centring, no bias; Llama).
enum class Norm { None, PostLayerNorm, PreLayerNorm, PreRMSNorm };
// Relu: ReLU(x W1 + b1) W2 + b2. SwiGLU (Shazeer, 2020; Llama): (SiLU(x W1) * (x W3)) W2, biases if given.
// Gelu: GELU(x W1 + b1) W2 + b2 with GELU's tanh approximation (GPT-2).
enum class Activation { Relu, SwiGLU, Gelu };

struct TransformerConfig {
  int d_model = 16;
  int heads = 4;
  int kv_heads = 0;  // key/value heads G, each shared by heads / G query heads (grouped-query attention);
                     // 0: one per head (multi-head attention)
  int layers = 1;
  int d_ff = 0;  // the feed-forward width (0: no feed-forward sub-layer)
  Norm norm = Norm::PostLayerNorm;
  Activation activation = Activation::Relu;
  Scheme positions = Scheme::None;  // its rotation and score bias act inside attention
  bool causal = false;              // mask keys after the query (j > i)
  double base = 10000.0;            // the scheme's base (RoPE)
  double norm_eps = 1e-5;           // the epsilon of pre-norm layers' LayerNorm or RMSNorm
  int vocab = 0;                    // token ids of the models that embed ids (0: the input is vectors)

  // The number of key/value heads G (kv_heads, or heads when it is 0; a negative count is refused).
  int kv_groups() const { return kv_heads != 0 ? kv_heads : heads; }
  // The first of head h's key (value) columns in a layer's qkv (T, d + 2 G d_k) for d-wide inputs: its
  // group's d_k-wide slice.
  int key_column(int d, int h) const { return d + h / (heads / kv_groups()) * (d / heads); }
  int value_column(int d, int h) const { return d + (kv_groups() + h / (heads / kv_groups())) * (d / heads); }
};

// One layer's weights; vectors are (1, n) matrices. Empty tensors are the sub-layers a config leaves out.
template <class S>
struct LayerWeightsT {
  // (D, D + 2 G d_k): Q cols 0..D-1 (head h: h*d_k..), K D..D+G d_k-1, V after it (group g: g*d_k.. of each)
  MatT<S> w_qkv;
  MatT<S> b_qkv;               // (1, D + 2 G d_k) added to the projection (empty: none; GPT-2 has one)
  MatT<S> w_o;                 // (D, D)
  MatT<S> b_o;                 // (1, D) added after W_o (empty: none)
  MatT<S> ln1_gain, ln1_bias;  // (1, D)  (empty with Norm::None)
  MatT<S> w1, b1;              // (D, F), (1, F)  (empty when d_ff == 0; b1 empty: no bias)
  MatT<S> w3;                  // (D, F) SwiGLU's gate (empty with ReLU)
  MatT<S> w2, b2;              // (F, D), (1, D)  (empty when d_ff == 0; b2 empty: no bias)
  MatT<S> ln2_gain, ln2_bias;  // (1, D)          (empty when d_ff == 0; the bias empty with RMSNorm)
  // (H, buckets): the trained bias of a scheme with distance buckets (empty: none, or its initial values)
  MatT<S> distance_bias;
};

// What one layer computed: the display's grids and what a backward pass needs.
template <class S>
struct LayerCaptureT {
  MatT<S> input;                 // (T, D) the layer input x
  MatT<S> qkv;                   // (T, D + 2 G d_k) x W_qkv, the q and k already turned by the scheme
  std::vector<MatT<S>> scores;   // H x (T, T) q.k / sqrt(d_k) + the scheme's bias, masked keys -inf
  std::vector<MatT<S>> weights;  // H x (T, T) softmax of the scores, rows sum to 1
  std::vector<char> off;         // (H,) 1 for a head switched off (its output zeroed)
  MatT<S> concat;                // (T, D) heads side by side, before W_o
  MatT<S> attention;             // (T, D) concat W_o
  MatT<S> residual1;             // (T, D) x + attention                    (empty with Norm::None)
  MatT<S> xhat1, rstd1;          // (T, D), (T, 1) LayerNorm 1's saved values
  MatT<S> norm1;                 // (T, D) LayerNorm(residual1); pre-norm: LayerNorm(x), what W_qkv reads
  MatT<S> norm2;                 // (T, D) pre-norm: LayerNorm(residual1), what W1 reads (else empty)
  MatT<S> hidden;                // (T, F) ReLU(norm1 W1 + b1)               (empty without FFN)
  MatT<S> ffn;                   // (T, D) hidden W2 + b2                    (empty without FFN)
  MatT<S> residual2;             // (T, D) norm1 + ffn        (empty without FFN or with pre-norm)
  MatT<S> xhat2, rstd2;          // LayerNorm 2's saved values               (empty without FFN)
  MatT<S> output;                // (T, D) attention, norm1 or LayerNorm(residual2)
};

// Heads to switch off: off[layer][head] != 0. Missing entries are on. A switched-off head outputs zeros,
// or, where mean[layer][head] holds d_k numbers, that vector at every position (mean ablation: its
// average output over some data, so only what it adds per token is lost).
struct HeadSwitch {
  std::vector<std::vector<char>> off;
  std::vector<std::vector<std::vector<double>>> mean;
  bool is_off(int layer, int head) const;
};

// Heads begin .. end - 1 of a layer (end < 0: to the last): the share of one worker when several split a
// layer's heads.
struct HeadSpan {
  int begin = 0;
  int end = -1;
  int end_of(int heads) const { return end < 0 ? heads : end; }
  bool all(int heads) const { return begin == 0 && end_of(heads) == heads; }
};

// One layer's forward in pieces small enough to run between two frames: the QKV projection step_rows rows
// at a time (0: all rows at once), one head at a time, W_o step_rows rows at a time, then the norms and the
// feed-forward. Every row is computed alike whatever the blocks, so the result is the same to the bit.
// x, w, the capture and the optional arguments must outlive it. positions: the tokens' positions (null:
// 0 .. T-1); turn: the scheme's rotation table for them (null: made here when the scheme turns). Throws
// InputError when the key/value heads do not divide the heads or W_qkv is not (D, D + 2 G d_k) wide.
// With a span of some of the heads (the bare attention layer only, Norm::None), only their columns of qkv
// are projected (every column is its own sum over k: the same bits), only they attend, their slices of
// concat are filled (the rest 0), and W_o is left out: the caller joins the spans' heads and runs it.
// With extend (a key/value cache), out.qkv already holds the rows of P earlier tokens at positions
// 0 .. P-1 (turned): x holds the next T at P .. P+T-1, out.qkv gains their T rows, and their queries attend
// to all P + T keys (scores and weights (T, P + T)); every other field of out is the T new rows'. The
// turn table, when given, covers P + T rows; positions must be null.
template <class S>
class LayerSteps {
 public:
  // heads_mean: per head, the d_k outputs a switched-off head gives instead of zeros (empty: zeros).
  LayerSteps(const TransformerConfig& c, const LayerWeightsT<S>& w, const MatT<S>& x, LayerCaptureT<S>& out,
             const std::vector<int>* positions = nullptr, const ops::RopeTable* turn = nullptr,
             const std::vector<char>* heads_off = nullptr, int step_rows = 0, HeadSpan span = {},
             const std::vector<std::vector<double>>* heads_mean = nullptr, bool extend = false);
  LayerSteps(const LayerSteps&) = delete;
  LayerSteps& operator=(const LayerSteps&) = delete;
  bool done() const { return next_ == total_; }
  void step();
  int steps_done() const { return next_; }
  int steps_total() const { return total_; }
  // The head the last step attended with, or -1.
  int last_head() const { return last_head_; }

 private:
  void finish();
  // in (T, D) -> L.hidden (T, F) and L.ffn (T, D)
  void feed_forward(const MatT<S>& in, LayerCaptureT<S>& L) const;
  TransformerConfig c_;
  const LayerWeightsT<S>& w_;
  const MatT<S>& x_;
  const MatT<S>* in_;  // what W_qkv projects: x, or LayerNorm(x) with Norm::PreLayerNorm
  LayerCaptureT<S>& out_;
  const ops::RopeTable* turn_;
  const std::vector<std::vector<double>>* mean_;
  ops::RopeTable own_turn_;
  ops::HeadMask mask_;
  MatT<S> head_out_;  // (T, d_k)
  int d_ = 0, dk_ = 0, rows_ = 0, blocks_ = 0, next_ = 0, total_ = 0, last_head_ = -1;
  int past_ = 0;              // rows of earlier tokens in out.qkv (extend)
  int span_ = 0;              // the largest distance between two of the tokens' positions
  int group_ = 1;             // query heads per key/value head
  int first_ = 0, last_ = 0;  // the span's heads: first_ .. last_ - 1
  bool part_ = false;         // the span is not every head: W_o and the norms are left out
};

// in (T, D) -> out (T, D) by the config's pre-norm: RMSNorm (rstd (T, 1), xhat left empty) or LayerNorm
// (xhat (T, D), rstd; an empty bias is zero). Used inside each layer and as a model's final norm.
template <class S>
void pre_norm(const TransformerConfig& c, const MatT<S>& in, const MatT<S>& gain, const MatT<S>& bias,
              MatT<S>& out, MatT<S>& xhat, MatT<S>& rstd);

// The whole layer at once: x (T, D) -> out.
template <class S>
void layer_forward(const TransformerConfig& c, const LayerWeightsT<S>& w, const MatT<S>& x,
                   LayerCaptureT<S>& out, const std::vector<int>* positions = nullptr,
                   const ops::RopeTable* turn = nullptr, const std::vector<char>* heads_off = nullptr,
                   const std::vector<std::vector<double>>* heads_mean = nullptr, bool extend = false);

// Every layer: x (T, D) -> capture (c.layers entries, reusing their storage); the last one's output is the
// stack's. turn: the scheme's rotation table for positions 0 .. T-1 at width d_k (null: made per layer).
// With extend, capture holds a forward over P earlier tokens and x the next T: each layer's qkv is its
// key/value cache (LayerSteps), the other fields become the new rows'.
template <class S>
void transformer_forward(const TransformerConfig& c, const std::vector<LayerWeightsT<S>>& layers,
                         const MatT<S>& x, std::vector<LayerCaptureT<S>>& capture,
                         const HeadSwitch* off = nullptr, const ops::RopeTable* turn = nullptr,
                         bool extend = false);

}  // namespace attn
