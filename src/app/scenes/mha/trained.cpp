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

// The head of `layer` with the largest weight on the refunded item (the first role score, RouterRoleTally's
// order), or -1 before the roles are measured.
int item_head(const HeadMeasures& r, int layer) {
  const attn::train::HeadRole* best = nullptr;
  for (const attn::train::HeadRole& hr : r.roles) {
    if (hr.layer == layer && !hr.scores.empty() && (!best || hr.scores[0].value > best->scores[0].value))
      best = &hr;
  }
  return best ? best->head : -1;
}

// The answers to "switch that head off: what happens to the twins told apart?", in MhaState::off_guess's
// order, and whether a measured change (in percentage points, negative: a fall) is each one's.
constexpr const char* kOffAnswers[] = {"they fall by 5 points or more", "they fall by less than 5 points",
                                       "they do not fall"};
bool answer_fits(int answer, double change_points) {
  if (answer == 0) return change_points <= -5.0;
  if (answer == 1) return change_points < 0.0 && change_points > -5.0;
  return change_points >= 0.0;
}

// 3. Predict, then check: what switching off `head` (the layer's refunded-item head) does to the held-out
// twins told apart (both orders of a twin pair right); the measure runs once the learner has answered.
void draw_off_prediction(MhaState& ms, const HeadMeasures& r, int layer, int head) {
  if (!r.all_on_done) return;
  const double on = 100.0 * static_cast<double>(r.all_on.pair_accuracy);
  if (ms.off_guess == MhaState::kNoGuess) {
    text_wrapped(
        "Predict next: with every head on, the model gets both orders of %.1f%% of the held-out twin pairs "
        "right (the same email with its two items swapped). Switch head %d.%d off (its output zeroed): what "
        "happens to that share?",
        on, layer, head);
    for (int a = 0; a < 3; ++a) {
      if (a) ImGui::SameLine();
      if (ImGui::Button(kOffAnswers[a])) ms.off_guess = a;
      mark_item(format("mha/off_guess/%d", a).c_str());
    }
    return;
  }
  if (!r.ablated_done) {
    return text_wrapped_disabled("switching head %d.%d off ... %.0f%%", layer, head,
                                 100.0 * static_cast<double>(r.fraction));
  }
  const double off = 100.0 * static_cast<double>(r.ablated.pair_accuracy);
  const double change = off - on;
  const bool right = answer_fits(ms.off_guess, change);
  int fits = 0;
  while (fits < 2 && !answer_fits(fits, change)) ++fits;
  text_wrapped(
      "With head %d.%d off: %.1f%% of the twin pairs right, from %.1f%% (%+.1f points; held-out "
      "accuracy %.1f%%, from %.1f%%). You said %s: %s.",
      layer, head, off, on, change, 100.0 * static_cast<double>(r.ablated.accuracy),
      100.0 * static_cast<double>(r.all_on.accuracy), kOffAnswers[ms.off_guess],
      right ? "right" : (std::string("in fact ") + kOffAnswers[fits]).c_str());
  nlohmann::json& j = ms.off_shown;
  j["head"] = head;
  j["answer"] = ms.off_guess;
  j["right"] = right;
  j["all_on"] = r.all_on.pair_accuracy;
  j["ablated"] = r.ablated.pair_accuracy;
  j["ablated_accuracy"] = r.ablated.accuracy;
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
    ms.guess = ms.off_guess = MhaState::kNoGuess;
  }
  if (ms.roles_layer != layer) {  // the predictions are about one layer's heads
    ms.roles_layer = layer;
    ms.guess = ms.off_guess = MhaState::kNoGuess;
  }
  // every head on, until the learner has predicted what switching off the layer's refunded-item head does:
  // then that head off (the roles and every-head-on measures stay; only the ablated one is measured)
  const attn::HeadSwitch every_head_on = attn::train::parse_heads_off("", c.layers, c.heads);
  const int off_head = ms.off_guess != MhaState::kNoGuess ? item_head(ms.roles->measures(), layer) : -1;
  const attn::HeadSwitch off =
      off_head >= 0 ? attn::train::single_head_off(c.layers, c.heads, layer, off_head) : every_head_on;
  if (!ms.roles->work(m->model, m->vocab, off, false, kBudgetMs)) request_next_frame();
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
  const int best_head = item_head(r, layer);
  const attn::train::HeadRole* best = nullptr;
  const attn::train::HeadRole* picked = nullptr;
  for (const attn::train::HeadRole& hr : r.roles) {
    if (hr.layer != layer || hr.scores.empty()) continue;
    if (hr.head == best_head) best = &hr;
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
  if (best) draw_off_prediction(ms, r, layer, best->head);
}

}  // namespace app::mha
