// Tests of the exercises' question table: every answer the core computes, checked against an independent
// computation or the lesson's stated value, plus the checking and number parsing the scene relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "app/logic/exercises.hpp"
#include "app/logic/settings.hpp"
#include "core/clock.hpp"

namespace {

const app::Question& find(const std::vector<app::Question>& qs, const std::string& id) {
  for (const app::Question& q : qs) {
    if (q.id == id) return q;
  }
  ADD_FAILURE() << "no question " << id;
  static const app::Question none;
  return none;
}

class Exercises : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { questions_ = new std::vector<app::Question>(app::build_questions()); }
  static void TearDownTestSuite() { delete questions_; }
  static const app::Question& q(const std::string& id) { return find(*questions_, id); }
  static std::vector<app::Question>* questions_;
};
std::vector<app::Question>* Exercises::questions_ = nullptr;

TEST_F(Exercises, AtLeastSixQuestionsWithUniqueIdsHintsAndLinks) {
  ASSERT_GE(questions_->size(), 6u);
  for (size_t i = 0; i < questions_->size(); ++i) {
    const app::Question& a = (*questions_)[i];
    EXPECT_FALSE(a.prompt.empty()) << a.id;
    EXPECT_FALSE(a.hint.empty()) << a.id;
    EXPECT_FALSE(a.why.empty()) << a.id;
    if (a.kind == app::AnswerKind::Choice) {
      EXPECT_EQ(a.choice_notes.size(), a.choices.size()) << a.id;
      EXPECT_GE(a.answer, 0) << a.id;
      EXPECT_LT(a.answer, static_cast<long long>(a.choices.size())) << a.id;
    }
    // every link opens a real scene without notes about ignored parameters
    std::vector<std::string> notes;
    const app::Settings s = app::parse_query(a.link_query, notes);
    EXPECT_TRUE(notes.empty()) << a.id << ": " << a.link_query;
    EXPECT_EQ(a.link_query.rfind("scene=" + s.scene, 0), 0u) << a.id;
    for (size_t j = 0; j < i; ++j) EXPECT_NE(a.id, (*questions_)[j].id);
  }
}

TEST_F(Exercises, FastHandReturnsAt44) {
  // independent: the fast hand turns 1 rad per token; the closest (sin, cos) to (0, 1) over 1..49
  int best = 1;
  double best_d = 1e9;
  for (int p = 1; p <= 49; ++p) {
    const double d = std::hypot(std::sin(p), std::cos(p) - 1.0);
    if (d < best_d) best = p, best_d = d;
  }
  EXPECT_EQ(q("clock44").answer, best);
  EXPECT_EQ(q("clock44").answer, 44);
  EXPECT_NE(q("clock44").link_query.find("pos=44"), std::string::npos);
}

TEST_F(Exercises, FirstExerciseAskedInFullWithItsNearMisses) {
  // independent float64: fast-hand distance 2|sin(p/2)| from position 0, ranked over 1..49
  std::vector<std::pair<double, int>> ranked;
  for (int p = 1; p <= 49; ++p) ranked.emplace_back(std::hypot(std::sin(p), std::cos(p) - 1.0), p);
  std::sort(ranked.begin(), ranked.end());
  const app::ClockExercise ex = app::clock_exercise(attn::PositionClock(4));
  EXPECT_EQ(ex.answer, ranked[0].second);
  ASSERT_EQ(ex.near_misses.size(), 2u);
  EXPECT_EQ(ex.near_misses[0], ranked[1].second);
  EXPECT_EQ(ex.near_misses[1], ranked[2].second);
  // the lesson names 19 and 25 as the near misses
  EXPECT_EQ(std::set<int>(ex.near_misses.begin(), ex.near_misses.end()), (std::set<int>{19, 25}));
  // the question asks about the slow hand too, and the answer explains both near misses with their distances
  EXPECT_NE(ex.prompt.find("slow hand"), std::string::npos) << ex.prompt;
  EXPECT_NE(ex.why.find("slow hand"), std::string::npos) << ex.why;
  char buf[32];
  for (int p : ex.near_misses) {
    std::snprintf(buf, sizeof buf, "%d (%.3f turns", p, p / (2.0 * M_PI));
    EXPECT_NE(ex.why.find(buf), std::string::npos) << buf << " not in: " << ex.why;
    std::snprintf(buf, sizeof buf, "%.3f away", std::hypot(std::sin(p), std::cos(p) - 1.0));
    EXPECT_NE(ex.why.find(buf), std::string::npos) << buf << " not in: " << ex.why;
  }
  // the slow hand at 44 (0.44 rad from position 0's) is far: chord 2 sin(0.22)
  std::snprintf(buf, sizeof buf, "%.3f away", 2.0 * std::sin(0.22));
  EXPECT_NE(ex.why.find(buf), std::string::npos) << buf << " not in: " << ex.why;
  EXPECT_EQ(q("clock44").why, ex.why);
}

