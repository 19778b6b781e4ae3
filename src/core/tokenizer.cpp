// UTF-8 word tokenizer (words, punctuation, symbols) and the seeded token embedding lookup.
#include "tokenizer.hpp"

#include "error.hpp"
#include "rng.hpp"

namespace attn {
namespace {

enum class Kind { Space, Word, Mark, Joiner, Apostrophe };

// Decodes the code point starting at text[i]; sets `len`. Throws on malformed, overlong or surrogate input.
char32_t decode(const std::string& text, size_t i, size_t& len) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  auto bad = [&]() -> InputError {
    return InputError("the text is not valid UTF-8 at byte " + std::to_string(i) +
                      "; allowed: any valid UTF-8 text");
  };
  if (b0 < 0x80) {
    len = 1;
    return b0;
  }
  char32_t cp;
  char32_t min;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    throw bad();
  }
  if (i + len > text.size()) throw bad();
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xC0) != 0x80) throw bad();
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) throw bad();
  return cp;
}

bool in(char32_t cp, char32_t lo, char32_t hi) {
  return cp >= lo && cp <= hi;
}

Kind classify(char32_t cp) {
  if (cp == ' ' || in(cp, 0x09, 0x0D) || cp == 0xA0 || in(cp, 0x2000, 0x200A) || cp == 0x2028 ||
      cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF) {
    return Kind::Space;
  }
  if (cp == '\'' || cp == 0x2019) return Kind::Apostrophe;
  if (cp < 0x80) return (in(cp, '0', '9') || in(cp, 'a', 'z') || in(cp, 'A', 'Z')) ? Kind::Word : Kind::Mark;
  // combining marks, zero-width joiner, variation selectors and skin tones stick to the token before
  if (in(cp, 0x0300, 0x036F) || cp == 0x200D || in(cp, 0xFE00, 0xFE0F) || in(cp, 0x1F3FB, 0x1F3FF)) {
    return Kind::Joiner;
  }
  // punctuation and symbol blocks: Latin-1 signs, general punctuation, currency (the rupee sign),
  // letter-like symbols to arrows and dingbats, CJK punctuation, full-width forms' signs, emoji
  if (in(cp, 0xA1, 0xBF) || cp == 0xD7 || cp == 0xF7 || in(cp, 0x2010, 0x205E) || in(cp, 0x20A0, 0x20CF) ||
      in(cp, 0x2100, 0x2BFF) || in(cp, 0x3001, 0x303F) || in(cp, 0xFF01, 0xFF0F) ||
      in(cp, 0x1F000, 0x1FAFF)) {
    return Kind::Mark;
  }
  return Kind::Word;  // every other letter of every script, accents included
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::vector<std::string> tokenize(const std::string& text, std::size_t keep, std::size_t* total) {
  // One pass over the code points, decoding each once (plus one look-ahead after an apostrophe): words
  // run on; each mark is its own token; joiners glue to the previous token. Tokens past `keep` are only
  // counted, so memory stays bounded by the kept ones whatever the text's length.
  std::vector<std::string> tokens;
  std::size_t count = 0;  // tokens started so far, kept or not
  bool in_word = false, glue_next = false;
  for (size_t i = 0; i < text.size();) {
    size_t len = 0;
    Kind kind = classify(decode(text, i, len));
    const size_t next = i + len;
    if (kind == Kind::Apostrophe) {
      size_t next_len = 0;
      const bool inside =
          in_word && next < text.size() && classify(decode(text, next, next_len)) == Kind::Word;
      kind = inside ? Kind::Word : Kind::Mark;
    }
    const bool extend_last =
        count > 0 && (kind == Kind::Joiner || glue_next || (kind == Kind::Word && in_word));
    if (kind == Kind::Space) {
      in_word = glue_next = false;
    } else if (extend_last) {
      if (count <= keep) tokens.back().append(text, i, len);  // the last token started was kept
      glue_next = kind == Kind::Joiner && text.compare(i, len, "\u200D") == 0;  // a ZWJ joins the next emoji
    } else {
      if (count < keep) tokens.emplace_back(text, i, len);
      ++count;
      in_word = kind == Kind::Word;
      glue_next = false;
    }
    i = next;
  }
  if (total) *total = count;
  return tokens;
}

RowVec embed_token(const std::string& token, int d_model, std::uint64_t seed) {
  require_range(d_model, 1, kMaxDModel, "d_model");
  std::string key = token;
  for (char& ch : key) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  Rng rng(mix_seed(seed, fnv1a(key)));
  RowVec e(d_model);
  for (int i = 0; i < d_model; ++i) e(i) = rng.normal();
  return e;
}

Mat embed_tokens(const std::vector<std::string>& tokens, int d_model, std::uint64_t seed) {
  Mat m(static_cast<Eigen::Index>(tokens.size()), d_model);
  for (size_t t = 0; t < tokens.size(); ++t)
    m.row(static_cast<Eigen::Index>(t)) = embed_token(tokens[t], d_model, seed);
  return m;
}

int utf8_length(const std::string& s) {
  int n = 0;
  for (size_t i = 0; i < s.size();) {
    size_t len = 0;
    decode(s, i, len);
    i += len;
    ++n;
  }
  return n;
}

}  // namespace attn
