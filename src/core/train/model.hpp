// The trainable models: the refund router (a small transformer classifier; the seeded, untrained one of
// the lesson is attn::SeededRouter) and the next-token language model of the induction task, with a
// hand-written backward pass. Their layers are the ops of core/ops.hpp.
//
// ids (T) -> token embedding (T, D) [+ the scheme's added table, trained or not] -> the transformer's
// post-norm layers (core/model/transformer.hpp: multi-head attention, the scheme turning q and k -> add
// -> LayerNorm -> [feed-forward ReLU -> add -> LayerNorm]) -> Output::Classify: mean pool (1, D) ->
// linear (1, C) -> softmax; Output::NextToken: linear on every row (T, C = vocab) -> softmax per row.
// The maths is templated on the scalar: float for the app and training, double for gradient checks.
// Model, Params, Forward and Prediction are the float versions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/transformer.hpp"
#include "core/ops.hpp"
#include "core/positions.hpp"
#include "core/types.hpp"

namespace attn::train {

// A row-major matrix of scalar S (core/types.hpp); MatT<float> is attn::Mat.
using attn::MatT;

// What the model's last linear layer reads: the mean of the rows (one label per email) or every row (the
// next token after each position).
enum class Output { Classify, NextToken };

struct ModelConfig {
  int d_model = 32;
  int heads = 4;
  int layers = 1;
  int d_ff = 0;      // 0: no feed-forward sub-layer
  int vocab = 0;     // number of token ids (Vocab::size()); the Trainer fills 0 from its data set
  int classes = 0;   // number of labels; the Trainer fills 0 from its data set
  int max_len = 32;  // position slots of a scheme whose table is trained (SchemeDef::trained_table)
  Scheme positions = kLessonScheme;  // one of trainable_schemes()
  std::uint64_t seed = 1;            // initial weights and (in the Trainer) the minibatch order
  bool causal = false;               // mask keys after the query (then order leaks even with None)
  Output output = Output::Classify;  // NextToken: classes is the vocabulary and causal must be set
  Norm norm = Norm::PostLayerNorm;   // PreLayerNorm adds a final LayerNorm before the output layer
};

// The schemes the trainable model supports, in menu order (schemes_for(kUseRouter); for
// attn::parse_scheme(name, trainable_schemes()) and for menus).
const std::vector<Scheme>& trainable_schemes();

// Number of weights of `config` (every tensor of expected_shapes), computed without allocating.
long long weight_count(const ModelConfig& config);

// Throws InputError in words unless the config is usable (heads divide d_model, sizes in range,
// one of trainable_schemes(), vocab >= 1, classes >= 2, ...).
void validate_config(const ModelConfig& config);

// One attention layer's weights: the transformer layer's (core/model/transformer.hpp), vectors as (1, n).
template <class S>
using LayerParamsT = LayerWeightsT<S>;

template <class S>
struct ParamsT {
  MatT<S> token_embedding;  // (vocab, D)
  MatT<S> position_table;   // (max_len, D) when the scheme's table is trained, else empty (0, 0)
  std::vector<LayerParamsT<S>> layers;
  MatT<S> final_gain, final_bias;  // (1, D) the last LayerNorm of a pre-norm model, else empty
  MatT<S> classifier_w;            // (D, C)
  MatT<S> classifier_b;            // (1, C)

  // Seeded initial weights for `config` (validated): embeddings normal, projections normal with std
  // 1/sqrt(fan_in), LayerNorm gains 1 and biases 0, classifier bias 0. seeded = false: the same shapes
  // with the embeddings and projections zero (for a loader that overwrites every weight).
  static ParamsT init(const ModelConfig& config, bool seeded = true);
  // The same shapes, all zero (gradient accumulators, Adam moments).
  ParamsT zeros_like() const;
  void set_zero();
  // Every non-empty tensor with a stable name, in a fixed order: "token_embedding", "position_table",
  // "layers.0.w_qkv", "layers.0.w_o", "layers.0.ln1_gain", "layers.0.ln1_bias",
  // ["layers.0.distance_bias" (H, buckets) with a distance-bucket scheme,] "layers.0.w1",
  // "layers.0.b1", "layers.0.w2", "layers.0.b2", "layers.0.ln2_gain", "layers.0.ln2_bias", ...,
  // ["final_norm.gain", "final_norm.bias",] "classifier.w", "classifier.b". For serialization: write
  // rows()/cols()/data() (row-major).
  std::vector<std::pair<std::string, MatT<S>*>> named_tensors();
  std::vector<std::pair<std::string, const MatT<S>*>> named_tensors() const;
  // The tensor shapes `config` needs, by the same names and order (for loaders to check a file).
  static std::vector<std::pair<std::string, std::pair<int, int>>> expected_shapes(const ModelConfig& config);
  long long parameter_count() const;
  // A copy in another scalar type (float -> double for gradient checks, and back).
  template <class U>
  ParamsT<U> cast() const;
};

// One layer's intermediates for one email (T tokens): the transformer layer's capture.
template <class S>
using LayerForwardT = LayerCaptureT<S>;

// Everything one forward pass computed: what backward needs and what the app displays.
template <class S>
struct ForwardT {
  std::vector<int> ids;  // (T) token ids
  MatT<S> embedded;      // (T, D) token embedding + added positions (the layer-0 input)
  std::vector<LayerForwardT<S>> layers;
  MatT<S> final_xhat, final_rstd;  // (T, D), (T, 1) the final LayerNorm's saved values (pre-norm only)
  MatT<S> top;     // (T, D) what the output layer reads: the last layer's output, or its final LayerNorm
  MatT<S> pooled;  // (1, D) mean of the last layer's rows (Output::Classify; empty for NextToken)
  MatT<S> logits;  // (1, C); Output::NextToken: (T, C), row i scoring the token after position i
  MatT<S> probs;   // logits' shape, softmax of each row
  int tokens() const { return static_cast<int>(ids.size()); }
  // (T, T) attention weights of one head of one layer.
  const MatT<S>& weights(int layer, int head) const { return layers[layer].weights[head]; }
  // (T, T) attention scores (before the softmax) of one head of one layer.
  const MatT<S>& scores(int layer, int head) const { return layers[layer].scores[head]; }
};

template <class S>
struct PredictionT {
  std::vector<S> probabilities;               // (C) sums to 1
  int label = 0;                              // argmax (lowest index on ties)
  S confidence = 0;                           // probabilities[label]
  std::vector<std::vector<MatT<S>>> weights;  // [layer][head] (T, T) attention weights
};

template <class S>
class ModelT {
 public:
  ModelConfig config;  // do not change after construction: build a new model instead
  ParamsT<S> params;

