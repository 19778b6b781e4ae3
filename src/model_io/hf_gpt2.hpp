// Hugging Face GPT-2-family folders (config.json with model_type "gpt2", and model.safetensors: gpt2,
// distilgpt2, gpt2-medium) read into the core's language model: pre-norm LayerNorm, learned positions,
// biases on every projection, the GELU (tanh) feed-forward, the output layer tied to the token embedding.
#pragma once

#include <string>

#include "core/lm/lm_model.hpp"

namespace attn::model_io {

// config.json's text and model.safetensors' bytes -> the model (tensors named with or without the
// "transformer." prefix). Throws InputError in words.
lm::LmModel read_hf_gpt2(const std::string& config_json, const std::string& safetensors);

// A Hugging Face folder's config.json and model.safetensors -> the model, by the config's model_type
// ("gpt2" or "llama").
lm::LmModel read_hf_folder(const std::string& config_json, const std::string& safetensors);

}  // namespace attn::model_io
