// libFuzzer target: attn::tokenize on any bytes, then attn::embed_tokens on its tokens (small d_model).
// Invalid UTF-8 must raise InputError; valid text must give non-empty, valid UTF-8 tokens whose bytes are
// the input's bytes in order (only whitespace dropped); tokenize(text, keep, &total) must give the first
// `keep` of them and count them all; the embedding is finite and the same for any ASCII case.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/tokenizer.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "finding: fuzz_tokenizer: %s\n", what);
    std::abort();
  }
}

// Is `sub` the bytes of `text` in order with some bytes left out?
bool is_subsequence(const std::string& sub, const std::string& text) {
  size_t j = 0;
  for (size_t i = 0; i < text.size() && j < sub.size(); ++i) {
    if (text[i] == sub[j]) ++j;
  }
  return j == sub.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> tokens;
  try {
    tokens = attn::tokenize(text);
  } catch (const attn::InputError&) {
    bool threw = false;  // the whole text is invalid UTF-8 somewhere: utf8_length must agree
    try {
      attn::utf8_length(text);
    } catch (const attn::InputError&) {
      threw = true;
    }
    check(threw, "tokenize rejected text that utf8_length accepts");
    return 0;
  }
  std::string joined;
  for (const std::string& t : tokens) {
    check(!t.empty(), "empty token");
    check(attn::utf8_length(t) >= 1, "token without a code point");  // throws (uncaught) if invalid UTF-8
    joined += t;
  }
  check(joined.size() <= text.size(), "tokens hold more bytes than the text");
  check(is_subsequence(joined, text), "tokens are not the text's bytes in order");
  const size_t keep = size % 7;
  size_t total = 0;
  const std::vector<std::string> first = attn::tokenize(text, keep, &total);
  check(total == tokens.size(), "tokenize(text, keep, &total) miscounts the tokens");
  check(
      first.size() == std::min(keep, tokens.size()) && std::equal(first.begin(), first.end(), tokens.begin()),
      "tokenize(text, keep) is not the first tokens of tokenize(text)");

  if (tokens.empty() || tokens.size() > 256) return 0;
  const int d_model = 1 + data[0] % 8;
  const std::uint64_t seed = size > 1 ? data[1] : 7;
  const attn::Mat e = attn::embed_tokens(tokens, d_model, seed);
  check(e.rows() == static_cast<Eigen::Index>(tokens.size()) && e.cols() == d_model, "embedding shape");
  check(e.allFinite(), "non-finite embedding");
  std::string upper = tokens[0];
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  check(attn::embed_token(upper, d_model, seed) == e.row(0), "embedding depends on ASCII case");
  return 0;
}
