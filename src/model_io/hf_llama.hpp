// Hugging Face Llama-family folders (config.json with model_type "llama", and its safetensors) read into
// the core's language model: RMSNorm, SwiGLU, RoPE in the halves layout, shared key/value heads, a tied or
// separate output layer, F32 / F16 / BF16 weights widened to float.
#pragma once

#include <string>

#include "core/lm/lm_model.hpp"
#include "model_io/safetensors.hpp"

namespace attn::model_io {

// config.json's text and the folder's tensors -> the model. The halves layout (dimension i turned with
// i + d_k / 2) becomes the core's pairs (2i, 2i + 1) by reordering each head's query and key columns, which
// leaves every score as it was. Throws InputError in words.
lm::LmModel read_hf_llama(const std::string& config_json, const SafeTensors& st);

}  // namespace attn::model_io
