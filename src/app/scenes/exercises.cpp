// Exercises scene: the lesson's questions and more, each checked, hinted and revealed with a link to its
// scene.
#include "app/logic/exercises.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/platform_io.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app {
namespace {

// The learner's side of one question; kept for the session in the scene's static state, not in the URL.
struct AnswerState {
  std::string number;  // what was typed (number questions)
  int choice = -1;     // the picked option (choice questions), -1: none
  bool answered = false, hint = false, revealed = false;
  Feedback feedback;  // from the last Check; cleared when the answer changes
};

struct ExercisesData {
  bool built = false;
  std::vector<Question> questions;
  std::vector<AnswerState> answers;
  std::string error;
};

const ImVec4 kRight(0.45f, 0.9f, 0.45f, 1.0f), kWrong(1.0f, 0.62f, 0.3f, 1.0f),
    kLink(0.45f, 0.72f, 1.0f, 1.0f);

// A button drawn as a link: blue text, no frame, underlined on hover.
bool link_button(const std::string& label) {
  ImGui::PushStyleColor(ImGuiCol_Text, kLink);
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(0, 0, 0, 0));
  const float room = ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().FramePadding.x;
  const bool clicked = ImGui::Button(wrap_label("-> " + label, room).c_str());  // wraps on a phone
  if (ImGui::IsItemHovered()) {
    const ImVec2 mn = ImGui::GetItemRectMin(), mx = ImGui::GetItemRectMax();
    const float pad = ImGui::GetStyle().FramePadding.y;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(mn.x + ImGui::GetStyle().FramePadding.x, mx.y - pad),
                                        ImVec2(mx.x - ImGui::GetStyle().FramePadding.x, mx.y - pad),
                                        ImGui::GetColorU32(kLink));
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  }
  ImGui::PopStyleColor(4);
  return clicked;
}

// Reads the typed or picked answer and checks it; an unreadable number gets a message instead.
void check(SceneContext& ctx, const Question& q, AnswerState& a) {
  long long given = a.choice;
  if (q.kind == AnswerKind::Number && !parse_number_answer(a.number, given)) {
    a.answered = false;
    a.feedback = {false, "Type a whole number first (commas are fine, e.g. 1,024)."};
    return;
  }
  a.feedback = check_answer(q, given);
  a.answered = q.kind == AnswerKind::Number || a.choice >= 0;
  if (a.answered)
    ctx.answered(
        {q.id, q.kind == AnswerKind::Number ? std::to_string(given) : q.choices[static_cast<size_t>(given)],
         a.feedback.correct});
}

void draw_input(SceneContext& ctx, const Question& q, AnswerState& a) {
  if (q.kind == AnswerKind::Number) {
    ImGui::SetNextItemWidth(180);
    bool entered = false;
    if (text_field("##answer", "your answer", a.number, &entered)) a.answered = false, a.feedback = {};
    if (entered) check(ctx, q, a);
    same_line_if_fits(buttons_width({"Check", "Hide hint", "Hide answer"}));  // the buttons beside, or under
    return;
  }
  const float room =
      ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x;
  for (size_t k = 0; k < q.choices.size(); ++k) {
    if (ImGui::RadioButton(wrap_label(q.choices[k], room).c_str(), &a.choice, static_cast<int>(k)))
      a.answered = false, a.feedback = {};
  }
}

void open_link(Settings& s, const Question& q) {
  std::vector<std::string> notes;
  Settings next = parse_query(q.link_query, notes);
  keep_page_settings(s, next);
  s = next;
}

void draw_question(SceneContext& ctx, size_t i, const Question& q, AnswerState& a) {
  ImGui::PushID(static_cast<int>(i));
  char title[64];
  std::snprintf(title, sizeof title, "Question %c", static_cast<char>('a' + i));
  ImGui::SeparatorText(title);
  text_wrapped("%s", q.prompt.c_str());
  draw_input(ctx, q, a);
  if (ImGui::Button("Check")) check(ctx, q, a);
  ImGui::SameLine();
  if (ImGui::Button(a.hint ? "Hide hint" : "Hint")) a.hint = !a.hint;
  ImGui::SameLine();
  if (ImGui::Button(a.revealed ? "Hide answer" : "Reveal")) a.revealed = !a.revealed;
  if (!a.feedback.text.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, a.feedback.correct ? kRight : kWrong);
    text_wrapped("%s", a.feedback.text.c_str());
    ImGui::PopStyleColor();
  }
  if (a.hint) text_wrapped("Hint: %s", q.hint.c_str());
  if (a.revealed) {
    if (a.answered && a.feedback.correct) {
      text_wrapped("Answer: %s (as explained above).", answer_text(q).c_str());
    } else {
      text_wrapped("Answer: %s. %s", answer_text(q).c_str(), q.why.c_str());
    }
    if (link_button(q.link_label)) open_link(ctx.settings, q);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("?%s", q.link_query.c_str());
  }
  ImGui::Spacing();
  ImGui::PopID();
}

void build(ExercisesData& d) {
  if (d.built) return;
  d.built = true;
  try {
    d.questions = build_questions();
  } catch (const attn::InputError& e) {
    d.error = e.what();
  }
  d.answers.assign(d.questions.size(), AnswerState{});
}

void report(SceneContext& ctx, const ExercisesData& d) {
  ctx.report([&d](nlohmann::json& shown) {
    nlohmann::json list = nlohmann::json::array();
    int score = 0;
    for (size_t i = 0; i < d.questions.size(); ++i) {
      const AnswerState& a = d.answers[i];
      const bool correct = a.answered && a.feedback.correct;
      score += correct ? 1 : 0;
      nlohmann::json& item = list.emplace_back();  // key by key: initializer lists cost the page more code
      item["id"] = d.questions[i].id;
      item["answered"] = a.answered;
      item["correct"] = correct;
      item["revealed"] = a.revealed;
      item["hint_shown"] = a.hint;
      if (a.revealed) item["solution"] = d.questions[i].answer;
    }
    shown["questions"] = std::move(list);
    shown["score"] = score;
    shown["total"] = d.questions.size();
  });
}

}  // namespace

void draw_exercises_scene(SceneContext& ctx) {
  ExercisesData& data = ctx.kept<ExercisesData>();
  build(data);
  if (!data.error.empty()) {
    ctx.fail(data.error);
    ctx.report([e = data.error](nlohmann::json& shown) {
      shown = nlohmann::json::object();
      shown["error"] = e;
    });
    return;
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(ImGui::GetContentRegionAvail().x, 900.0f));
  text_wrapped(
      "Try these on your own first. Check tells you whether you are right and why; Hint nudges; "
      "Reveal shows the answer with a link to the scene where you can see it happen. Every answer "
      "here is computed live by the same code that draws the other scenes.");
  int score = 0;
  for (const AnswerState& a : data.answers) score += a.answered && a.feedback.correct ? 1 : 0;
  ImGui::Text("Score: %d of %zu right", score, data.questions.size());
  ImGui::SameLine();
  if (ImGui::Button("Start over")) data.answers.assign(data.questions.size(), AnswerState{});
  for (size_t i = 0; i < data.questions.size(); ++i)
    draw_question(ctx, i, data.questions[i], data.answers[i]);
  ImGui::PopTextWrapPos();
  report(ctx, data);
}

}  // namespace app
