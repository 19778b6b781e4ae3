// Wrapping the app's long texts with the app's own font at narrow widths: no line break falls inside a
// number ("1,/048,576", "0./999996"), which Dear ImGui's own wrapping does for the same texts.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <string>
#include <vector>

#include "app/logic/clock_text.hpp"
#include "app/logic/exercises.hpp"
#include "app/logic/text.hpp"
#include "core/clock.hpp"
#include "font.hpp"
#include "layer_norm_caption.hpp"

namespace {

class WrapWithFont : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ImGui::CreateContext();
    ASSERT_TRUE(platform::load_font(1.0f)) << "the embedded font did not load";
  }
  static void TearDownTestSuite() { ImGui::DestroyContext(); }
  static const ImFont& font() { return *ImGui::GetIO().Fonts->Fonts[0]; }
  static float measure(std::string_view t) {
    return font().CalcTextSizeA(font().FontSize, FLT_MAX, 0.0f, t.data(), t.data() + t.size()).x;
  }
};

// The long texts of the exercises, the clock and the encoder's LayerNorm check, built as the app builds
// them.
std::vector<std::string> long_texts() {
  std::vector<std::string> out;
  for (const app::Question& q : app::build_questions()) {
    out.push_back(q.prompt);
    out.push_back(q.hint);
    out.push_back(q.why);
    for (const std::string& n : q.choice_notes) out.push_back(n);
    if (q.wrong_note) out.push_back(q.wrong_note(q.answer + 1));
  }
  for (int d : {2, 3, 4, 512}) {
    const attn::PositionClock clock(d);
    const app::ClockExercise ex = app::clock_exercise(clock);
    const std::vector<attn::HandReading> hands = attn::compare_positions(clock, 44, 0);
    for (const std::string& t :
         {ex.prompt, ex.hint, ex.why, app::clock_intro(clock), app::compare_sentence(hands, 44, 0),
          app::rotation_sentence(clock, hands[0], 44, 0, 44, 1e-8)})
      out.push_back(t);
  }
  out.push_back(fx::encoder_layer_norm_caption().text);
  return out;
}

TEST_F(WrapWithFont, NoLineBreakInsideANumber) {
  const std::vector<std::string> texts = long_texts();
  ASSERT_GE(texts.size(), 20u);
  int checked = 0;
  for (const std::string& text : texts) {
    ASSERT_EQ(text.find("  "), std::string::npos) << "double space in: " << text;
    for (int width = 60; width <= 700; width += 1) {
      const std::vector<std::string> lines =
          app::wrap_lines(text, static_cast<float>(width), [](std::string_view t) { return measure(t); });
      std::string joined;
      for (size_t i = 0; i < lines.size(); ++i) {
        joined += (i ? " " : "") + lines[i];
        // a line wider than the width is one word that fits nowhere else
        if (measure(lines[i]) > static_cast<float>(width)) {
          EXPECT_EQ(lines[i].find(' '), std::string::npos) << lines[i];
        }
        // every break falls at a space of the text, so no wrapped line continues the previous line's number
        if (i > 0) {
          const size_t at = joined.size() - lines[i].size();  // where line i starts in the text
          ASSERT_LT(at, text.size() + 1);
          EXPECT_EQ(text[at - 1], ' ')
              << "width " << width << ": '" << lines[i - 1] << "' | '" << lines[i] << "'";
        }
      }
      ASSERT_EQ(joined, text) << "width " << width << ": every break must be at one space";
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

// Every character of those texts has a glyph in the desktop font (cmake/font.cmake's ranges): none is
// drawn as the fallback box.
TEST_F(WrapWithFont, EveryCharacterHasAGlyph) {
  int chars = 0;
  for (const std::string& text : long_texts()) {
    for (const char* p = text.c_str(); *p;) {
      unsigned int c = 0;
      p += ImTextCharFromUtf8(&c, p, nullptr);
      ++chars;
      EXPECT_NE(font().FindGlyphNoFallback(static_cast<ImWchar>(c)), nullptr)
          << "U+" << std::hex << c << " has no glyph, in: " << text;
    }
  }
  EXPECT_GT(chars, 5000);
}

// The control: ImGui's own wrapping breaks after '.' and ',', so somewhere it splits one of these numbers.
TEST_F(WrapWithFont, ImGuiWrappingWouldSplitANumberHere) {
  int splits = 0;
  std::string example;
  for (const std::string& text : long_texts()) {
    for (int width = 60; width <= 700; width += 1) {
      const char* s = text.data();
      const char* end = s + text.size();
      while (s < end) {
        const char* eol = font().CalcWordWrapPositionA(1.0f, s, end, static_cast<float>(width));
        if (eol >= end) break;
        const size_t at = static_cast<size_t>(eol - text.data());
        if (app::splits_number(text.substr(0, at), text.substr(at))) {
          if (splits++ == 0) example = text.substr(at > 20 ? at - 20 : 0, 40);
        }
        s = eol;
        while (s < end && *s == ' ') ++s;
      }
    }
  }
  EXPECT_GT(splits, 0) << "ImGui's wrapping never split a number: this test would not catch a regression";
  std::printf("ImGui's own wrapping split a number %d times, e.g. around \"%s\"\n", splits, example.c_str());
}

// split_list splits as std::getline with a separator did: empty items kept, no trailing empty item.
TEST(SplitList, LikeGetline) {
  using V = std::vector<std::string>;
  EXPECT_EQ(app::split_list("", ','), V{});
  EXPECT_EQ(app::split_list("a", ','), V{"a"});
  EXPECT_EQ(app::split_list("a,b", ','), (V{"a", "b"}));
  EXPECT_EQ(app::split_list("a,,b", ','), (V{"a", "", "b"}));
  EXPECT_EQ(app::split_list(",a", ','), (V{"", "a"}));
  EXPECT_EQ(app::split_list("a,", ','), V{"a"});
  EXPECT_EQ(app::split_list(",", ','), V{""});
}

// parse_number takes the whole text as one number within [lo, hi], or nothing.
TEST(ParseNumber, WholeTextWithinRange) {
  double x = 0;
  EXPECT_TRUE(app::parse_number("-0.25", -1, 1, x));
  EXPECT_EQ(x, -0.25);
  EXPECT_TRUE(app::parse_number(" 1e2", 0, 1000, x));  // leading spaces, as strtod skips them
  EXPECT_EQ(x, 100.0);
  for (const char* bad : {"", "1.5abc", "1.5 ", "nan", "inf", "--1", "2"}) {
    EXPECT_FALSE(app::parse_number(bad, -1, 1.5, x)) << bad;
  }
}

}  // namespace
