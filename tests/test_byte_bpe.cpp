// Byte-level BPE in the core (core/lm/byte_bpe.hpp, pre_split.hpp, unicode_classes.hpp): GPT-2's byte map,
// the class lookup at every range's ends, the GPT-2 pattern's pieces on hand-worked texts and invalid UTF-8,
// merges applied by rank, added tokens, and refusals. tests/tokenizer_reference_test.py compares whole
// tokenizers with GPT-2's own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/lm/byte_bpe.hpp"
#include "core/lm/unicode_classes.hpp"

namespace {

using attn::lm::ByteBpe;
using attn::lm::CharClass;

std::vector<std::string> gpt2_pieces(const std::string& text) {
  std::vector<attn::lm::Span> spans;
  attn::lm::gpt2_split(text, {0, text.size()}, spans);
  std::vector<std::string> out;
  for (const auto& s : spans) out.push_back(text.substr(s.begin, s.end - s.begin));
  return out;
}

// The 256 single bytes as ids 0..255 (in byte order), then `extra` tokens (written as bytes) from 256.
std::vector<std::string> vocab_with(const std::vector<std::string>& extra) {
  std::vector<std::string> v;
  for (int b = 0; b < 256; ++b) v.push_back(attn::lm::bytes_to_token(std::string(1, static_cast<char>(b))));
  for (const auto& e : extra) v.push_back(attn::lm::bytes_to_token(e));
  return v;
}

std::vector<std::pair<std::string, std::string>> merges_of(
    const std::vector<std::pair<std::string, std::string>>& byte_pairs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [a, b] : byte_pairs)
    out.emplace_back(attn::lm::bytes_to_token(a), attn::lm::bytes_to_token(b));
  return out;
}

TEST(ByteBpe, ByteMapIsGpt2s) {
  EXPECT_EQ(attn::lm::byte_to_code_point(' '), 0x120u);   // "Ġ"
  EXPECT_EQ(attn::lm::byte_to_code_point('\n'), 0x10Au);  // "Ċ"
  EXPECT_EQ(attn::lm::byte_to_code_point(0), 0x100u);
  EXPECT_EQ(attn::lm::byte_to_code_point(127), 0x121u);  // after the 33 bytes 0..32
  EXPECT_EQ(attn::lm::byte_to_code_point(173), 0x143u);  // the last of the 68
  EXPECT_EQ(attn::lm::byte_to_code_point('a'), static_cast<std::uint32_t>('a'));
  EXPECT_EQ(attn::lm::bytes_to_token(" the"), "\xC4\xA0the");
  std::string all, back;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  ASSERT_TRUE(attn::lm::token_to_bytes(attn::lm::bytes_to_token(all), back));
  EXPECT_EQ(back, all);
  EXPECT_FALSE(attn::lm::token_to_bytes(" ", back));             // a raw space is not in the map's image
  EXPECT_FALSE(attn::lm::token_to_bytes("\xE4\xBD\xA0", back));  // nor is a CJK character
}

TEST(ByteBpe, ClassLookupAtEveryRangesEnds) {
  const struct {
    const attn::lm::UnicodeRanges& ranges;
    CharClass cls;
  } tables[] = {{attn::lm::kLetterRanges, CharClass::kLetter},
                {attn::lm::kNumberRanges, CharClass::kNumber},
                {attn::lm::kSpaceRanges, CharClass::kSpace}};
  for (const auto& t : tables) {
    ASSERT_GT(t.ranges.count, 0u);
    for (std::size_t i = 0; i < t.ranges.count; ++i) {
      const std::uint32_t first = t.ranges.data[2 * i], last = t.ranges.data[2 * i + 1];
      ASSERT_LE(first, last);
      if (i > 0) {
        ASSERT_GT(first, t.ranges.data[2 * i - 1] + 1) << "ranges sorted, apart";
      }
      EXPECT_EQ(attn::lm::char_class(first), t.cls) << first;
      EXPECT_EQ(attn::lm::char_class(last), t.cls) << last;
      EXPECT_NE(attn::lm::char_class(last + 1), t.cls) << last + 1;
      if (first > 0) {
        EXPECT_NE(attn::lm::char_class(first - 1), t.cls) << first - 1;
      }
    }
  }
  EXPECT_EQ(attn::lm::char_class(0x4F60), CharClass::kLetter);  // 你
  EXPECT_EQ(attn::lm::char_class(0x0663), CharClass::kNumber);  // Arabic-Indic three
  EXPECT_EQ(attn::lm::char_class(0x00BD), CharClass::kNumber);  // ½
  EXPECT_EQ(attn::lm::char_class(0x3000), CharClass::kSpace);
  EXPECT_EQ(attn::lm::char_class(0x0085), CharClass::kSpace);
  EXPECT_EQ(attn::lm::char_class(0xFEFF), CharClass::kOther);  // not White_Space
  EXPECT_EQ(attn::lm::char_class(0x1F600), CharClass::kOther);
  EXPECT_EQ(attn::lm::char_class(0x110000), CharClass::kOther);
}

