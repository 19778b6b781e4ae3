// The Unicode classes the GPT-2 pre-tokenizer's pattern uses (\p{L}, \p{N}, \s): range tables generated from
// Python's unicodedata by scripts/gen_unicode_classes.py into unicode_classes.cpp, and the lookup.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::lm {

// `count` inclusive ranges of code points: data[2 i] .. data[2 i + 1], sorted and disjoint.
struct UnicodeRanges {
  const std::uint32_t* data;
  std::size_t count;
};

extern const UnicodeRanges kLetterRanges;  // general category L* (Lu, Ll, Lt, Lm, Lo)
extern const UnicodeRanges kNumberRanges;  // general category N* (Nd, Nl, No)
extern const UnicodeRanges kSpaceRanges;   // the White_Space property

enum class CharClass { kOther, kLetter, kNumber, kSpace };

// The class of one code point; anything past U+10FFFF is kOther.
CharClass char_class(std::uint32_t cp);

}  // namespace attn::lm
