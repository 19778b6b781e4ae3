// Byte-level BPE, the tokenizer of GPT-2 and of many Hugging Face models (SmolLM2, ...): the text's UTF-8
// bytes cut into words by a pre-tokenizer (pre_split.hpp), each word's bytes merged pair by pair in the
// order of a list of merges, each result looked up in the vocabulary; added tokens (<|endoftext|>) are
// found in the text whole first. Vocabulary files write each byte as a printable character (GPT-2's byte
// map: "Ġ" is the space); this file turns them back into bytes once, when the tokenizer is made.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/lm/pre_split.hpp"

namespace attn::lm {

// The longest text encode() takes, in bytes.
inline constexpr std::size_t kMaxBpeTextBytes = std::size_t{4} << 20;
// The most vocabulary entries (ids) and merges a tokenizer may have.
inline constexpr std::size_t kMaxBpeVocab = std::size_t{1} << 21;

// GPT-2's byte map: the code point that stands for byte b in vocabulary files. Bytes 33..126, 161..172 and
// 174..255 stand for themselves; the other 68 bytes, in order, for 256, 257, ... 323.
std::uint32_t byte_to_code_point(unsigned char b);
// A vocabulary file's token (UTF-8 of mapped code points) -> its bytes; false when a character is not in the
// map's image (then the token is not byte-level: an added token kept as its own text).
bool token_to_bytes(const std::string& token, std::string& bytes);
// Bytes -> the vocabulary files' spelling (each byte as its code point, in UTF-8).
std::string bytes_to_token(const std::string& bytes);

// A token found in the text as a whole string before any splitting (Hugging Face's added_tokens).
struct AddedToken {
  std::string text;
  int id = 0;
  bool lstrip = false;  // the white space before it belongs to it (is dropped)
  bool rstrip = false;  // the white space after it belongs to it
};

struct ByteBpeOptions {
  bool gpt2_split = true;                 // cut words with GPT-2's pattern; false: each piece is one word
  DigitSplit digits = DigitSplit::kNone;  // numbers cut out first (the Digits pre-tokenizer)
  bool add_prefix_space = false;          // a space put before each piece that does not start with one
  bool ignore_merges = false;             // a word that is a vocabulary entry as a whole is that id
  std::vector<AddedToken> added;          // found in the text first, longest first where two start together
  int unk_id = -1;                        // the id of a byte with no entry; -1: such a byte is an error
};

struct ByteBpe {
  std::vector<std::string> pieces;           // (V,) each id's bytes (an added token: its text)
  std::vector<bool> known;                   // (V,) false where no token has this id
  std::unordered_map<std::string, int> ids;  // byte-level entries' bytes -> id
  std::array<int, 256> byte_ids{};           // each single byte's id, -1 when it has none
  struct Merge {
    int rank = 0;  // its line in the merges list: lower merges first
    int id = 0;    // the joined token's id
  };
  std::unordered_map<std::uint64_t, Merge> merges;  // (left id << 32 | right id) -> the merge
  ByteBpeOptions options;
  std::array<std::vector<int>, 256> added_by_first_byte;  // indexes into options.added, longest first
};

// vocab: (V,) each id's token as vocabulary files spell it ("" where no token has that id); merges: pairs
// of tokens in rank order, each side and their join in the vocabulary; options' added tokens name ids
// below V. Throws InputError in words (a merge of unknown tokens, too many entries, a bad id).
ByteBpe make_byte_bpe(const std::vector<std::string>& vocab,
                      const std::vector<std::pair<std::string, std::string>>& merges, ByteBpeOptions options);

// UTF-8 text -> ids (invalid UTF-8: each bad byte is a character on its own, neither letter, number nor
// space, and is encoded as its byte). Throws InputError for a text longer than kMaxBpeTextBytes or a byte
// the vocabulary lacks (with no unk token).
std::vector<int> encode(const ByteBpe& bpe, const std::string& text);

// The bytes of one id (the text of its piece; a piece may be part of a UTF-8 character). InputError when
// the id is outside the vocabulary.
const std::string& decode_piece(const ByteBpe& bpe, int id);

// The bytes of a list of ids, joined.
std::string decode(const ByteBpe& bpe, const std::vector<int>& ids);

}  // namespace attn::lm
