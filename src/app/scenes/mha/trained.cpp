// The multi-head attention scene's "trained model" mode: the weights switch, the text and layer controls
// (the grids themselves come from trained_pipeline()) and what each head does.
#include "app/scenes/mha/trained.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "app/logic/head_measure.hpp"
#include "app/logic/text.hpp"
#include "app/logic/train_session.hpp"
#include "app/logic/trained_model.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/widgets.hpp"

namespace app::mha {
namespace {

// Asks for the Train scene through the scene switch (the lesson's lock, theme, caption and steps stay),
// with the typed text.
void open_train_scene(SceneContext& ctx) {
  SceneAction a;
  a.settings = switch_scene(ctx.settings, "train");
  a.settings.text = ctx.settings.text;
  ctx.act(std::move(a));
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

bool draw_model_switch(SceneContext& ctx, MhaState& ms) {
  Settings& s = ctx.settings;
  ImGui::TextUnformatted("weights:");
  ImGui::SameLine();
  if (ImGui::RadioButton("random (seeded)", s.model == ModelChoice::Random))
    s.model = ModelChoice::Random, s.model_file.clear();
  same_line_if_fits(ImGui::GetFrameHeight(), "trained in the Train scene");
  if (ImGui::RadioButton("trained in the Train scene", uses_trained_model(s)) && !uses_trained_model(s))
    s.model = ModelChoice::Trained, s.model_file.clear();
  help_marker(
      "Random weights show the mechanics. The trained model is the refund router from the Train scene "
      "(or a model file loaded there, or linked with model=path/to/model.json): its heads learned where "
      "to look.");
  if (!uses_trained_model(s)) return false;
  // a linked model file is fetched once per link; model=trained finds the model this tab remembered
  const std::string link = param_value(s, "model");  // "trained" or the model file's path
  if (ms.asked_model != link) {
    ms.asked_model = link;
    SceneAction a;
    a.kind = SceneAction::Kind::OpenLinkedModel;
    a.path = link;
    ctx.act(std::move(a));
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
    if (ImGui::Button("Open the Train scene")) open_train_scene(ctx);
  }
  return true;
}

void draw_no_model_note(SceneContext& ctx) {
  const Settings& s = ctx.settings;
  const ModelLoadStatus& load = last_model_load();
  const bool file = s.model == ModelChoice::File;
  if (file && !load.progress.empty()) {
    note_box(load.progress);
    if (load.fraction >= 0) ImGui::ProgressBar(load.fraction, ImVec2(-1, 0), "");
  } else if (file && load.attempt == 0) {
    note_box("Loading the model file " + s.model_file + " ...");
  } else if (file && !load.ok) {
    error_box(load.message);
  }
  note_box(
      "No model has been trained yet. Open the Train scene and press Train (it takes a few seconds), or "
      "load a model file there; then come back to see what its heads learned.");
  if (ImGui::Button("Open the Train scene")) open_train_scene(ctx);
}

void draw_roles(MhaState& ms, int layer) {
  constexpr double kBudgetMs = 6.0;  // measuring time per frame (the Train scene's panel takes the same)
  const TrainedModel* m = trained_model();
  if (!m) return;
  const attn::train::ModelConfig& c = m->model.config;
  if (!ms.roles || ms.roles_version != m->version) {
    ms.roles = std::make_unique<HeadMeasure>(c.layers, c.heads);
    ms.roles_version = m->version;
    ms.guess = MhaState::kNoGuess;
  }
  const attn::HeadSwitch every_head_on = attn::train::parse_heads_off("", c.layers, c.heads);
  if (!ms.roles->work(m->model, m->vocab, every_head_on, false, kBudgetMs)) request_next_frame();
  // 1. predict first: the measures stay hidden until the learner picks a head (or asks to skip)
  if (ms.guess == MhaState::kNoGuess) {
    text_wrapped(
        "Predict first: from the grids above, which head of layer %d puts the most weight on the item to "
        "refund? Pick one; then the measures show.",
        layer);
    for (int h = 0; h < c.heads; ++h) {
      if (h) ImGui::SameLine();
      const std::string label = format("head %d.%d##guess", layer, h);
      if (ImGui::Button(label.c_str())) ms.guess = h;
      mark_item(format("mha/guess/%d", h).c_str());
    }
    ImGui::SameLine();
    if (ImGui::Button("show the measures")) ms.guess = MhaState::kSkipped;
    return;
  }
  const HeadMeasures& r = ms.roles->measures();
  if (!r.error.empty())
    return text_wrapped_disabled("The heads' roles could not be measured: %s", r.error.c_str());
  if (!r.roles_done) {
    return text_wrapped_disabled("measuring the heads ... %.0f%%", 100.0 * static_cast<double>(r.fraction));
  }
  // 2. the check: the guess against the head of this layer with the largest weight on the refunded item
  // (the first score, RouterRoleTally's order)
  const attn::train::HeadRole* best = nullptr;
  const attn::train::HeadRole* picked = nullptr;
  for (const attn::train::HeadRole& hr : r.roles) {
    if (hr.layer != layer || hr.scores.empty()) continue;
    if (!best || hr.scores[0].value > best->scores[0].value) best = &hr;
    if (hr.head == ms.guess) picked = &hr;
  }
  if (picked && best) {
    const double mine = picked->scores[0].value, most = best->scores[0].value;
    if (picked == best) {
      text_wrapped(
          "You picked head %d.%d: right, it puts %.2f of its weight on the item to refund, the most "
          "of layer %d's heads.",
          layer, picked->head, mine, layer);
    } else {
      text_wrapped(
          "You picked head %d.%d: it puts %.2f of its weight on the item to refund; the most of "
          "layer %d's heads is head %d.%d's, %.2f.",
          layer, picked->head, mine, layer, layer, best->head, most);
    }
  }
  text_wrapped(
      "Layer %d's heads, each named after what it puts most weight on over the %zu held-out emails "
      "(at least 0.5 and twice its next score; else mixed). The Train scene's \"What each head does\" "
      "has every score and switches heads off.",
      layer, train_ui::refund_data().test.size());
  for (const attn::train::HeadRole& hr : r.roles) {
    if (hr.layer != layer) continue;
    text_wrapped("head %d.%d: %s", hr.layer, hr.head, role_text(hr).c_str());
    nlohmann::json& e = ms.roles_shown.emplace_back();
    e["layer"] = hr.layer;
    e["head"] = hr.head;
    e["role"] = hr.role;
    e["refunded_item"] = hr.scores.empty() ? 0.0 : hr.scores[0].value;
  }
}

}  // namespace app::mha
