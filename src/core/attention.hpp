// Scaled dot-product attention: one head, and multi-head attention with a fused QKV matrix.
#pragma once

#include <memory>
#include <vector>

#include "core/model/transformer.hpp"
#include "positions.hpp"
#include "types.hpp"

namespace attn {

struct AttentionOptions {
  bool causal = false;              // mask keys after the query (j > i)
  Scheme positions = Scheme::None;  // its rotation and score bias act inside attention (tables: the caller's)
  double rope_base = 10000.0;
  std::vector<int> position_ids;  // positions of the T tokens; empty means 0 .. T-1
};

using LayerCapture = LayerCaptureT<float>;

struct HeadResult {
  Mat output;   // (T, d_k): weights x V
  Mat scores;   // (T, T): q.k / sqrt(d_k) + bias, masked entries -inf
  Mat weights;  // (T, T): softmax of scores, each row sums to 1
};

// The heart of it for one head: q, k, v are (T, d_k) already projected (matrices, or a head's columns of
// the fused (T, 3D) matrix, read in place); `head`/`heads` pick the scheme's score bias. A scheme that
// turns queries and keys turns copies of q and k here; ops::attention_forward does the rest.
HeadResult attend(const ConstBlock<float>& q, const ConstBlock<float>& k, const ConstBlock<float>& v,
                  const AttentionOptions& opt, int head = 0, int heads = 1);

// One head with its own projections: x (T, D), w_q/w_k/w_v (D, d_k) -> output (T, d_k).
HeadResult single_head(const Mat& x, const Mat& w_q, const Mat& w_k, const Mat& w_v,
                       const AttentionOptions& opt);

// Fused multi-head weights: w_qkv (D, 3D) holds Q in columns 0..D-1, K in D..2D-1, V in 2D..3D-1, and
// head h uses columns h*d_k .. (h+1)*d_k - 1 of each; w_o (D, D) mixes the concatenated heads. The bare
// attention layer's weights: a transformer layer with no norms and no feed-forward.
struct MhaWeights : LayerWeightsT<float> {
  int heads = 1;
  int d_model() const { return static_cast<int>(w_o.rows()); }
  // Seeded random weights, normal with std gain/sqrt(D).
  static MhaWeights random(int d_model, int heads, std::uint64_t seed, float gain = 1.0f);
};

struct MhaResult {
  Mat output;                    // (T, D): concat x W_O
  Mat concat;                    // (T, D): heads placed side by side, before W_O
  std::vector<HeadResult> head;  // H results, each (T, d_k) output and (T, T) scores/weights
};

// x (T, D) -> MhaResult. Throws InputError on bad shapes, non-finite input, or heads not dividing D.
// heads_off: (H,) 1 for a head switched off (its output zeroed before W_O).
MhaResult multi_head(const Mat& x, const MhaWeights& w, const AttentionOptions& opt,
                     const std::vector<char>* heads_off = nullptr);

// Throws InputError unless x (T, D) and w fit (what multi_head checks); returns the T tokens' positions.
std::vector<int> require_attention_inputs(const Mat& x, const MhaWeights& w, const AttentionOptions& opt);
// Throws InputError when a head's unmasked scores or the attention output (concat W_O) are not finite.
void require_finite_heads(const LayerCapture& capture, bool causal);
// A layer's capture -> output (T, D) = its attention, concat, and H heads (moved out of the capture).
MhaResult take_heads(LayerCapture& capture);

// The transformer config of the bare attention layer with these options: D, H, Norm::None, the scheme.
TransformerConfig attention_layer_config(int d_model, int heads, const AttentionOptions& opt);

// multi_head cut into pieces of work small enough to run between two frames: the transformer layer's steps
// (LayerSteps) with Norm::None, the QKV projection step_rows rows at a time, one head at a time, W_O
// step_rows rows at a time (0: all rows in one step, as multi_head runs them; the app takes kStepRows).
// Every row is computed alike whatever the blocks, so the result is the same to the bit. x and w must
// outlive it.
// Rows of a projection step in the app: 128 x 768 x 2304 is about 15 ms in the page.
inline constexpr int kStepRows = 128;

class MhaSteps {
 public:
  // x (T, D): checks what multi_head checks (throws InputError).
  // heads_off: (H,) 1 for a head whose output is zeroed (null: all on).
  // span: some of the heads only (LayerSteps'): take() then gives H heads with only the span's filled, the
  // concat's slices of the span (the rest 0) and no output; mha_output_rows finishes the joined concat.
  MhaSteps(const Mat& x, const MhaWeights& w, const AttentionOptions& opt, int step_rows = 0,
           const std::vector<char>* heads_off = nullptr, HeadSpan span = {});
  MhaSteps(const MhaSteps&) = delete;
  MhaSteps& operator=(const MhaSteps&) = delete;
  bool done() const { return layer_->done(); }
  void step();  // the next piece; the last one checks the output is finite (throws InputError)
  int steps_done() const { return layer_->steps_done(); }
  int steps_total() const { return layer_->steps_total(); }
  MhaResult take();  // once done(): output (T, D), concat (T, D), H heads

 private:
  TransformerConfig config_;
  std::vector<int> positions_;  // (T,)
  LayerCapture capture_;
  std::unique_ptr<LayerSteps<float>> layer_;
  bool whole_ = true;  // every head: the output is computed (and checked) here
};

// Rows first .. first + n - 1 of the layer's output, concat W_O: concat (T, D) -> (n, D), each row what
// multi_head gives it. Throws InputError when a row is not finite ("the attention output").
Mat mha_output_rows(const Mat& concat, const MhaWeights& w, int first, int n);

// x (B, T, D) -> B results, the same weights for every item.
std::vector<MhaResult> multi_head(const Batch& x, const MhaWeights& w, const AttentionOptions& opt);

// d_k = d_model / heads; throws InputError ("512 is not divisible by 6 heads ...") otherwise.
int head_dim(int d_model, int heads);

struct ParameterCount {
  int d_k;
  long long fused;        // 3 * D * D (all heads' Q, K, V) + D * D (W_O)
  long long single_head;  // one full-width head: W_Q, W_K, W_V (D, D each) + W_O
};
ParameterCount count_parameters(int d_model, int heads);

}  // namespace attn
