// Lesson steps from JSON: each step's caption and settings, checked with the URL's own parser.
#include "app/logic/lesson.hpp"

#include <nlohmann/json.hpp>

#include "app/logic/json_text.hpp"
#include "app/logic/settings.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_json.hpp"

namespace app {
namespace {

using nlohmann::json;

// A JSON value as the text a URL would carry: strings as they are, true / false as 1 / 0, numbers as
// written.
std::string url_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return json_text(v);
}

// Checks and reads step number `n` (from 1); "" or what is wrong.
std::string read_step(const json& item, std::size_t n, LessonStep& out) {
  const std::string where = "step " + std::to_string(n) + ": ";
  if (!item.is_object()) return where + "each step is an object {\"caption\": ..., \"settings\": {...}}";
  for (const auto& [key, value] : item.items()) {
    if (key != "caption" && key != "settings")
      return where + "unknown field '" + attn::one_line(key, 40) + "' (a step has caption and settings)";
  }
  if (item.contains("caption")) {
    const json& c = item["caption"];
    Settings probe;
    std::string note;
    if (!c.is_string() || !apply_param(probe, "caption", c.get<std::string>(), note))
      return where + "the caption must be one line of text, at most " + std::to_string(kMaxCaptionBytes) +
             " bytes";
    out.caption = c.get<std::string>();
  }
  if (!item.contains("settings")) return "";
  const json& settings = item["settings"];
  if (!settings.is_object()) return where + "settings must be an object such as {\"pos\": 44}";
  Settings probe;
  for (const auto& [name, value] : settings.items()) {
    if (value.is_null() || value.is_object() || value.is_array())
      return where + "the value of " + attn::one_line(name, 40) + " must be a string, a number or true/false";
    const std::string text = url_text(value);
    std::string note;
    if (name == "scene" ? !is_scene(text)
                        : (name == "steps" || name == "step" || !apply_param(probe, name, text, note)))
      return where + (note.empty() ? "ignored " + attn::one_line(name, 40) + "=" + attn::one_line(text, 40) +
                                         ": not a setting a step can make"
                                   : note);
    out.settings.emplace_back(name, text);
  }
  return "";
}

}  // namespace

std::string parse_steps(const std::string& json_text, std::vector<LessonStep>& steps) {
  steps.clear();
  if (json_text.size() > kMaxStepsBytes)
    return "the steps are longer than " + std::to_string(kMaxStepsBytes) + " bytes";
  try {
    attn::require_json_depth(json_text, "the steps");
  } catch (const attn::InputError& e) {
    return e.what();
  }
  const json doc = attn::model_io::parse_json(json_text);
  if (doc.is_discarded()) return "the steps are not valid JSON";
  const json* list = &doc;
  if (doc.is_object() && doc.contains("steps")) list = &doc["steps"];
  if (!list->is_array() || list->empty())
    return "the steps must be a non-empty list [{\"caption\": ..., \"settings\": {...}}, ...]";
  if (list->size() > kMaxSteps) return "at most " + std::to_string(kMaxSteps) + " steps";
  std::vector<LessonStep> read(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string error = read_step((*list)[i], i + 1, read[i]);
    if (!error.empty()) return error;
  }
  steps = std::move(read);
  return "";
}

void apply_step(Settings& s, const LessonStep& step) {
  std::string note;
  for (const auto& [name, value] : step.settings) {
    if (name == "scene" && value != s.scene) s = switch_scene(s, value);
  }
  for (const auto& [name, value] : step.settings) {
    if (name != "scene") apply_param(s, name, value, note);
  }
}

}  // namespace app
