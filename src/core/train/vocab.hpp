// The word list of the refund router: token <-> id, with id 0 for unknown words.
#pragma once

#include <string>
#include <vector>

#include "core/train/data.hpp"

namespace attn::train {

struct Vocab {
  // words[0] is "<unk>"; the rest are lower-case tokens of the core tokenizer.
  std::vector<std::string> words;

  int size() const { return static_cast<int>(words.size()); }
  // Lower-cases ASCII letters and looks the token up; unknown -> 0 ("<unk>").
  int id(const std::string& token) const;
  // tokenize(text) -> ids (T). Throws InputError on invalid UTF-8 (from the tokenizer).
  std::vector<int> encode(const std::string& text) const;
  // tokenize(text), lower-cased: the tokens encode() looked up (T).
  static std::vector<std::string> tokens(const std::string& text);
  // "<unk>" then every token of the data set's emails (train and test) and the filler words, sorted.
  static Vocab build(const Dataset& data);
};

}  // namespace attn::train
