// Lesson mode's settings: theme, font_scale, lock, caption and steps read and written like every URL
// setting, and steps JSON checked step by step with messages that say what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/logic/lesson.hpp"
#include "app/logic/settings.hpp"

namespace {

app::Settings parse(const std::string& query, std::vector<std::string>& notes) {
  notes.clear();
  return app::parse_query(query, notes);
}

TEST(LessonSettings, PageAndLessonSettingsRoundTripAndStayOutOfPlainLinks) {
  std::vector<std::string> notes;
  const app::Settings plain = parse("?scene=clock&pos=44", notes);
  EXPECT_TRUE(notes.empty());
  const std::string q = app::to_query(plain);
  for (const char* name : {"theme=", "font_scale=", "lock=", "caption=", "steps=", "step="})
    EXPECT_EQ(q.find(name), std::string::npos) << name << " in a plain link: " << q;

  const app::Settings s = parse(
      "?scene=clock&pos=44&theme=light&font_scale=1.5&lock=pos,d_model&caption=Watch%20the%20fast%20hand"
      "&steps=lesson.json&step=3",
      notes);
  EXPECT_TRUE(notes.empty()) << notes.front();
  EXPECT_EQ(s.theme, app::Theme::Light);
  EXPECT_DOUBLE_EQ(s.font_scale, 1.5);
  EXPECT_EQ(s.lock, "pos,d_model");
  EXPECT_EQ(s.caption, "Watch the fast hand");
  EXPECT_EQ(s.steps, "lesson.json");
  EXPECT_EQ(s.step, 3);
  EXPECT_TRUE(app::locked(s, "pos"));
  EXPECT_FALSE(app::locked(s, "pos2"));
  EXPECT_EQ(app::setting_address(s, "pos"), &s.pos);
  EXPECT_EQ(app::setting_address(s, "base"), &s.base);
  const app::Settings again = parse("?" + app::to_query(s), notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_TRUE(again == s) << app::to_query(s);
  // a new scene keeps the page's look and the lesson
  const app::Settings moved = app::switch_scene(s, "mha");
  EXPECT_EQ(moved.theme, app::Theme::Light);
  EXPECT_EQ(moved.lock, s.lock);
  EXPECT_EQ(moved.caption, s.caption);
  EXPECT_EQ(moved.steps, s.steps);
}

TEST(LessonSettings, BadValuesAreIgnoredWithNotesThatSayWhy) {
  std::vector<std::string> notes;
  const app::Settings s = parse(
      "?scene=clock&theme=purple&font_scale=9&lock=pos,bogus&hide=controls,nonsense&caption=a%0Ab", notes);
  ASSERT_EQ(notes.size(), 5u);
  EXPECT_NE(notes[0].find("theme=purple"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("font_scale=9"), std::string::npos) << notes[1];
  EXPECT_NE(notes[2].find("lock=pos,bogus"), std::string::npos) << notes[2];
  EXPECT_NE(notes[3].find("hide=controls,nonsense"), std::string::npos) << notes[3];
  EXPECT_NE(notes[4].find("caption="), std::string::npos) << notes[4];
  EXPECT_EQ(s.theme, app::Theme::Dark);
  EXPECT_TRUE(s.lock.empty());
  EXPECT_TRUE(s.hide.empty());
  EXPECT_TRUE(s.caption.empty());
  // a caption of hostile text is only text: kept as it is
  const app::Settings h = parse("?caption=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(h.caption, "<img src=x onerror=alert(1)>");
  const app::Settings long_caption = parse("?caption=" + std::string(app::kMaxCaptionBytes + 1, 'a'), notes);
  EXPECT_EQ(notes.size(), 1u);
  EXPECT_TRUE(long_caption.caption.empty());
}

TEST(LessonSettings, StepsJsonIsReadAndApplied) {
  const std::string json = R"([{"caption": "Start at 44", "settings": {"scene": "clock", "pos": 44}},
                               {"caption": "Now the order", "settings": {"scene": "order", "heads": 2, "causal": true}},
                               {"settings": {"pos": 45}}])";
  std::vector<app::LessonStep> steps;
  ASSERT_EQ(app::parse_steps(json, steps), "");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].caption, "Start at 44");
  EXPECT_EQ(steps[1].settings.size(), 3u);
  EXPECT_EQ(steps[2].caption, "");

  app::Settings s = app::defaults_for("start");
  s.lock = "pos";
  s.steps = json;
  app::apply_step(s, steps[0]);
  EXPECT_EQ(s.scene, "clock");
  EXPECT_EQ(s.pos, 44);
  EXPECT_EQ(s.lock, "pos");  // the lesson's settings stay
  EXPECT_EQ(s.steps, json);
  app::apply_step(s, steps[1]);
  EXPECT_EQ(s.scene, "order");
  EXPECT_EQ(s.heads, 2);
  EXPECT_TRUE(s.causal);
  // {"steps": [...]} is read too; an inline list is a valid steps= value
  EXPECT_EQ(app::parse_steps(R"({"steps": [{"caption": "one"}]})", steps), "");
  std::vector<std::string> notes;
  app::Settings inline_steps;
  EXPECT_TRUE(app::apply_param(inline_steps, "steps", json, notes.emplace_back()));
}

TEST(LessonSettings, BadStepsSayWhichStepAndWhat) {
  std::vector<app::LessonStep> steps;
  const struct {
    const char* json;
    const char* says;
  } cases[] = {
      {"[{\"caption\": \"a\"", "not valid JSON"},
      {"[]", "non-empty list"},
      {"{\"caption\": \"a\"}", "non-empty list"},
      {"[{\"caption\": \"a\"}, {\"settings\": {\"pos\": \"far\"}}]", "step 2: ignored pos=far"},
      {"[{\"settings\": {\"colour\": 1}}]", "step 1: ignored unknown setting 'colour'"},
      {"[{\"settings\": {\"scene\": \"nowhere\"}}]", "step 1: ignored scene=nowhere"},
      {"[{\"settings\": {\"steps\": \"x.json\"}}]", "step 1: ignored steps=x.json"},
      {"[{\"title\": \"a\"}]", "step 1: unknown field 'title'"},
      {"[{\"caption\": 5}]", "step 1: the caption must be one line"},
      {"[{\"settings\": {\"pos\": [1]}}]", "step 1: the value of pos must be"},
      {"[1]", "step 1: each step is an object"},
  };
  for (const auto& c : cases) {
    const std::string error = app::parse_steps(c.json, steps);
    EXPECT_NE(error.find(c.says), std::string::npos) << c.json << " -> " << error;
    EXPECT_TRUE(steps.empty()) << c.json;
  }
  std::string deep(200, '[');
  EXPECT_NE(app::parse_steps(deep, steps), "");
  std::string many = "[";
  for (std::size_t i = 0; i <= app::kMaxSteps; ++i) many += std::string(i ? "," : "") + "{}";
  EXPECT_NE(app::parse_steps(many + "]", steps).find("at most"), std::string::npos);
  // as a URL value: ignored, and the note says what is wrong
  std::vector<std::string> notes;
  const app::Settings s =
      app::parse_query("?steps=%5B%7B%22settings%22%3A%7B%22pos%22%3A%22far%22%7D%7D%5D", notes);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("step 1: ignored pos=far"), std::string::npos) << notes[0];
  EXPECT_TRUE(s.steps.empty());
}

}  // namespace
