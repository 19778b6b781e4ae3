// Induction scene: a small language model trained in the page (in the compute worker, or between frames)
// on random sequences whose second half repeats the first, with each position scheme: the two halves'
// losses, every head's previous-token and prefix-matching scores as they form, the grids, heads switched
// off, and the schemes side by side.
#include "app/scenes/induction/induction.hpp"

#include <imgui.h>

#include <climits>

#include "app/platform_io.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app::induction {
namespace {

using train_ui::Stop;
using train_ui::TrainClient;

constexpr const char* kIntro =
    "A second task, for a language model: predict each next token of a sequence of random tokens whose "
    "second half repeats the first. The first half cannot be predicted. The repeat can, by a model that "
    "finds where the current token appeared before and copies the token that followed it there. That "
    "takes two heads working together: one in layer 0 that looks at the previous token, and one in layer 1 "
    "(an induction head) that looks for the key whose previous token matches the current one. Both need to "
    "know where tokens are: train the same model with each position scheme and watch which heads form.";

// Coming back through the menu (which resets the settings to the scene's defaults) keeps the run.
void restore_on_reentry(Settings& s, InductionState& st) {
  if (!train_ui::entered_again(st.last_frame) || !st.session.keyed()) return;
  const Settings d = defaults_for("induction");
  if (train_ui::induction_key(s) != train_ui::induction_key(d) || s.max_steps != d.max_steps) return;
  s.positions = st.session.key().positions;
  s.seed = st.session.key().seed;
  s.max_steps = st.max_steps;
}

void draw_controls(Settings& s) {
  train_ui::scheme_combo(
      s,
      "How the model knows where each token is: none (only the causal mask: each token sees those before "
      "it), sinusoidal (clock readings added), learned (a trained table of 32 slots, one per training "
      "position), rope (queries and keys turned by their position), alibi (a penalty growing with "
      "distance).");
  same_line_if_fits(130, "seed");
  train_ui::seed_and_steps(
      s,
      "2 attention-only layers of 4 heads, d_model 32, 16 token ids, sequences of 32; each step is one Adam "
      "step on 16 fresh sequences. Every 100 steps (and on a pause) the model is measured on 64 held-out "
      "sequences. Changing a setting starts a new model.");
}

bool same_run(const Row& a, const Row& b) {
  return a.positions == b.positions && a.seed == b.seed;
}

// Keeps the comparison's row of the run shown once it has one (each pause measures the longer lengths), and
// moves the comparison on to the next scheme once this one reached max steps.
void keep_row(InductionState& st, Settings& s, bool training, int layers, int heads) {
  const TrainClient& ses = st.session;
  if (!ses.has_trainer() || training) return;
  const std::optional<Row> row = row_of(ses.key(), ses.curves(), ses.snapshot().info, layers, heads);
  if (!row || row->steps == 0) return;
  bool kept = false;
  for (Row& r : st.rows) {
    if (same_run(r, *row)) r = *row, kept = true;
  }
  if (!kept) st.rows.push_back(*row);
  if (!st.comparing || row->steps < s.max_steps) return;
  for (const attn::Scheme scheme : attn::train::trainable_schemes()) {
    bool done = false;
    for (const Row& r : st.rows)
      done = done || (r.positions == scheme && r.seed == s.seed && r.steps == s.max_steps);
    if (!done) {
      s.positions = scheme;
      s.train = Training::Run;
      return;
    }
  }
  st.comparing = false;
}

void report(nlohmann::json& j, const Settings& s, const InductionState& st, int layers, int heads) {
  const TrainClient& ses = st.session;
  j["positions"] = attn::scheme_name(s.positions);
  j["seed"] = s.seed;
  j["max_steps"] = s.max_steps;
  j["running"] = s.train == Training::Run;
  j["steps"] = ses.steps();
  j["steps_per_second"] = ses.steps_per_second();
  j["seconds"] = ses.seconds();
  j["loss"] = ses.last_loss();
  j["evaluating"] = ses.evaluating();
  j["in_worker"] = ses.in_worker();
  const train_ui::Curves& c = ses.curves();
  nlohmann::json& e = j["evaluations"];
  e["step"] = c.eval_step;
  e["loss_first_half"] = c.first_half;
  e["loss_second_half"] = c.second_half;
  j["previous_token"] = nullptr;
  j["induction"] = nullptr;
  if (!c.eval_step.empty()) {
    const attn::train::InductionMetrics m = evaluation(c, c.eval_step.size() - 1, layers, heads);
    j["previous_token"] = m.previous_token;
    j["induction"] = m.induction;
    const Formed f = formed(c, layers, heads);
    j["formed"]["previous_token"] = f.previous_token >= 0 ? nlohmann::json(f.previous_token) : nullptr;
    j["formed"]["induction"] = f.induction >= 0 ? nlohmann::json(f.induction) : nullptr;
  }
  const nlohmann::json& info = ses.snapshot().info;
  j["eval_length"] = info.is_object() && info.contains("eval_length") ? info["eval_length"] : nullptr;
  j["comparing"] = st.comparing;
  for (const char* k : {"heads", "grids", "prediction", "ablated", "table"}) {
    if (!j.contains(k)) j[k] = nullptr;
  }
}

}  // namespace

