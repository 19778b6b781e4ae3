// Tests of the URL state: parsing, notes for bad parameters, round trips, and the README's parameter table.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/logic/settings.hpp"

namespace {

using app::parse_query;
using app::Settings;

TEST(UrlState, ReadsSceneAndSettings) {
  std::vector<std::string> notes;
  const Settings s = parse_query("?scene=clock&d_model=4&pos=44", notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(s.scene, "clock");
  EXPECT_EQ(s.d_model, 4);
  EXPECT_EQ(s.pos, 44);
}

TEST(UrlState, SceneDefaultsApplyBeforeSettings) {
  std::vector<std::string> notes;
  // d_model comes before scene in the URL, and still wins over the scene's default
  const Settings s = parse_query("d_model=12&scene=positions", notes);
  EXPECT_EQ(s.scene, "positions");
  EXPECT_EQ(s.d_model, 12);
  EXPECT_EQ(s.count, app::defaults_for("positions").count);
}

TEST(UrlState, BadParametersAreIgnoredWithNotes) {
  std::vector<std::string> notes;
  const Settings s =
      parse_query("?scene=clock&d_model=abc&pos=-3&base=1&frobnicate=2&positions=clock&causal=maybe", notes);
  const Settings d = app::defaults_for("clock");
  EXPECT_EQ(s.d_model, d.d_model);
  EXPECT_EQ(s.pos, d.pos);
  EXPECT_EQ(s.base, d.base);
  ASSERT_EQ(notes.size(), 6u);
  EXPECT_NE(notes[0].find("d_model=abc"), std::string::npos);
  EXPECT_NE(notes[0].find("2 to 1024"), std::string::npos);
  EXPECT_NE(notes[3].find("frobnicate"), std::string::npos);
}

TEST(UrlState, UnknownSceneFallsBackWithNote) {
  std::vector<std::string> notes;
  const Settings s = parse_query("scene=nowhere&pos=5", notes);
  EXPECT_EQ(s.scene, "start");
  EXPECT_EQ(s.pos, 5);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("nowhere"), std::string::npos);
}

TEST(UrlState, NoSceneOpensStartHereAndTheStartQueryIsShort) {
  std::vector<std::string> notes;
  const Settings s = parse_query("", notes);
  EXPECT_EQ(s.scene, "start");
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(app::to_query(s), "scene=start");
  EXPECT_EQ(app::scene_table().front().id, std::string("start"));
}

TEST(UrlState, SwitchingScenesKeepsThePageWideChoicesOnly) {
  std::vector<std::string> notes;
  const Settings from = parse_query("scene=clock&pos=44&colormap=cividis&hide=notes&embed=1", notes);
  const Settings to = app::switch_scene(from, "mha");
  EXPECT_EQ(to.scene, "mha");
  EXPECT_EQ(to.colormap, app::Palette::Cividis);
  EXPECT_EQ(to.hide, "notes");
  EXPECT_TRUE(to.embed);
  EXPECT_EQ(to.pos, app::defaults_for("mha").pos) << "the clock's position is not carried over";
  EXPECT_EQ(to.d_model, app::defaults_for("mha").d_model);
}

TEST(UrlState, EverySceneHasATitleAndOneInstruction) {
  for (const app::SceneInfo& sc : app::scene_table()) {
    EXPECT_GT(std::string(sc.title).size(), 3u) << sc.id;
    const std::string say = sc.instruction;
    EXPECT_GT(say.size(), 20u) << sc.id;
    EXPECT_EQ(say.back(), '.') << sc.id << ": one sentence, ended";
  }
}

TEST(UrlState, TheTrainActionIsReadButNeverWritten) {
  std::vector<std::string> notes;
  const Settings s = parse_query("scene=train&train=run&max_steps=500", notes);
  EXPECT_EQ(s.train, app::Training::Run) << "a link may start training";
  const std::string q = app::to_query(s);
  EXPECT_EQ(q.find("train="), std::string::npos) << q;
  EXPECT_NE(q.find("max_steps=500"), std::string::npos) << q;
  EXPECT_EQ(parse_query(q, notes).train, app::Training::Pause) << "the written URL opens the scene paused";
}

TEST(UrlState, HeadsOffAndTheirAblationRoundTripAndAreWrittenOnlyWhenSet) {
  std::vector<std::string> notes;
  Settings s = parse_query("scene=train&off=1.2,0.3&ablate=mean", notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(s.off, "1.2,0.3");
  EXPECT_EQ(s.ablate, app::Ablation::Mean);
  const std::string q = app::to_query(s);
  EXPECT_NE(q.find("off=1.2,0.3"), std::string::npos) << q;
  EXPECT_NE(q.find("ablate=mean"), std::string::npos) << q;
  EXPECT_EQ(parse_query(q, notes), s);
  // the defaults (every head on, zeros) stay out of the address
  const std::string plain = app::to_query(app::defaults_for("train"));
  EXPECT_EQ(plain.find("off="), std::string::npos) << plain;
  EXPECT_EQ(plain.find("ablate="), std::string::npos) << plain;
  // a list the model may not have is kept (the Train scene says what is wrong with it in place); a value
  // that is no ablation, or an off= with control characters or past 400 bytes, is ignored with a note
  std::string note;
  EXPECT_TRUE(app::apply_param(s, "off", "9.9,x", note));
  EXPECT_EQ(s.off, "9.9,x");
  EXPECT_FALSE(app::apply_param(s, "ablate", "half", note));
  EXPECT_NE(note.find("zero|mean"), std::string::npos) << note;
  EXPECT_FALSE(app::apply_param(s, "off", "0.1\n", note));
  EXPECT_FALSE(app::apply_param(s, "off", std::string(401, '1'), note));
  EXPECT_EQ(s.off, "9.9,x");
  EXPECT_EQ(s.ablate, app::Ablation::Mean);
}

TEST(UrlState, ModelIsRandomTrainedOrAModelFilePath) {
  for (const char* ok : {"models/router.json", "/a/b.JSON", "router.json", "https://example.org/m.json",
                         "http://localhost:8000/x/y.json"}) {
    EXPECT_TRUE(app::is_model_path(ok)) << ok;
  }
  for (const char* bad : {"json", ".json", "router.txt", "javascript:alert(1)//.json", "data:x.json",
                          "file:///etc/x.json", "a\\b.json", "a\nb.json", "<b>.json"}) {
    EXPECT_FALSE(app::is_model_path(bad)) << bad;
  }
  std::vector<std::string> notes;
  Settings s = parse_query("scene=mha&model=models/router.json", notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(s.model, app::ModelChoice::File);
  EXPECT_EQ(s.model_file, "models/router.json");
  EXPECT_TRUE(app::uses_trained_model(s));
  EXPECT_NE(app::to_query(s).find("model=models%2Frouter.json"), std::string::npos) << app::to_query(s);
  s = parse_query("scene=mha&model=ftp://x/y.json", notes);
  EXPECT_EQ(s.model, app::ModelChoice::Random);
  EXPECT_FALSE(app::uses_trained_model(s));
}

TEST(UrlState, OutOfRangeNumbersAreRejected) {
  Settings s;
  std::string note;
  EXPECT_FALSE(app::apply_param(s, "d_model", "1025", note));
  EXPECT_FALSE(app::apply_param(s, "d_model", "99999999999999999999", note));
  EXPECT_FALSE(app::apply_param(s, "base", "nan", note));
  EXPECT_FALSE(app::apply_param(s, "base", "inf", note));
  EXPECT_FALSE(app::apply_param(s, "count", "2049", note));
  EXPECT_FALSE(app::apply_param(s, "emb", "1,,2", note));
  EXPECT_FALSE(app::apply_param(s, "hide", "controls,everything", note));
  EXPECT_TRUE(app::apply_param(s, "hide", "controls,notes", note));
  EXPECT_TRUE(app::hidden(s, "notes"));
  EXPECT_FALSE(app::hidden(s, "readings"));
}

TEST(UrlState, LongTextsAreCutNotIgnored) {
  Settings s = app::defaults_for("mha");
  std::string note;
  // 60,000 three-byte characters: 180,000 bytes, cut at a character boundary with a note
  std::string text;
  for (int i = 0; i < 60000; ++i) text += "\u20b9";
  EXPECT_TRUE(app::apply_param(s, "text", text, note));
  EXPECT_EQ(s.text.size(), app::kMaxTextBytes - app::kMaxTextBytes % 3);
  EXPECT_EQ(s.text, text.substr(0, s.text.size()));
  EXPECT_NE(note.find("cut to its first 100000 bytes"), std::string::npos) << note;
  EXPECT_TRUE(app::apply_param(s, "text", "short", note));
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_EQ(app::utf8_prefix("ab\u20b9", 3), "ab");  // never inside a character
  EXPECT_EQ(app::utf8_prefix("ab\u20b9", 5), "ab\u20b9");
}

TEST(UrlState, NotesEchoShortOneLineValues) {
  Settings s;
  std::string note;
  EXPECT_FALSE(app::apply_param(s, "d_model", std::string(100000, '7') + "\nforged", note));
  EXPECT_EQ(note.find('\n'), std::string::npos) << note;
  EXPECT_LT(note.size(), 200u) << note;
  std::vector<std::string> notes;
  app::parse_query("?scene=clock&" + std::string(5000, 'x') + "=1&pos=%0Aevil", notes);
  ASSERT_EQ(notes.size(), 2u);
  for (const std::string& n : notes) {
    EXPECT_EQ(n.find('\n'), std::string::npos) << n;
    EXPECT_LT(n.size(), 200u) << n;
  }
}

TEST(UrlState, RoundTripsEveryScene) {
  for (const app::SceneInfo& scene : app::scene_table()) {
    Settings s = app::defaults_for(scene.id);
    s.text = "Refund the cake, not the delivery fee: ₹850 & “thanks”";
    s.pos = 17;
    s.embed = true;
    std::vector<std::string> notes;
    const Settings back = parse_query(app::to_query(s), notes);
    EXPECT_TRUE(notes.empty()) << scene.id;
    for (const app::ParamInfo& p : app::param_table()) {
      if (std::string(p.scenes) == "*" || std::string(p.scenes).find(scene.id) != std::string::npos) {
        EXPECT_EQ(app::param_value(back, p.name), app::param_value(s, p.name)) << scene.id << " " << p.name;
      }
    }
  }
}

TEST(UrlState, PercentDecoding) {
  std::vector<std::string> notes;
  Settings s = parse_query("scene=clock&text=Refund+the+cake%2C%20not%20%E2%82%B9850&embed=1", notes);
  EXPECT_EQ(s.text, "Refund the cake, not ₹850");
  EXPECT_TRUE(s.embed);
}

TEST(UrlState, ReadmeDocumentsTheSameTable) {
  std::ifstream in(ATTN_SOURCE_DIR "/README.md");
  ASSERT_TRUE(in) << "README.md not found";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  const std::string begin = "<!-- url-table:begin -->\n", end = "<!-- url-table:end -->";
  const size_t a = readme.find(begin), b = readme.find(end);
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  EXPECT_EQ(readme.substr(a + begin.size(), b - a - begin.size()),
            "\n" + app::url_reference_markdown() + "\n")
      << "README's URL table is out of date; paste this between the markers:\n\n"
      << app::url_reference_markdown();
}

}  // namespace
