// A UTF-8 word tokenizer for the demo sentences and a seeded token -> embedding lookup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "types.hpp"

namespace attn {

// Splits text into words and punctuation marks. A word is a run of letters, digits and marks (any
// non-ASCII letter counts, so accents stay inside words); an apostrope (' or U+2019) between letters stays
// in the word; every other punctuation mark, symbol (the rupee sign, emoji) or quote is its own token.
// Whitespace separates. Throws InputError on invalid UTF-8, naming the byte offset.
// Only the first `keep` tokens are returned; `total`, when given, receives the count of all of them (the
// rest are counted, not stored, so a huge text costs no more memory than its first `keep` tokens).
std::vector<std::string> tokenize(const std::string& text, std::size_t keep = SIZE_MAX,
                                  std::size_t* total = nullptr);

// Deterministic embedding of one token: the same token and seed give the same (d_model,) row on every
// platform. Case is ignored (Refund and refund share a vector). Entries are normal(0, 1).
RowVec embed_token(const std::string& token, int d_model, std::uint64_t seed);
// tokens (T) -> (T, d_model)
Mat embed_tokens(const std::vector<std::string>& tokens, int d_model, std::uint64_t seed);

// Number of code points in a valid UTF-8 string.
int utf8_length(const std::string& s);

}  // namespace attn
