// Clock scene: one dial per hand of the sinusoidal clock, the readings, two positions compared, the exercise.
#include "core/clock.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/logic/clock_text.hpp"
#include "app/logic/exercises.hpp"
#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app {
namespace {

// What the scene computes from d_model, base, pos and pos2.
struct ClockData {
  int d_model = 0, pos = 0, pos2 = 0;
  std::optional<attn::PositionClock> clock;
  attn::Mat readings;                      // (2, D): rows pos and pos2
  std::vector<attn::HandReading> compare;  // (hands,)
  ClockExercise exercise;                  // the lesson's exercise on this clock, computed by the core
  double rotation_check =
      0.0;               // largest |R(k speed) reading(start) - reading(start + k)| over hands, 2 starts
  int second_start = 0;  // the second start of that check
  std::string intro;     // clock_intro(): what this clock's hands do
};
using ClockMemo = Memo<ClockData, int, double, int, int>;

struct ExerciseState {
  bool checked = false, hint = false, revealed = false;
};

ClockData compute(const Settings& s) {
  ClockData c;
  c.d_model = s.d_model, c.pos = s.pos, c.pos2 = s.pos2;
  c.clock.emplace(s.d_model, s.base);
  c.readings = c.clock->table({s.pos, s.pos2});
  c.compare = attn::compare_positions(*c.clock, s.pos, s.pos2);
  c.exercise = clock_exercise(*c.clock);
  // The fixed rotation: turning each hand of a reading by k x its speed (k = pos2 - pos) gives the reading
  // k tokens later, from pos and from a second start (0, or -k when stepping back).
  const int k = s.pos2 - s.pos;
  const int from2 = k >= 0 ? 0 : -k;
  c.rotation_check =
      std::max(attn::rotation_error(*c.clock, s.pos, k), attn::rotation_error(*c.clock, from2, k));
  c.second_start = from2;
  c.intro = clock_intro(*c.clock);
  return c;
}

// One dial: the hand at pos (bright) and at pos2 (orange), pointing at 12 o'clock for angle 0.
void draw_dial(const attn::HandReading& h, float size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float r = size * 0.42f;
  const ImVec2 c(p.x + size * 0.5f, p.y + size * 0.5f);
  dl->AddCircleFilled(c, r, ink_u32(Ink::Face), 48);
  dl->AddCircle(c, r, ink_u32(Ink::FaceEdge), 48, 1.5f);
  for (int tick = 0; tick < 12; ++tick) {
    const float a = static_cast<float>(tick) * 3.14159265f / 6.0f;
    dl->AddLine(ImVec2(c.x + std::sin(a) * r * 0.85f, c.y - std::cos(a) * r * 0.85f),
                ImVec2(c.x + std::sin(a) * r, c.y - std::cos(a) * r), ink_u32(Ink::FaceEdge));
  }
  auto hand = [&](double angle, ImU32 col, float thick) {
    const float a = static_cast<float>(angle);
    dl->AddLine(c, ImVec2(c.x + std::sin(a) * r * 0.9f, c.y - std::cos(a) * r * 0.9f), col, thick);
  };
  hand(h.angle_b, ink_u32(Ink::Orange), 2.0f);
  hand(h.angle_a, ink_u32(Ink::Blue), 3.0f);
  dl->AddCircleFilled(c, 3.0f, ink_u32(Ink::Dot));
  ImGui::Dummy(ImVec2(size, size));
}

void draw_controls(Settings& s) {
  ImGui::SetNextItemWidth(220);
  slider_int("d_model", &s.d_model, 2, 1024, "%d",
             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  const int hands = (s.d_model + 1) / 2;
  help_marker(
      format("Width of the position vector: each hand is a sine and cosine pair, so d_model %d makes %d "
             "hands%s.",
             s.d_model, hands, s.d_model % 2 ? ", the last a lone sine" : "")
          .c_str());
  ImGui::SetNextItemWidth(220);
  input_number("base", &s.base, 2.0, 1e9, 10.0, "%.0f");
  help_marker("Hand i turns base^(-2i / d_model) radians per token. The original transformer used 10000.");
  ImGui::SetNextItemWidth(220);
  slider_int("position", &s.pos, 0, 2047, "%d", ImGuiSliderFlags_AlwaysClamp);
  mark_item("clock/position");
  ImGui::SetNextItemWidth(220);
  slider_int("compare with", &s.pos2, 0, 2047, "%d", ImGuiSliderFlags_AlwaysClamp);
  help_marker("Orange hands show this second position. Try 0 and 44 at d_model 4.");
}

void draw_dials(const ClockData& c) {
  const float size = 96.0f, label_h = ImGui::GetTextLineHeightWithSpacing() * 2.0f;
  const int per_row = std::max(1, static_cast<int>(ImGui::GetContentRegionAvail().x / (size + 70.0f)));
  const int n = static_cast<int>(c.compare.size());
  const int rows = (n + per_row - 1) / per_row;
  const float height = std::min(static_cast<float>(rows), 2.3f) * (size + label_h + 8.0f);
  ImGui::BeginChild("dials", ImVec2(0, height), false, ImGuiWindowFlags_NavFlattened);
  chain_wheel_at_end();
  mark_window("clock/dials");
  ImGuiListClipper clip;
  clip.Begin(rows, size + label_h + 8.0f);
  while (clip.Step()) {
    for (int row = clip.DisplayStart; row < clip.DisplayEnd; ++row) {
      for (int k = 0; k < per_row && row * per_row + k < n; ++k) {
        const attn::HandReading& h = c.compare[static_cast<size_t>(row * per_row + k)];
        if (k) ImGui::SameLine();
        ImGui::BeginGroup();
        draw_dial(h, size);
        ImGui::Text("hand %d: %.4g rad/token", h.hand, h.speed);
        ImGui::Text("one turn every %.4g tokens", h.wavelength);
        ImGui::EndGroup();
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(
              "hand %d (dimensions %d, %d)\nangle at position %d: %.3f rad\nangle at position %d: %.3f rad",
              h.hand, 2 * h.hand, 2 * h.hand + 1, c.pos, h.angle_a, c.pos2, h.angle_b);
        }
      }
    }
  }
  ImGui::EndChild();
}

void draw_readings(const ClockData& c) {
  const int d = c.d_model;
  // Up to 10 dimensions the table shows them all (no empty row); more scroll under the header.
  const std::string at_a = "position " + std::to_string(c.pos), at_b = "position " + std::to_string(c.pos2);
  if (!begin_table("readings", {{"dimension"}, {"hand"}, {"wave"}, {at_a.c_str()}, {at_b.c_str()}},
                   d > 10 ? 10 : 0)) {
    return;
  }
  ImGuiListClipper clip;
  clip.Begin(d, table_row_height());
  while (clip.Step()) {
    for (int dim = clip.DisplayStart; dim < clip.DisplayEnd; ++dim) {
      table_row(dim);
      table_cell();
      ImGui::Text("%d", dim);
      table_cell();
      ImGui::Text("%d", dim / 2);
      table_cell();
      ImGui::TextUnformatted(dim % 2 == 0 ? "sin" : "cos");
      table_cell();
      ImGui::Text("%.3f", static_cast<double>(c.readings(0, dim)));
      table_cell();
      ImGui::Text("%.3f", static_cast<double>(c.readings(1, dim)));
    }
  }
  end_table();
}

void draw_compare(const ClockData& c) {
  paragraph(compare_sentence(c.compare, c.pos, c.pos2));
  const int n = std::min<int>(static_cast<int>(c.compare.size()), 8);
  if (!begin_table("compare", {{"hand"}, {"phase difference (rad)"}, {"reading distance"}, {"verdict"}}))
    return;
  for (int i = 0; i < n; ++i) {
    const attn::HandReading& h = c.compare[static_cast<size_t>(i)];
    table_row();
    table_cell();
    ImGui::Text("%d", h.hand);
    table_cell();
    ImGui::Text("%+.3f", h.phase_diff);
    table_cell();
    ImGui::Text("%.3f", h.distance);
    table_cell();
    ImGui::TextUnformatted(verdict_label(h.verdict));
  }
  end_table();
  if (static_cast<int>(c.compare.size()) > n)
    ImGui::TextDisabled("(first %d of %zu hands)", n, c.compare.size());
}

void draw_exercise(SceneContext& ctx, const ClockData& c, ExerciseState& ex) {
  Settings& s = ctx.settings;
  const ClockExercise& e = c.exercise;
  paragraph(e.prompt);
  ImGui::SetNextItemWidth(120);
  if (input_int("your answer", &s.answer, 0, 100000)) ex.checked = false;
  // Check, Hint and Reveal beside the answer, or under it on a narrow screen
  same_line_if_fits(buttons_width({"Check", "Hint", "Reveal"}));
  if (ImGui::Button("Check")) {
    ex.checked = true;
    ctx.answered({"clock", std::to_string(s.answer), s.answer == e.answer});
  }
  ImGui::SameLine();
  if (ImGui::Button("Hint")) ex.hint = !ex.hint;
  ImGui::SameLine();
  if (ImGui::Button("Reveal")) ex.revealed = !ex.revealed;
  if (ex.checked) {
    if (s.answer == e.answer) {
      text_wrapped_colored(ink(Ink::Right), "Right: position %d. Set 'compare with' to it and %s", e.answer,
                           c.compare.size() > 1 ? "look at the slow hand: is it close too?"
                                                : "see that this clock's only hand reads the two alike.");
    } else {
      text_wrapped_colored(ink(Ink::Wrong), "Not quite: position %d is not the closest. Try again.",
                           s.answer);
    }
  }
  if (ex.hint) text_wrapped("Hint: %s", e.hint.c_str());
  if (ex.revealed) text_wrapped("Answer: %s", e.why.c_str());
}

// Next to the dials: what a radian is, and that a step of k tokens turns every hand by a fixed angle.
void draw_rotation(const ClockData& c) {
  paragraph(rotation_sentence(*c.clock, c.compare.front(), c.pos, c.pos2, c.second_start, c.rotation_check));
}

// state().shown: the settings, both readings, every hand compared, the rotation check and the exercise.
void report(SceneContext& ctx, const Settings& s, std::shared_ptr<const ClockData> data,
            const ExerciseState& ex) {
  ctx.report([d_model = s.d_model, base = s.base, pos = s.pos, pos2 = s.pos2, answer = s.answer, ex,
              data](nlohmann::json& shown) {
    // Key by key: nlohmann's nested initializer lists cost the page several times the code.
    nlohmann::json hands = nlohmann::json::array();
    for (const attn::HandReading& h : data->compare) {
      nlohmann::json& j = hands.emplace_back();
      j["hand"] = h.hand;
      j["speed"] = h.speed;
      j["wavelength"] = h.wavelength;
      j["angle"] = h.angle_a;
      j["angle2"] = h.angle_b;
      j["phase_diff"] = h.phase_diff;
      j["distance"] = h.distance;
      j["paired"] = h.paired;
      j["turns"] = h.turns;
      j["verdict"] = verdict_label(h.verdict);
    }
    auto row = [&](int r) { return row_values(data->readings, r); };
    shown["d_model"] = d_model;
    shown["base"] = base;
    shown["pos"] = pos;
    shown["pos2"] = pos2;
    shown["readings"] = row(0);
    shown["readings2"] = row(1);
    shown["hands"] = std::move(hands);
    shown["rotation_check"] = data->rotation_check;
    nlohmann::json& e = shown["exercise"];
    e["answer"] = answer;
    e["checked"] = ex.checked;
    e["correct"] = ex.checked && answer == data->exercise.answer;
    e["hint"] = ex.hint;
    e["revealed"] = ex.revealed;
    if (ex.revealed) shown["exercise"]["solution"] = data->exercise.answer;
  });
}

// What the clock scene keeps between frames: its numbers and the exercise.
struct ClockState : SceneState {
  ClockMemo memo;
  ExerciseState ex;
};

}  // namespace

