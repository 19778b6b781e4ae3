// llama2.c checkpoints (Karpathy's run.c format): the legacy .bin (a 7-int header, the vocabulary size
// negative when the output layer is its own) and the version-1 export (magic "ak42", a 256-byte header),
// float32 weights, read into an LmModel; and their tokenizer.bin (scored pieces, merged by score, with byte
// fallback).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/lm/lm_model.hpp"

namespace attn::lm {

// A file read a range at a time: its size, and copy(dst, at, n), which fills dst with its n bytes from
// offset `at` (the page's worker reads slices of a picked file: the whole file is never in memory).
struct FileRange {
  std::size_t size = 0;
  std::function<void(void* dst, std::size_t at, std::size_t n)> copy;
};
// The range over bytes in memory (they must outlive it).
FileRange range_of(const std::string& bytes);

// The checkpoint's bytes -> the model (RMSNorm, SwiGLU, RoPE on pairs (2i, 2i + 1) of each head, shared
// key/value heads). Throws InputError in words for a wrong, truncated or hostile file (bad header, sizes
// past the file or absurd, a NaN or infinite weight, a quantized export).
LmModel read_llama2c(const std::string& bytes);
// The same, reading each tensor from `file` as it is needed (peak memory: the model and one tensor).
LmModel read_llama2c(const FileRange& file);

struct Llama2cTokenizer {
  std::vector<std::string> pieces;  // (V,) each id's bytes
  std::vector<float> scores;        // (V,) merge priority: higher merges first
  int max_piece_length = 0;
};

// tokenizer.bin's bytes for a vocabulary of `vocab` pieces. Throws InputError in words.
Llama2cTokenizer read_llama2c_tokenizer(const std::string& bytes, int vocab);

// run.c's encoding: BOS (id 1) first when asked, a " " piece before a non-empty text, each UTF-8 character
// as its piece (or its bytes as ids 3 + byte when it has none), then the pair whose joined piece scores
// highest merged, again and again, until no pair joins into a piece.
std::vector<int> llama2c_encode(const Llama2cTokenizer& tok, const std::string& text, bool bos);

// The text of `id` after `prev`: a byte piece "<0xAB>" is that byte; after BOS a leading space is dropped.
std::string llama2c_piece(const Llama2cTokenizer& tok, int prev, int id);

}  // namespace attn::lm
