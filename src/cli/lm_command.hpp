// attention_cli lm: a pretrained language model (a llama2.c checkpoint, or a Hugging Face Llama or GPT-2
// folder) on a text or ids: next-token top 10, generation and every head's attention as JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json_io.hpp"

namespace attn::cli {

struct LmOptions {
  std::string model;      // a llama2.c .bin, or a folder with config.json and model.safetensors
  std::string tokenizer;  // its tokenizer.bin (needed for --text)
  std::string text;
  std::vector<int> ids;
  bool text_given = false, ids_given = false;
  int generate = 0;
  double temperature = 0;  // 0: greedy
  bool temperature_given = false;
  std::uint64_t seed = 1;
  bool attention = false;
  bool roles = false;  // measure every head on a repeated random segment (seeded by seed)
  std::string off;
};

json run_lm(const LmOptions& o);

}  // namespace attn::cli