attn::HeadSwitch heads_off(const Settings& s, const attn::train::Model& model, std::string& error) {
  return heads_off_setting(s.off, model.config.layers, model.config.heads, error);
}

}  // namespace app::induction

namespace app {

void draw_induction_scene(SceneContext& ctx) {
  using namespace induction;
  InductionState& st = ctx.state<InductionState>();
  Settings& s = ctx.settings;
  text_wrapped("%s", kIntro);
  restore_on_reentry(s, st);
  if (section("Model and training", "controls", s.hide)) draw_controls(s);
  st.max_steps = s.max_steps;
  if (train_ui::sync_session(s, st.session, train_ui::induction_key(s), st.error, INT_MAX)) st.guess = -1;
  if (!st.error.empty()) ctx.fail(st.error);

  TrainClient& ses = st.session;
  const double budget = st.pacer.budget_ms(s.train == Training::Run || ses.evaluating());
  if (ses.tick(budget, s.train == Training::Run, s.max_steps) != Stop::None) s.train = Training::Pause;
  const bool training = s.train == Training::Run || ses.evaluating();
  if (training && !ses.in_worker()) request_next_frame();
  if (!ses.error().empty()) ctx.fail(ses.error());
  train_ui::run_buttons(s, ses, "induction/train");
  train_ui::max_steps_note(s, ses);

  const attn::train::ModelConfig mc =
      attn::train::induction_model_config(task(), attn::Scheme::None, 0);  // the sizes of every run
  keep_row(st, s, training, mc.layers, mc.heads);
  const TrainedModel* m = ses.has_trainer() && ses.snapshot().vocab.size() > 0 ? &ses.snapshot() : nullptr;
  nlohmann::json shown = nlohmann::json::object();
  std::string off_error;
  attn::HeadSwitch off = attn::train::parse_heads_off("", mc.layers, mc.heads);
  if (m) off = heads_off(s, m->model, off_error);
  shown["off"] = heads_off_text(off);
  shown["off_error"] = off_error;
  if (ses.has_trainer() && section("Learning curves", "curves", s.hide)) induction::draw_curves(ses);
  if (ses.has_trainer() && section("What each head does", "heads", s.hide)) {
    induction::draw_heads(s, ses, off, shown);
    if (!off_error.empty()) error_box(off_error);
  }
  if (m && section("Attention on a held-out sequence", "grids", s.hide))
    induction::draw_grids(st, *m, off, heads_off_text(off), s, shown);
  if (m && section("Predict, then check: switch the induction heads off", "predict", s.hide))
    induction::draw_prediction(st, s, *m, training, shown);
  if (section("Each position scheme, side by side", "compare", s.hide)) draw_compare(st, s, shown);
  report(shown, s, st, mc.layers, mc.heads);
  ctx.report([j = std::move(shown)](nlohmann::json& out) { out.update(j); });
}

}  // namespace app