  ModelT() = default;
  // Validates the config and draws the seeded initial weights.
  explicit ModelT(const ModelConfig& config);
  // Validates the config and that every tensor of `params` has the expected shape (InputError naming it).
  ModelT(const ModelConfig& config, ParamsT<S> params);

  // The transformer config of this model (post-norm layers, the scheme, causal or not).
  TransformerConfig transformer() const;
  // ids (T) -> every intermediate. Throws InputError for an empty email, an id outside 0..vocab-1, more
  // than kMaxTokens tokens, or (learned positions) a token past the table: "position 32 is past the end
  // of the learned table: it has 32 slots ...".
  ForwardT<S> forward(const std::vector<int>& ids) const;
  // The same into `out`, reusing its storage; `off` switches heads off (their output zeroed).
  void forward(const std::vector<int>& ids, ForwardT<S>& out, const HeadSwitch* off = nullptr) const;
  // Adds scale * d(cross-entropy of `label`)/d(params) to grads (shaped like params); returns the loss
  // -log p(label) (unscaled). `f` must come from forward() of this model with the current params.
  S backward(const ForwardT<S>& f, int label, ParamsT<S>& grads, S scale = S(1)) const;
  // Output::NextToken: adds scale * d(mean cross-entropy over the positions i with targets[i] >= 0)/d(params)
  // to grads; returns that mean (unscaled). targets (T): the token expected after position i, or -1.
  S backward_tokens(const ForwardT<S>& f, const std::vector<int>& targets, ParamsT<S>& grads,
                    S scale = S(1)) const;
  // Cross-entropy -log p(label) of one email (forward only).
  S loss(const std::vector<int>& ids, int label) const;
  // Label, confidence, probabilities and weights, with the heads of `off` switched off (null: none).
  PredictionT<S> predict(const std::vector<int>& ids, const HeadSwitch* off = nullptr) const;
  // Throws InputError unless params has the shapes config needs.
  void validate() const;

 private:
  // From dx (T, D), the gradient of what the output layer reads, through every post-norm layer (model.cpp)
  // or, with the final LayerNorm, every pre-norm layer (model_next_token.cpp) to the embeddings.
  void backward_layers(const ForwardT<S>& f, MatT<S>& dx, ParamsT<S>& grads) const;
  void backward_layers_pre(const ForwardT<S>& f, MatT<S>& dx, ParamsT<S>& grads) const;
  // One layer's feed-forward: dffn (T, D) -> its weights' gradients and din (T, D) of its input `in`.
  void backward_ffn(const LayerForwardT<S>& L, const LayerParamsT<S>& p, LayerParamsT<S>& gp,
                    const MatT<S>& dffn, const MatT<S>& in, MatT<S>& din) const;
  // One layer's attention (W_o, every head, the scheme's rotation, W_qkv applied to `in` (T, D)): the
  // gradient dres (T, D) of its output -> its weights' gradients and din (T, D).
  void backward_attention(const LayerForwardT<S>& L, const LayerParamsT<S>& p, LayerParamsT<S>& gp,
                          const MatT<S>& dres, const MatT<S>& in, MatT<S>& din) const;
  // dx (T, D) of the layer-0 input, scatter-added to the token rows (and the trained table's slots).
  void backward_embeddings(const ForwardT<S>& f, const MatT<S>& dx, ParamsT<S>& grads) const;
  // Lazily grown position tables for positions 0 .. P-1 (not safe for concurrent forward calls on one
  // model): what an untrained scheme adds to the embeddings, and its rotation at width d_k.
  mutable MatT<S> added_;        // (P, D)
  mutable ops::RopeTable turn_;  // P rows
};

using Params = ParamsT<float>;
using LayerParams = LayerParamsT<float>;
using Forward = ForwardT<float>;
using Prediction = PredictionT<float>;
using Model = ModelT<float>;

}  // namespace attn::train
