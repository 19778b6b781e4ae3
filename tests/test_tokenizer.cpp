// The word tokenizer on the lesson's sentences: punctuation, curly quotes, rupees, accents, emoji,
// apostrophes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/tokenizer.hpp"
#include "reference.hpp"

using Tokens = std::vector<std::string>;

TEST(Tokenizer, TheRoutersSentence) {
  EXPECT_EQ(attn::tokenize("Refund the delivery fee, not the cake."),
            (Tokens{"Refund", "the", "delivery", "fee", ",", "not", "the", "cake", "."}));
}

TEST(Tokenizer, CurlyDoubleQuotesAreTokensOfTheirOwn) {
  EXPECT_EQ(attn::tokenize("\u201cPlease refund.\u201d"),
            (Tokens{"\u201c", "Please", "refund", ".", "\u201d"}));
}

TEST(Tokenizer, CurlySingleQuotesAroundAWordAreTokensOfTheirOwn) {
  EXPECT_EQ(attn::tokenize("\u2018cake\u2019 and 'fee'"),
            (Tokens{"\u2018", "cake", "\u2019", "and", "'", "fee", "'"}));
}

TEST(Tokenizer, RupeeSignIsSeparateFromTheAmount) {
  EXPECT_EQ(attn::tokenize("the full \u20b9850 cake, not \u20b960"),
            (Tokens{"the", "full", "\u20b9", "850", "cake", ",", "not", "\u20b9", "60"}));
}

TEST(Tokenizer, AccentsStayInsideTheirWords) {
  EXPECT_EQ(attn::tokenize("caf\u00e9 cr\u00e8me"), (Tokens{"caf\u00e9", "cr\u00e8me"}));
  // A combining accent (e + U+0301) is a mark, so it stays in the word too.
  EXPECT_EQ(attn::tokenize("cafe\u0301 ok"), (Tokens{"cafe\u0301", "ok"}));
}

TEST(Tokenizer, NonLatinWordsStayWhole) {
  // Devanagari vowel signs and the virama are marks inside the word.
  EXPECT_EQ(attn::tokenize("\u0915\u0947\u0915 \u0905\u091a\u094d\u091b\u093e"),
            (Tokens{"\u0915\u0947\u0915", "\u0905\u091a\u094d\u091b\u093e"}));
}

TEST(Tokenizer, EmojiAreTokensOfTheirOwn) {
  EXPECT_EQ(attn::tokenize("cake\U0001F382! late \U0001F620\U0001F620"),
            (Tokens{"cake", "\U0001F382", "!", "late", "\U0001F620", "\U0001F620"}));
}

TEST(Tokenizer, ApostropheInsideAWordStays) {
  EXPECT_EQ(attn::tokenize("don't"), (Tokens{"don't"}));
  EXPECT_EQ(attn::tokenize("don\u2019t"), (Tokens{"don\u2019t"}));
  EXPECT_EQ(attn::tokenize("the rider's late, isn\u2019t it?"),
            (Tokens{"the", "rider's", "late", ",", "isn\u2019t", "it", "?"}));
}

TEST(Tokenizer, EmptyAndBlankTextGiveNoTokens) {
  EXPECT_TRUE(attn::tokenize("").empty());
  EXPECT_TRUE(attn::tokenize("  \t\n ").empty());
}

TEST(Tokenizer, WhitespaceOfAnyAsciiKindSeparates) {
  EXPECT_EQ(attn::tokenize("two\thours\nlate  \r\n rider"), (Tokens{"two", "hours", "late", "rider"}));
}

TEST(Tokenizer, TokensAreValidUtf8AndConcatenateToTheTextWithoutWhitespace) {
  const std::vector<std::string> texts = {
      "Refund the delivery fee, not the cake.",
      "\u201cPlease refund the delivery fee, not the cake. The cake was lovely, the rider was two hours "
      "late.\u201d",
      "refunded the full \u20b9850 cake instead of the \u20b960 delivery fee",
      "caf\u00e9 cr\u00e8me, s\u2019il vous pla\u00eet!",
      "Lovely cake \U0001F382\U0001F389 but a late rider \U0001F620...",
      "\u0915\u0947\u0915 \u0905\u091a\u094d\u091b\u093e \u0925\u093e\u0964",
      "Refund my eggless cake, it was cold (order #A-1234; 2 hrs).",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    const Tokens tokens = attn::tokenize(text);
    ASSERT_FALSE(tokens.empty());
    std::string joined, squeezed;
    for (const std::string& t : tokens) {
      EXPECT_FALSE(t.empty());
      EXPECT_TRUE(ref::valid_utf8(t)) << "token bytes are not valid UTF-8";
      EXPECT_EQ(t.find_first_of(" \t\r\n"), std::string::npos) << "token contains whitespace: " << t;
      joined += t;
    }
    for (char c : text)
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') squeezed += c;
    EXPECT_EQ(joined, squeezed);
  }
}
