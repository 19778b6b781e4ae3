// UTF-8 handling of the tokenizer: invalid byte sequences are InputErrors; utf8_length counts code points.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/tokenizer.hpp"

TEST(TokenizerUtf8, InvalidSequencesAreInputErrors) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"\xff", "byte 0xFF"},
      {"\xfe", "byte 0xFE"},
      {"cake \x80", "lone continuation byte"},
      {"caf\xc3", "truncated 2-byte sequence at the end"},
      {"\xe2\x82", "truncated rupee sign"},
      {"\xe2\x82 850", "truncated rupee sign before a space"},
      {"\xf0\x9f\x8e", "truncated emoji"},
      {"\xc0\xaf", "overlong 2-byte '/'"},
      {"\xc1\xbf", "overlong 2-byte"},
      {"\xe0\x80\xaf", "overlong 3-byte '/'"},
      {"\xf0\x80\x80\xaf", "overlong 4-byte '/'"},
      {"\xed\xa0\x80", "UTF-16 surrogate"},
      {"\xf4\x90\x80\x80", "above U+10FFFF"},
      {"\xf8\x88\x80\x80\x80", "5-byte form"},
  };
  for (const auto& [text, why] : bad) EXPECT_THROW(attn::tokenize(text), attn::InputError) << why;
}

TEST(TokenizerUtf8, TheErrorNamesTheByteOffset) {
  try {
    attn::tokenize("hello world \xff");
    FAIL() << "no InputError for 0xFF";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("12"), std::string::npos) << e.what();
  }
}

TEST(TokenizerUtf8, LengthCountsCodePoints) {
  EXPECT_EQ(attn::utf8_length(""), 0);
  EXPECT_EQ(attn::utf8_length("cake"), 4);
  EXPECT_EQ(attn::utf8_length("caf\u00e9"), 4);
  EXPECT_EQ(attn::utf8_length("\u20b9850"), 4);
  EXPECT_EQ(attn::utf8_length("\U0001F382"), 1);
  EXPECT_EQ(attn::utf8_length("\u201cok\u201d"), 4);
}
