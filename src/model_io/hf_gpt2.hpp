// Hugging Face GPT-2-family folders (config.json with model_type "gpt2", and its safetensors: gpt2,
// distilgpt2, gpt2-medium) read into the core's language model: pre-norm LayerNorm, learned positions,
// biases on every projection, the GELU (tanh) feed-forward, the output layer tied to the token embedding.
#pragma once

#include <string>

#include "core/lm/lm_model.hpp"
#include "model_io/safetensors.hpp"

namespace attn::model_io {

// config.json's text and the folder's tensors -> the model (tensors named with or without the
// "transformer." prefix). Throws InputError in words.
lm::LmModel read_hf_gpt2(const std::string& config_json, const SafeTensors& st);

}  // namespace attn::model_io
