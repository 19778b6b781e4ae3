// Long texts in the multi-head scene without the UI: the grids' token window (readable cells around the
// query), when the heads show as text, the text excerpts and the find box's matching.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/logic/long_text.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/logic/settings.hpp"

namespace {

app::Settings mha(int row = 0) {
  app::Settings s = app::defaults_for("mha");
  s.row = row;
  return s;
}

TEST(TokenWindow, WholeTextWhenItsCellsAreReadable) {
  const app::TokenWindow w = app::token_window(mha(5), 100, 300.0f);  // 3 px per cell
  EXPECT_EQ(w.size, 100);
  EXPECT_EQ(w.row0, 0);
  EXPECT_EQ(w.col0, 0);
  EXPECT_EQ(app::token_window(mha(5), 100, 0.0f).size, 100) << "an unknown side keeps the whole text";
}

TEST(TokenWindow, UnreadableGridOpensOnReadableCellsAroundTheQuery) {
  const app::TokenWindow w = app::token_window(mha(100), 207, 300.0f);  // 1.45 px per cell
  EXPECT_EQ(w.size, 50) << "300 px / 6 px per cell";
  EXPECT_GE(300.0f / static_cast<float>(w.size), app::kReadableCell);
  EXPECT_EQ(w.row0, 75);
  EXPECT_EQ(w.col0, 75);
  EXPECT_TRUE(w.row0 <= 100 && 100 < w.row0 + w.size) << "the query is inside";
  // near either end the window stops at the text's edge and still holds the query
  EXPECT_EQ(app::token_window(mha(2), 207, 300.0f).row0, 0);
  const app::TokenWindow end = app::token_window(mha(206), 207, 300.0f);
  EXPECT_EQ(end.row0 + end.size, 207);
  // a tiny grid still shows the smallest window
  EXPECT_EQ(app::token_window(mha(0), 1024, 10.0f).size, app::kMinSpan);
}

TEST(TokenWindow, AChosenWindowWins) {
  app::Settings s = mha(100);
  s.span = 12, s.from = 30, s.key_from = 40;
  const app::TokenWindow w = app::token_window(s, 207, 300.0f);
  EXPECT_EQ(w.size, 12);
  EXPECT_EQ(w.row0, 30);
  EXPECT_EQ(w.col0, 40);
  s.span = 207;  // the whole text, chosen
  EXPECT_EQ(app::token_window(s, 207, 300.0f).size, 207);
  s.span = 1, s.from = 500;  // at least kMinSpan, inside the text
  const app::TokenWindow small = app::token_window(s, 207, 300.0f);
  EXPECT_EQ(small.size, app::kMinSpan);
  EXPECT_EQ(small.row0, 207 - app::kMinSpan);
}

TEST(HeadsView, AutoShowsTextWhenAGridIsUnreadable) {
  app::Settings s = mha();
  EXPECT_FALSE(app::heads_as_text(s, 8, 300.0f));
  EXPECT_FALSE(app::heads_as_text(s, 100, 300.0f));
  EXPECT_TRUE(app::heads_as_text(s, 101, 300.0f));
  s.heads_view = app::HeadsView::Grid;
  EXPECT_FALSE(app::heads_as_text(s, 1024, 56.0f));
  s.heads_view = app::HeadsView::Text;
  EXPECT_TRUE(app::heads_as_text(s, 8, 300.0f));
}

TEST(HeadsView, IsAUrlSettingLeftOutOfLinksWhenAuto) {
  std::vector<std::string> notes;
  app::Settings s = app::parse_query("scene=mha&heads_view=text", notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(s.heads_view, app::HeadsView::Text);
  EXPECT_NE(app::to_query(s).find("heads_view=text"), std::string::npos);
  s.heads_view = app::HeadsView::Auto;
  EXPECT_EQ(app::to_query(s).find("heads_view"), std::string::npos);
  std::string note;
  EXPECT_FALSE(app::apply_param(s, "heads_view", "figure", note));
  EXPECT_EQ(s.heads_view, app::HeadsView::Auto);
}

TEST(TokensAround, CountTokensWithTheRowNearTheMiddle) {
  // 41 tokens of a text of t around `row`: in the middle, cut at the start, cut at the end, the whole text
  struct Case {
    int t, row, first, last;
  };
  for (const Case& c :
       {Case{207, 100, 80, 120}, Case{207, 3, 0, 40}, Case{207, 206, 166, 206}, Case{8, 5, 0, 7}}) {
    const app::TokenRange r = app::tokens_around(c.t, c.row, 41);
    EXPECT_EQ(r.first, c.first) << c.t << " tokens, row " << c.row;
    EXPECT_EQ(r.last, c.last) << c.t << " tokens, row " << c.row;
  }
}

TEST(FindToken, FirstContainingTokenAnyCaseThenTheNextGoingRound) {
  const std::vector<std::string> t = {"Refund", "the", "delivery", "fee", ",", "not", "THE", "cake", "."};
  EXPECT_EQ(app::find_token(t, "the", -1), 1);
  EXPECT_EQ(app::find_token(t, "the", 1), 6) << "case is ignored";
  EXPECT_EQ(app::find_token(t, "the", 6), 1) << "past the last match it goes round";
  EXPECT_EQ(app::find_token(t, "fund", -1), 0) << "part of a token matches";
  EXPECT_EQ(app::find_token(t, "ake", 7), 7) << "the only match, found from itself";
  EXPECT_EQ(app::find_token(t, "xyz", -1), -1);
  EXPECT_EQ(app::find_token(t, "", -1), -1);
  EXPECT_EQ(app::find_token({}, "a", -1), -1);
  const app::MatchCount m = app::count_matches(t, "The", 6);
  EXPECT_EQ(m.total, 2);
  EXPECT_EQ(m.index, 2);
  EXPECT_EQ(app::count_matches(t, "the", 0).index, 0) << "token 0 does not match";
  EXPECT_EQ(app::count_matches(t, "zzz", 0).total, 0);
}

TEST(TokenWords, CutLongTokensAndKeepRepeatsUnnumbered) {
  const std::vector<std::string> t = {"the", "cake", "the", std::string(60, 'a')};
  const std::vector<std::string> w = app::token_words(t);
  EXPECT_EQ(w[2], "the");
  EXPECT_EQ(w[3], std::string(48, 'a') + "...");
  EXPECT_EQ(app::token_labels(t)[2], "the#2") << "labels stay unique for the sentences";
  EXPECT_EQ(app::token_labels(t)[3], w[3]);
}

}  // namespace
