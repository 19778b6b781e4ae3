// attention_cli tokenize: a byte-level BPE tokenizer (GPT-2's vocab.json + merges.txt, or a Hugging Face
// tokenizer.json) on a text: its ids and each id's piece as JSON.
#pragma once

#include <string>

#include "core/lm/byte_bpe.hpp"
#include "json_io.hpp"

namespace attn::cli {

struct TokenizeOptions {
  std::string tokenizer;  // a folder with tokenizer.json, or with vocab.json and merges.txt
  std::string text;
  std::string text_file;  // read as bytes (any bytes: invalid UTF-8 is encoded byte by byte)
  bool text_given = false;
};

// The tokenizer of a folder: its tokenizer.json when it has one, else its vocab.json and merges.txt.
// InputError in words when the folder has neither or a file is refused.
lm::ByteBpe read_tokenizer_folder(const std::string& folder);

// {"ids": [...], "pieces": [...]}: each piece's bytes as text (a piece that is part of a UTF-8 character
// prints as U+FFFD when dumped with the replacing error handler).
json run_tokenize(const TokenizeOptions& o);

}  // namespace attn::cli
