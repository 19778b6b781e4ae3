// A pretrained causal language model read from a checkpoint (llama2.c, Hugging Face Llama or GPT-2): the one
// transformer's config and layer weights, its token embedding (and learned positions), final norm and output
// layer, and one forward that gives the next-token logits and every head's attention.
#pragma once

#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/model/transformer.hpp"
#include "core/types.hpp"

namespace attn::lm {

struct LmModel {
  std::string format;        // "llama2c", "llama" or "gpt2"
  TransformerConfig config;  // causal, pre-norm, the layers' norm, activation and positions
  int max_len = 0;           // the longest context the checkpoint was made for
  Mat embedding;             // (V, D) token embedding
  Mat position_table;        // (P, D) learned positions added to the embeddings (GPT-2), or empty
  std::vector<LayerWeightsT<float>> layers;
  Mat final_gain, final_bias;  // (1, D) the last norm's gain and bias (the bias empty with RMSNorm)
  Mat classifier;              // (D, V) logits = norm(x) classifier; empty when tied
  bool tied = false;           // the output layer is the token embedding: logits = norm(x) embedding^T
  int vocab() const { return static_cast<int>(embedding.rows()); }
};

// What one forward computed: the logits of every position and each layer's capture (weights per head).
struct LmForward {
  Mat logits;  // (T, V), or (1, V) with last_only
  std::vector<LayerCapture> layers;
};

// ids (T) -> logits (T, V), with the heads of `off` switched off. Throws InputError for an empty list, an
// id outside 0 .. V-1, or more ids than the model's context (max_len; a learned table's error names the
// first position without a vector) or kMaxTokens.
// With last_only, logits is (1, V): the last position's only (what generation needs: the output layer is
// most of a small model's work).
LmForward lm_forward(const LmModel& model, const std::vector<int>& ids, const HeadSwitch* off = nullptr,
                     bool last_only = false);

// The next ids after the P that `f` has read (a forward over them, whose layers' qkv rows are the key/value
// cache): ids (T) at positions P .. P+T-1 -> f.logits (1, V) of the last one, each layer's weights
// (T, P + T) and its qkv (P + T rows). The same errors as lm_forward, counting P + T tokens; on an error f
// is left unusable (start again from lm_forward).
void lm_extend(const LmModel& model, const std::vector<int>& ids, LmForward& f,
               const HeadSwitch* off = nullptr);

// The tokens a forward has read: its layers' qkv rows.
int lm_length(const LmForward& f);

}  // namespace attn::lm