TEST(ClockExercise, SlowHandSentenceFollowsItsDistanceOnAnyClock) {
  for (int d : {4, 8, 16, 64}) {
    const attn::PositionClock clock(d);
    const app::ClockExercise ex = app::clock_exercise(clock);
    // independent float64: the slowest hand turns 10000^(-2h/d) rad per token, h = d/2 - 1
    const int h = d / 2 - 1;
    const double angle = ex.answer * std::pow(10000.0, -2.0 * h / d);
    const double slow = std::hypot(std::sin(angle), std::cos(angle) - 1.0);
    const bool close = slow < attn::kNearlyRepeats;
    EXPECT_EQ(ex.why.find("is not close") != std::string::npos, !close) << "d_model " << d << ": " << ex.why;
    EXPECT_EQ(ex.why.find("is close too") != std::string::npos, close) << "d_model " << d << ": " << ex.why;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f away", slow);
    EXPECT_NE(ex.why.find(buf), std::string::npos) << buf << " not in: " << ex.why;
  }
}

TEST_F(Exercises, HeadWidthAndParameterCount) {
  EXPECT_EQ(q("head_dim").answer, 768 / 12);
  EXPECT_EQ(q("parameters").answer, 4LL * 512 * 512);
  EXPECT_EQ(q("parameters").answer, 1048576);
}

TEST_F(Exercises, InvalidHeadCountIsSix) {
  const app::Question& x = q("invalid_heads");
  ASSERT_EQ(x.kind, app::AnswerKind::Choice);
  EXPECT_EQ(x.choices[static_cast<size_t>(x.answer)], "6 heads");
  EXPECT_NE(512 % 6, 0);
}

TEST_F(Exercises, YesNoAndChoiceTruthsFromTheCore) {
  EXPECT_EQ(q("shuffle_positions").answer, 1);  // allclose becomes false with positions after shuffling
  EXPECT_EQ(q("refund_pair").answer, 0);        // same label and confidence without positions
  const app::Question& learned = q("learned_limit");
  EXPECT_NE(learned.choices[static_cast<size_t>(learned.answer)].find("error at position 128"),
            std::string::npos);
  EXPECT_NE(learned.why.find("128"), std::string::npos);
  EXPECT_EQ(q("rope_gap").answer, 10 - 7 + 2);
}

TEST_F(Exercises, CheckAnswerRightAndWrong) {
  const app::Question& dk = q("head_dim");
  EXPECT_TRUE(app::check_answer(dk, 64).correct);
  const app::Feedback wrong = app::check_answer(dk, 768);
  EXPECT_FALSE(wrong.correct);
  EXPECT_NE(wrong.text.find("slice"), std::string::npos);
  const app::Question& heads = q("invalid_heads");
  EXPECT_TRUE(app::check_answer(heads, heads.answer).correct);
  EXPECT_FALSE(app::check_answer(heads, (heads.answer + 1) % 4).correct);
  EXPECT_FALSE(app::check_answer(heads, -1).correct);  // nothing picked
  EXPECT_EQ(app::answer_text(q("parameters")), "1,048,576");
}

TEST(ExerciseParsing, NumbersWithSeparators) {
  long long v = 0;
  EXPECT_TRUE(app::parse_number_answer(" 64 ", v));
  EXPECT_EQ(v, 64);
  EXPECT_TRUE(app::parse_number_answer("1,048,576", v));
  EXPECT_EQ(v, 1048576);
  EXPECT_TRUE(app::parse_number_answer("1 048_576", v));
  EXPECT_EQ(v, 1048576);
  EXPECT_TRUE(app::parse_number_answer("-3", v));
  EXPECT_EQ(v, -3);
  for (const char* bad : {"", "  ", "abc", "6.4", "--3", "3-", ",64", "12345678901234567"}) {
    EXPECT_FALSE(app::parse_number_answer(bad, v)) << bad;
  }
}

}  // namespace
