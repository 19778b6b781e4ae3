// Lesson mode: steps read or fetched and opened, the caption and step bar drawn, locked settings kept.
#include "app/lesson_mode.hpp"

#include <imgui.h>

#include "app/platform_io.hpp"
#include "app/widgets/widgets.hpp"
#include "core/input_limits.hpp"

namespace app {

LessonMode::LessonMode(bool url_names_step) : applied_(url_names_step ? -1 : 0) {}

void LessonMode::update(Settings& s, std::vector<std::string>& notes) {
  if (s.steps != source_) {
    source_ = s.steps;
    steps_.clear();
    pending_ = false;
    if (is_model_path(s.steps)) {  // a file next to the page: its text arrives in steps_loaded
      pending_ = true;
      fetch_lesson_steps(s.steps);
    } else if (!s.steps.empty()) {
      const std::string error = parse_steps(s.steps, steps_);  // checked when set; kept for safety
      if (!error.empty()) notes.push_back("the lesson steps could not be used: " + error);
    }
  }
  if (steps_.empty()) return;
  if (s.step > count()) s.step = count();
  if (applied_ == -1) applied_ = s.step;  // the URL already shows this step as the learner left it
  if (s.step != applied_) {
    applied_ = s.step;
    apply_step(s, steps_[static_cast<size_t>(s.step - 1)]);
  }
}

void LessonMode::steps_loaded(Settings& s, const std::string& source, const std::string& text,
                              const std::string& error, std::vector<std::string>& notes) {
  if (source != source_) return;  // an older request
  pending_ = false;
  const std::string problem = error.empty() ? parse_steps(text, steps_) : error;
  if (!problem.empty()) {
    steps_.clear();
    notes.push_back("the lesson steps from " + attn::one_line(source, 80) + " could not be used: " + problem);
    return;
  }
  update(s, notes);
}

std::string LessonMode::caption(const Settings& s) const {
  if (!steps_.empty() && s.step >= 1 && s.step <= count() &&
      !steps_[static_cast<size_t>(s.step - 1)].caption.empty())
    return steps_[static_cast<size_t>(s.step - 1)].caption;
  return s.caption;
}

void LessonMode::draw(Settings& s) const {
  const std::string text = caption(s);
  if (!text.empty() && !hidden(s, "caption")) {
    caption_paragraph(text);
    mark_item("lesson/caption");
  }
  if (pending_) text_wrapped_disabled("Loading the lesson's steps...");
  if (!steps_.empty()) {
    ImGui::BeginDisabled(s.step <= 1);
    if (ImGui::Button("< Back##step")) s.step -= 1;
    mark_item("lesson/back");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(s.step >= count());
    if (ImGui::Button("Next >##step")) s.step += 1;
    mark_item("lesson/next");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("Step %d of %d", s.step, count());
    mark_item("lesson/counter");
  }
  if (!s.lock.empty()) {
    text_wrapped_disabled("Fixed by this lesson: %s.", s.lock.c_str());
    mark_item("lesson/locked");
  }
  if (!text.empty() || !steps_.empty() || !s.lock.empty()) ImGui::Separator();
}

void LessonMode::keep_locked(const Settings& before, Settings& s) {
  if (s.lock.empty() && before.lock.empty()) return;
  if (locked(before, "scene") && s.scene != before.scene) {
    s = before;  // a new scene brings new defaults: keep the whole view
    return;
  }
  for (const ParamInfo& p : param_table()) {
    if (!locked(before, p.name)) continue;
    const std::string was = param_value(before, p.name);
    std::string note;
    if (param_value(s, p.name) != was) apply_param(s, p.name, was, note);
  }
}

}  // namespace app
