// Hugging Face folders read into a checkpoint: the model by config.json's model_type (gpt2 or llama) from
// model.safetensors or its shards (checked against model.safetensors.index.json when it comes too), and the
// tokenizer from tokenizer.json, or GPT-2's vocab.json and merges.txt. A folder's other files
// (generation_config.json, README.md, pytorch_model.bin, ...) are passed over.
#pragma once

#include <string>
#include <vector>

#include "model_io/checkpoint.hpp"

namespace attn::model_io {

// What a folder's file is to the reader, by its name.
enum class HfPart { Config, Weights, Index, Tokenizer, Vocab, Merges, Other };
HfPart hf_part(const std::string& name);

// The folder's files -> the checkpoint (its tokenizer null when the folder has none); weights given as ranges
// are read a tensor at a time. Throws InputError in words: config.json or the weights missing, two files of
// one part, an unknown model_type, a shard the index names that is missing, a refused file.
Checkpoint read_hf_folder(std::vector<NamedFile> files);

// config.json's text and one safetensors file's bytes -> the model, by the config's model_type.
lm::LmModel read_hf_model(const std::string& config_json, const std::string& safetensors);

}  // namespace attn::model_io