TEST(ByteBpe, Gpt2PatternPieces) {
  using V = std::vector<std::string>;
  EXPECT_EQ(gpt2_pieces("Hello  world's 123!!\n\n"), (V{"Hello", " ", " world", "'s", " 123", "!!", "\n\n"}));
  EXPECT_EQ(gpt2_pieces("I'll 'twas"), (V{"I", "'ll", " '", "twas"}));
  EXPECT_EQ(gpt2_pieces("a \n b  "), (V{"a", " \n", " b", "  "}));
  EXPECT_EQ(gpt2_pieces("x\t\ty"), (V{"x", "\t", "\t", "y"}));  // a tab before a letter is no prefix
  EXPECT_EQ(gpt2_pieces("caf\xC3\xA9 \xE2\x82\xAC"
                        "5"),
            (V{"caf\xC3\xA9", " \xE2\x82\xAC", "5"}));
  // invalid UTF-8: each bad byte a character that is neither letter, number nor space
  EXPECT_EQ(gpt2_pieces("a\xFF"
                        "b \xFE\xC3(9"),
            (V{"a", "\xFF", "b", " \xFE\xC3(", "9"}));
  EXPECT_EQ(gpt2_pieces("\xE2\x82"), (V{"\xE2\x82"}));
  EXPECT_TRUE(gpt2_pieces("").empty());
}

TEST(ByteBpe, MergesByRank) {
  const auto vocab = vocab_with({"ab", "bc", "abc"});  // ids 256, 257, 258
  const ByteBpe ab_first =
      attn::lm::make_byte_bpe(vocab, merges_of({{"a", "b"}, {"b", "c"}, {"ab", "c"}}), {});
  EXPECT_EQ(attn::lm::encode(ab_first, "abc"), (std::vector<int>{258}));
  EXPECT_EQ(attn::lm::encode(ab_first, "abcbc ab"), (std::vector<int>{258, 257, ' ', 256}));
  const ByteBpe bc_first =
      attn::lm::make_byte_bpe(vocab, merges_of({{"b", "c"}, {"a", "b"}, {"ab", "c"}}), {});
  EXPECT_EQ(attn::lm::encode(bc_first, "abc"), (std::vector<int>{'a', 257}));
  EXPECT_EQ(attn::lm::decode(bc_first, {'a', 257, 0xFF}), "abc\xFF");
  EXPECT_EQ(attn::lm::decode_piece(bc_first, 258), "abc");
}

TEST(ByteBpe, LongWordIsLinearEnough) {
  std::vector<std::string> extra;
  std::vector<std::pair<std::string, std::string>> merges;
  for (std::string s = "a"; s.size() < 512; s += s) extra.push_back(s + s), merges.emplace_back(s, s);
  const ByteBpe bpe = attn::lm::make_byte_bpe(vocab_with(extra), merges_of(merges), {});
  const std::string text(std::size_t{1} << 20, 'a');  // one word of a million letters
  const std::vector<int> ids = attn::lm::encode(bpe, text);
  EXPECT_EQ(ids.size(), (std::size_t{1} << 20) / 512);
  EXPECT_EQ(attn::lm::decode(bpe, ids), text);
}

TEST(ByteBpe, AddedTokensAndOptions) {
  attn::lm::ByteBpeOptions o;
  o.added = {{"<|x|>", 256, false, false}, {"<|x|>!", 257, false, false}, {"<s>", 258, true, true}};
  const ByteBpe bpe = attn::lm::make_byte_bpe(vocab_with({"<|x|>", "<|x|>!", "<s>"}), {}, o);
  EXPECT_EQ(attn::lm::encode(bpe, "a<|x|>!<|x|>"), (std::vector<int>{'a', 257, 256}));  // longest first
  EXPECT_EQ(attn::lm::encode(bpe, "a \t<s>\n b"), (std::vector<int>{'a', 258, 'b'}));   // spaces stripped
  EXPECT_EQ(attn::lm::encode(bpe, "<|x"), (std::vector<int>{'<', '|', 'x'}));

  attn::lm::ByteBpeOptions digits;
  digits.digits = attn::lm::DigitSplit::kIndividual;
  digits.add_prefix_space = true;
  const ByteBpe d =
      attn::lm::make_byte_bpe(vocab_with({" 1", "12"}), merges_of({{" ", "1"}, {"1", "2"}}), digits);
  EXPECT_EQ(attn::lm::encode(d, "12"), (std::vector<int>{256, ' ', '2'}));  // " 1", then " 2" as two ids
}

TEST(ByteBpe, RefusedInWords) {
  const auto vocab = vocab_with({"ab"});
  try {
    attn::lm::make_byte_bpe(vocab, merges_of({{"a", "c"}}), {});
    FAIL() << "a merge whose join is not in the vocabulary was accepted";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("merge 1 ('a c') joins tokens that are not all in the vocabulary"),
              std::string::npos)
        << e.what();
  }
  const ByteBpe bpe = attn::lm::make_byte_bpe(vocab, {}, {});
  EXPECT_THROW(attn::lm::decode_piece(bpe, 257), attn::InputError);
  EXPECT_THROW(attn::lm::decode_piece(bpe, -1), attn::InputError);
  EXPECT_THROW(attn::lm::encode(bpe, std::string(attn::lm::kMaxBpeTextBytes + 1, 'a')), attn::InputError);
  const ByteBpe no_bytes = attn::lm::make_byte_bpe({"a", "b"}, {}, {});
  try {
    attn::lm::encode(no_bytes, "abc");
    FAIL() << "a byte without an entry was accepted";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no entry for the byte 0x63"), std::string::npos) << e.what();
  }
}

}  // namespace
