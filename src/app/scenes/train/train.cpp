// Train scene: trains the refund router in the page (in the compute worker, or in time slices between
// frames), with or without positions, and shows what it learned: curves, any email's label, the order-flipped
// pair, what each head does, model files.
#include "app/scenes/train/train.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>

#include "app/logic/frame_pacer.hpp"
#include "app/platform_io.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app {
namespace {

// What the scene says first, above its settings.
constexpr const char* kIntro =
    "Train the refund router here, in seconds, on this machine: a small transformer reads support emails "
    "such as \"Refund the cake, not the balloons.\" and learns which item to refund. Every held-out "
    "email has an order-flipped twin with the same words. Without positions the model sees a bag of words, "
    "so the twins get identical outputs however long it trains; with positions it learns the difference.";

using namespace train_ui;

constexpr int kMaxTrainWidth = 128;  // wider models take more than a frame per training step

struct TrainState : SceneState {
  TrainClient session;
  FramePacer pacer;
  double budget_ms = 0.0;
  std::string error;              // why the model for the current settings could not be built
  long long adopted_version = 0;  // the last model file whose config was copied into the settings
  int last_frame = -10;           // ImGui frame of the last draw (a gap: the scene was re-entered)
  std::string text;               // the last typed email, restored when the scene is re-entered
  PanelState panels;
};

void apply_key(Settings& s, const SessionKey& k) {
  s.positions = k.positions;
  s.d_model = k.d_model, s.heads = k.heads, s.layers = k.layers, s.seed = k.seed;
}

// A model file was loaded (here or through the JavaScript API): show its settings and drop the trainer.
void adopt_loaded_model(Settings& s, TrainState& st) {
  const TrainedModel* m = trained_model();
  if (!m || !m->from_file || m->version <= st.adopted_version) return;
  st.adopted_version = m->version;
  const attn::train::ModelConfig& c = m->model.config;
  apply_key(s, {c.positions, c.d_model, c.heads, std::clamp(c.layers, 1, 4),
                static_cast<int>(std::min<std::uint64_t>(c.seed, INT_MAX))});
  s.train = Training::Pause;
  st.session.detach(session_key(s));
  st.error.clear();
}

// Coming back from another scene through the menu (which resets the settings to the defaults) keeps the
// model that was trained: its settings are put back.
void restore_on_reentry(Settings& s, TrainState& st) {
  if (!entered_again(st.last_frame) || !st.session.keyed()) return;
  const Settings d = defaults_for("train");
  if (session_key(s) != session_key(d)) return;  // the settings were chosen (a link, set()): they win
  apply_key(s, st.session.key());
  if (s.text == d.text && !st.text.empty()) s.text = st.text;
}

void draw_controls(Settings& s) {
  scheme_combo(
      s,
      "How the model learns where each word is: none (it sees a bag of words), sinusoidal (fixed "
      "clock readings added to the embeddings), learned (a trained table of 32 slots), rope (queries "
      "and keys turned by their position), alibi (a penalty growing with distance).");
  same_line_if_fits(150, "d_model");
  ImGui::SetNextItemWidth(150);
  // up to the loaded model's width when it is wider: the slider keeps its value (it clamps to its range),
  // and training it says why it cannot (sync_session)
  slider_int("d_model", &s.d_model, 4, std::max(kMaxTrainWidth, s.d_model), "%d",
             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  same_line_if_fits(100, "heads");
  ImGui::SetNextItemWidth(100);
  slider_int("heads", &s.heads, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
  same_line_if_fits(80, "layers");
  ImGui::SetNextItemWidth(80);
  slider_int("layers", &s.layers, 1, 4, "%d", ImGuiSliderFlags_AlwaysClamp);
  seed_and_steps(
      s,
      "Changing the model's settings starts a new model. Training stops by itself once the held-out "
      "accuracy has been at least 99% twice in a row, or at max steps; Continue then trains on.");
}

void draw_buttons(Settings& s, const TrainClient& ses) {
  run_buttons(s, ses, "train/train");
  if (ses.target_reached()) {
    text_wrapped_colored(
        ink(Ink::Right),
        "Reached 99%% held-out accuracy (twice in a row) at step %d after %.1f s of training.",
        ses.target_step(), ses.target_seconds());
  } else {
    max_steps_note(s, ses);
  }
}

// Asks for the multi-head scene with the model shown (through the scene switch, after the frame).
void look_inside_button(SceneContext& ctx, const TrainedModel* shown_model) {
  const Settings& s = ctx.settings;
  const TrainedModel* shared = trained_model();
  const bool ok = shown_model && shared && shared->version == shown_model->version;
  ImGui::BeginDisabled(!ok);
  const bool look = ImGui::Button("Look inside in the multi-head scene");
  mark_item("train/look_inside");
  if (look) {
    SceneAction open;
    Settings& next = open.settings;
    next = switch_scene(s, "mha");
    // a linked model file stays linked; a model trained here is remembered for this tab (a reload of the
    // link finds it)
    if (shared->from_file && is_model_path(shared->source)) {
      next.model = ModelChoice::File, next.model_file = shared->source;
    } else {
      next.model = ModelChoice::Trained;
      open.remember_trained = true;
    }
    apply_model_sizes(next, *shared);
    next.text = s.text;
    ctx.act(std::move(open));
  }
  ImGui::EndDisabled();
  help_marker(
      "Opens the multi-head attention scene with this model's learned weights: one grid per head, "
      "the row view and per-head statistics for the email typed above. (Train at least one step first.)");
}

nlohmann::json metrics_json(const TrainClient& ses, const TrainedModel* m) {
  if (ses.has_trainer()) {
    const attn::train::Metrics& mt = ses.metrics();
    nlohmann::json j;  // key by key: nlohmann's initializer lists cost the page more code
    j["train_accuracy"] = mt.train_accuracy;
    j["test_accuracy"] = mt.test_accuracy;
    j["flipped_pair_accuracy"] = mt.flipped_pair_accuracy;
    j["max_pair_difference"] = mt.max_pair_difference;
    j["test_loss"] = mt.test_loss;
    j["step"] = ses.metrics_step();
    return j;
  }
  if (m && m->info.is_object() && m->info.contains("metrics")) return m->info["metrics"];
  return nullptr;
}

// The scene's numbers for state().shown, added to what the panels put into j. Built while drawing (a few
// dozen values): they read the trained model, which a model file can replace between frames.
void report(nlohmann::json& j, const Settings& s, const TrainState& st, const TrainedModel* m) {
  const TrainClient& ses = st.session;
  j["positions"] = attn::scheme_name(s.positions);
  j["d_model"] = s.d_model;
  j["heads"] = s.heads;
  // a loaded model shown without a trainer: its own layer count (a file may have more than the setting's 4)
  j["layers"] = !ses.has_trainer() && m && m->from_file ? m->model.config.layers : s.layers;
  j["seed"] = s.seed;
  j["running"] = s.train == Training::Run;
  // a loaded model: the steps its file says it was trained for, as the file wrote the number (never cast)
  const bool file_steps = !ses.has_trainer() && m && m->info.is_object() && m->info.contains("steps") &&
                          m->info["steps"].is_number_integer();
  j["steps"] = file_steps ? m->info["steps"] : nlohmann::json(ses.steps());
  j["steps_per_second"] = ses.steps_per_second();
  j["seconds"] = ses.seconds();
  j["loss"] = ses.last_loss();
  j["evaluating"] = ses.evaluating();
  j["in_worker"] = ses.in_worker();
  j["frame_budget_ms"] = st.budget_ms;
  j["idle_frame_ms"] = st.pacer.idle_ms();
  j["metrics"] = metrics_json(ses, m);
  j["target_reached"] = ses.target_reached();
  j["target_step"] = ses.target_reached() ? nlohmann::json(ses.target_step()) : nlohmann::json(nullptr);
  j["target_seconds"] = ses.target_reached() ? nlohmann::json(ses.target_seconds()) : nlohmann::json(nullptr);
  j["model_version"] = m ? m->version : 0;
  j["model_loaded_from"] = m && m->from_file ? nlohmann::json(m->source) : nlohmann::json(nullptr);
  if (!j.contains("prediction")) j["prediction"] = nullptr;
  if (!j.contains("pair")) j["pair"] = nullptr;
  if (!j.contains("head_roles")) j["head_roles"] = nullptr;
  if (!j.contains("heads_off")) j["heads_off"] = nullptr;
}

}  // namespace

void draw_train_scene(SceneContext& ctx) {
  TrainState& st = ctx.state<TrainState>();
  Settings& s = ctx.settings;
  text_wrapped("%s", kIntro);
  restore_on_reentry(s, st);
  adopt_loaded_model(s, st);
  if (section("Model and training", "controls", s.hide)) draw_controls(s);
  sync_session(s, st.session, session_key(s), st.error, kMaxTrainWidth);

  TrainClient& ses = st.session;
  if (!st.error.empty()) {
    ctx.fail(st.error);
  }
  st.budget_ms = st.pacer.budget_ms(s.train == Training::Run || ses.evaluating());
  if (ses.tick(st.budget_ms, s.train == Training::Run, s.max_steps) != Stop::None) s.train = Training::Pause;
  // after the tick: in the frame a stop arrives the panels already see the paused session (a worker's
  // last update asks for this one frame only, and the longer-emails panel starts measuring in it)
  const bool training = s.train == Training::Run || ses.evaluating();
  // steps and evaluations go on without input: in-process each frame does some; from the worker each
  // update that arrives asks for a frame itself (so the page draws no more often than it hears news)
  if ((training || ses.evaluating()) && !ses.in_worker()) request_next_frame();
  if (!ses.error().empty()) {
    ctx.fail(ses.error());
  }
  draw_buttons(s, ses);

  const TrainedModel* m = ses.has_trainer() ? &ses.snapshot() : trained_model();
  if (m && m->vocab.size() == 0) m = nullptr;  // the session has not evaluated its model yet
  if (!st.error.empty()) m = nullptr;          // no model for these settings
  if (ses.has_trainer() && section("Learning curves", "curves", s.hide)) draw_curves(ses);
  nlohmann::json shown = nlohmann::json::object();
  if (m && section("Try an email", "predict", s.hide)) {
    const std::string e = draw_prediction(st.panels, s, *m, shown);
    if (!e.empty()) ctx.error = e;
  }
  if (m && section("The refund pair: an email and its order-flipped twin", "pair", s.hide))
    draw_pair(st.panels, *m, shown);
  if (m && section("What each head does", "heads", s.hide)) draw_heads(st.panels, s, *m, training, shown);
  if (m && section("Longer emails than in training", "longer", s.hide)) draw_longer(*m, training, shown);
  look_inside_button(ctx, m);
  if (section("Model file", "file", s.hide)) draw_model_file(ctx, st.panels, m);
  st.text = s.text;
  report(shown, s, st, m);
  ctx.report([j = std::move(shown)](nlohmann::json& out) { out.update(j); });
}

}  // namespace app
