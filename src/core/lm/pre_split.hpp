// Byte-level BPE's pre-tokenizers on UTF-8 text, without a regex engine: GPT-2's pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// as a hand-written scanner, and Hugging Face's Digits pre-tokenizer (numbers cut out before it).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace attn::lm {

// A piece of the text: bytes [begin, end).
struct Span {
  std::size_t begin = 0, end = 0;
};

// How numbers are cut out before the GPT-2 pattern runs (Hugging Face's Digits pre-tokenizer).
enum class DigitSplit {
  kNone,        // no Digits step
  kRuns,        // each run of numbers is its own piece (individual_digits false)
  kIndividual,  // each number character is its own piece (individual_digits true)
};

// The GPT-2 pattern's matches in text[span], in order; together they cover the span. Invalid UTF-8 is read
// one byte at a time, each bad byte a character that is neither letter, number nor space.
void gpt2_split(std::string_view text, Span span, std::vector<Span>& out);

// The end of the run of white space (the White_Space property) starting at i, before `end`.
std::size_t space_run_end(std::string_view text, std::size_t i, std::size_t end);
// The start of the run of white space that ends at i, after `begin`.
std::size_t space_run_begin(std::string_view text, std::size_t begin, std::size_t i);

// text[span] cut by the Digits step (kNone: the span itself), appended to out in order.
void digit_split(std::string_view text, Span span, DigitSplit digits, std::vector<Span>& out);

}  // namespace attn::lm