void draw_clock_scene(SceneContext& ctx) {
  ClockState& st = ctx.state<ClockState>();
  ClockMemo& memo = st.memo;
  ExerciseState& ex = st.ex;
  Settings& s = ctx.settings;
  // The intro above the settings speaks of this frame's clock; a change made below recomputes before use.
  memo.get({s.d_model, s.base, s.pos, s.pos2}, [&] { return compute(s); });
  if (memo.ok()) paragraph(memo.value().intro);
  if (ctx.settings_open()) draw_controls(s);
  memo.get({s.d_model, s.base, s.pos, s.pos2}, [&] { return compute(s); });
  if (!ctx.ready(memo)) return;
  const ClockData& data = memo.value();
  if (section("Hands", "dials", s.hide)) {
    ImGui::TextColored(ink(Ink::Blue), "blue: position %d", s.pos);
    ImGui::SameLine(0, 20);
    ImGui::TextColored(ink(Ink::Orange), "orange: position %d", s.pos2);
    draw_dials(data);
    draw_rotation(data);
  }
  if (section("Readings", "readings", s.hide)) draw_readings(data);
  if (section("Two positions, hand by hand", "compare", s.hide)) draw_compare(data);
  if (section("Exercise", "exercise", s.hide)) draw_exercise(ctx, data, ex);
  report(ctx, s, memo.shared(), ex);
}

}  // namespace app
