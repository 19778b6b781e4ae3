// GPT-2's pre-tokenizer pattern and the Digits step as hand-written scanners over UTF-8 (pre_split.hpp), and
// the Unicode class lookup over the generated tables (unicode_classes.hpp).
#include "core/lm/pre_split.hpp"

#include <algorithm>
#include <cstdint>

#include "core/lm/unicode_classes.hpp"

namespace attn::lm {

namespace {

bool in_ranges(const UnicodeRanges& r, std::uint32_t cp) {
  // the first range whose last code point is >= cp, by binary search over the range ends
  std::size_t lo = 0, hi = r.count;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (r.data[2 * mid + 1] < cp) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < r.count && r.data[2 * lo] <= cp;
}

// One character of the text: its class and its length in bytes (1 for a bad byte).
struct Char {
  CharClass cls = CharClass::kOther;
  std::uint32_t cp = 0;  // 0xFFFFFFFF for a bad byte
  std::size_t len = 1;
};

constexpr std::uint32_t kBadByte = 0xFFFFFFFFu;

// The character at text[i] (i < end), never reading at or past `end`. A byte that does not start a complete,
// shortest-form UTF-8 sequence of a scalar value is a bad byte on its own.
Char char_at(std::string_view text, std::size_t i, std::size_t end) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  Char c;
  std::size_t n = 0;
  std::uint32_t cp = 0, min = 0;
  if (b0 < 0x80) {
    n = 1, cp = b0;
  } else if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2, cp = b0 & 0x1Fu, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3, cp = b0 & 0x0Fu, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4, cp = b0 & 0x07u, min = 0x10000;
  }
  bool ok = n > 0 && end - i >= n;
  for (std::size_t k = 1; ok && k < n; ++k) {
    ok = (byte(i + k) & 0xC0) == 0x80;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
  if (!ok) {
    c.cp = kBadByte;
    return c;
  }
  c.cp = cp, c.len = n, c.cls = char_class(cp);
  return c;
}

// The end of the run of characters of class `cls` starting at i.
std::size_t run_end(std::string_view text, std::size_t i, std::size_t end, CharClass cls) {
  while (i < end) {
    const Char c = char_at(text, i, end);
    if (c.cls != cls) break;
    i += c.len;
  }
  return i;
}

// The length of the contraction ('s 't 're 've 'm 'll 'd) at text[i], or 0.
std::size_t contraction(std::string_view text, std::size_t i, std::size_t end) {
  if (text[i] != '\'') return 0;
  for (const std::string_view s : {"s", "t", "re", "ve", "m", "ll", "d"}) {
    if (end - i - 1 >= s.size() && text.compare(i + 1, s.size(), s) == 0) return 1 + s.size();
  }
  return 0;
}

// The end of the pattern's match starting at i (i < end): the first alternative that matches wins.
std::size_t gpt2_match(std::string_view text, std::size_t i, std::size_t end) {
  if (const std::size_t n = contraction(text, i, end)) return i + n;
  const Char c0 = char_at(text, i, end);
  // " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional space, then a run of one class
  std::size_t from = i;
  CharClass cls = c0.cls;
  if (c0.cp == ' ' && i + 1 < end) {
    const Char c1 = char_at(text, i + 1, end);
    if (c1.cls != CharClass::kSpace) from = i + 1, cls = c1.cls;
  }
  if (cls != CharClass::kSpace) return run_end(text, from, end, cls);
  // "\s+(?!\S)": the whitespace run, less its last character when a non-space follows it; "\s+": the whole
  // run of one character
  std::size_t j = i, last = i;
  while (j < end) {
    const Char c = char_at(text, j, end);
    if (c.cls != CharClass::kSpace) break;
    last = j, j += c.len;
  }
  return j == end || last == i ? j : last;
}

}  // namespace

CharClass char_class(std::uint32_t cp) {
  if (cp < 0x80) {
    if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) return CharClass::kLetter;
    if (cp >= '0' && cp <= '9') return CharClass::kNumber;
    if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D)) return CharClass::kSpace;
    return CharClass::kOther;
  }
  if (in_ranges(kLetterRanges, cp)) return CharClass::kLetter;
  if (in_ranges(kNumberRanges, cp)) return CharClass::kNumber;
  if (in_ranges(kSpaceRanges, cp)) return CharClass::kSpace;
  return CharClass::kOther;
}

void gpt2_split(std::string_view text, Span span, std::vector<Span>& out) {
  for (std::size_t i = span.begin; i < span.end;) {
    const std::size_t j = gpt2_match(text, i, span.end);
    out.push_back({i, j});
    i = j;
  }
}

std::size_t space_run_end(std::string_view text, std::size_t i, std::size_t end) {
  return run_end(text, i, end, CharClass::kSpace);
}

std::size_t space_run_begin(std::string_view text, std::size_t begin, std::size_t i) {
  while (i > begin) {
    // the character that ends at i starts at most 4 bytes back, on a byte that is not a continuation byte
    std::size_t k = i - 1;
    while (k > begin && i - k < 4 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
    const Char c = char_at(text, k, i);
    if (k + c.len != i) break;  // a bad byte ends the run: it is no space
    if (c.cls != CharClass::kSpace) break;
    i = k;
  }
  return i;
}

void digit_split(std::string_view text, Span span, DigitSplit digits, std::vector<Span>& out) {
  if (digits == DigitSplit::kNone) {
    if (span.end > span.begin) out.push_back(span);
    return;
  }
  std::size_t start = span.begin;  // the start of the current piece
  for (std::size_t i = span.begin; i < span.end;) {
    const Char c = char_at(text, i, span.end);
    if (c.cls != CharClass::kNumber) {
      i += c.len;
      continue;
    }
    if (i > start) out.push_back({start, i});
    const std::size_t j =
        digits == DigitSplit::kIndividual ? i + c.len : run_end(text, i, span.end, CharClass::kNumber);
    out.push_back({i, j});
    start = i = j;
  }
  if (span.end > start) out.push_back({start, span.end});
}

}  // namespace attn::lm
