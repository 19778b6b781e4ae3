// The multi-head attention scene's "trained model" mode: the weights switch, the text and layer controls,
// and what the scene reports about the model it shows (the grids themselves come from trained_pipeline()).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/platform_io.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/widgets.hpp"

namespace app::train_ui {
namespace {

void open_train_scene(Settings& s) {
  Settings next = defaults_for("train");
  next.text = s.text;
  next.colormap = s.colormap;
  next.embed = s.embed;
  s = next;
}

std::string model_line(const TrainedModel& m) {
  const attn::train::ModelConfig& c = m.model.config;
  char buf[240];
  std::snprintf(buf, sizeof buf, "The model: %s positions, d_model %d, %d heads, %d layer%s; %s",
                attn::scheme_name(c.positions).c_str(), c.d_model, c.heads, c.layers,
                c.layers == 1 ? "" : "s", m.source.c_str());
  std::string out = buf;
  const nlohmann::json& info = m.info;
  if (info.is_object() && info.contains("steps") && info["steps"].is_number())
    out += ", " + info["steps"].dump() + " training steps";
  // The Train scene writes {"metrics": {"test_accuracy"}}, attention_cli a top-level "test_accuracy".
  const bool nested = info.is_object() && info.contains("metrics") && info["metrics"].is_object();
  const nlohmann::json& mt = nested ? info["metrics"] : info;
  if (mt.is_object() && mt.contains("test_accuracy") && mt["test_accuracy"].is_number()) {
    std::snprintf(buf, sizeof buf, ", held-out accuracy %.1f%%", 100.0 * mt["test_accuracy"].get<double>());
    out += buf;
  }
  return out + ".";
}

}  // namespace

bool draw_model_switch(Settings& s) {
  ImGui::TextUnformatted("weights:");
  ImGui::SameLine();
  if (ImGui::RadioButton("random (seeded)", s.model == "random")) s.model = "random";
  same_line_if_fits(ImGui::GetFrameHeight(), "trained in the Train scene");
  if (ImGui::RadioButton("trained in the Train scene", uses_trained_model(s)) && !uses_trained_model(s))
    s.model = "trained";
  help_marker(
      "Random weights show the mechanics. The trained model is the refund router from the Train scene "
      "(or a model file loaded there, or linked with model=path/to/model.json): its heads learned where "
      "to look.");
  if (!uses_trained_model(s)) return false;
  // a linked model file is fetched once per link; model=trained finds the model this tab remembered
  static std::string asked;
  if (asked != s.model) {
    asked = s.model;
    open_linked_model(s.model);
  }
  const TrainedModel* m = trained_model();
  if (m) apply_model_sizes(s, *m);  // the settings (and so the URL) say the model's true sizes
  ImGui::SetNextItemWidth(-180);
  text_field("text", "type an email", s.text);
  if (m && m->model.config.layers > 1) {
    ImGui::SetNextItemWidth(160);
    slider_int("layer", &s.layer, 0, m->model.config.layers - 1, "%d", ImGuiSliderFlags_AlwaysClamp);
  }
  if (m) {
    s.layer = std::clamp(s.layer, 0, m->model.config.layers - 1);
    ImGui::TextDisabled("%s", model_line(*m).c_str());
    ImGui::SameLine();
    if (ImGui::Button("Open the Train scene")) open_train_scene(s);
  }
  return true;
}

void draw_no_model_note(Settings& s) {
  const ModelLoadStatus& load = last_model_load();
  if (is_model_path(s.model) && !load.progress.empty()) {
    note_box(load.progress);
    if (load.fraction >= 0) ImGui::ProgressBar(load.fraction, ImVec2(-1, 0), "");
  } else if (is_model_path(s.model) && load.attempt == 0) {
    note_box("Loading the model file " + s.model + " ...");
  } else if (is_model_path(s.model) && !load.ok) {
    error_box(load.message);
  }
  note_box(
      "No model has been trained yet. Open the Train scene and press Train (it takes a few seconds), or "
      "load a model file there; then come back to see what its heads learned.");
  if (ImGui::Button("Open the Train scene")) open_train_scene(s);
}

void apply_model_sizes(Settings& s, const TrainedModel& m) {
  const attn::train::ModelConfig& c = m.model.config;
  s.d_model = c.d_model;
  s.heads = c.heads;
  s.positions = attn::scheme_name(c.positions);
  s.causal = c.causal;
}

Settings with_model_sizes(const Settings& s) {
  const TrainedModel* m = trained_model();
  if (!uses_trained_model(s) || !m) return s;
  Settings v = s;
  apply_model_sizes(v, *m);
  return v;
}

nlohmann::json trained_model_json_summary() {
  const TrainedModel* m = trained_model();
  if (!m) return nullptr;
  const attn::train::ModelConfig& c = m->model.config;
  nlohmann::json j;  // key by key: nlohmann's initializer lists cost the page more code
  j["positions"] = attn::scheme_name(c.positions);
  j["d_model"] = c.d_model;
  j["heads"] = c.heads;
  j["layers"] = c.layers;
  j["source"] = m->source;
  j["from_file"] = m->from_file;
  j["version"] = m->version;
  j["steps"] = m->info.is_object() && m->info.contains("steps") ? m->info["steps"] : nlohmann::json(nullptr);
  return j;
}

}  // namespace app::train_ui
