// The Induction scene's checks: heads switched off with a prediction first, and each position scheme's run
// side by side.
#include <imgui.h>

#include "app/logic/text.hpp"
#include "app/scenes/induction/induction.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"

namespace app::induction {
namespace {

constexpr OffEffect kEffects[] = {OffEffect::BackUp, OffEffect::Rises, OffEffect::Stays};

void put_losses(nlohmann::json& j, const attn::train::InductionMetrics& m) {
  j["loss_first_half"] = m.loss_first_half;
  j["loss_second_half"] = m.loss_second_half;
}

std::string step_or_dash(int step) {
  return step >= 0 ? std::to_string(step) : "-";
}

}  // namespace

void draw_prediction(InductionState& st, Settings& s, const TrainedModel& m, bool training,
                     nlohmann::json& shown) {
  if (training) {
    text_wrapped_disabled("(measured when training pauses or stops)");
    return;
  }
  const auto& on = st.on_measure.get({m.version, ""}, [&] { return measure(m.model); });
  if (!on.ok()) return error_box(on.error());
  const attn::train::InductionMetrics& all_on = on.value();
  // the heads of s.off, whatever chose them, measured off
  std::string off_error;
  const attn::HeadSwitch off = heads_off(s, m.model, off_error);
  const std::string off_text = heads_off_text(off);
  if (!off_text.empty()) {
    const auto& without = st.off_measure.get({m.version, off_text}, [&] { return measure(m.model, &off); });
    if (!without.ok()) return error_box(without.error());
    const attn::train::InductionMetrics& w = without.value();
    text_wrapped("With heads %s off: first half %.3f, repeat %.3f (every head on: %.3f and %.3f).",
                 off_text.c_str(), w.loss_first_half, w.loss_second_half, all_on.loss_first_half,
                 all_on.loss_second_half);
    nlohmann::json& a = shown["ablated"];
    a["off"] = off_text;
    put_losses(a, w);
    put_losses(a["all_on"], all_on);
  }

  const attn::HeadSwitch target = induction_heads(all_on);
  const std::string target_text = heads_off_text(target);
  nlohmann::json& p = shown["prediction"];
  p["heads"] = target_text;
  if (target_text.empty()) {
    text_wrapped_disabled(
        "No later-layer head has a prefix-matching score of %.1f yet: train longer, or try another scheme.",
        kSwitchFloor);
    return;
  }
  text_wrapped(
      "Heads %s have a prefix-matching score of at least %.1f. Predict before you look: switched off "
      "together, "
      "what do they do to the repeat's loss (now %.3f; the first half's %.3f)?",
      target_text.c_str(), kSwitchFloor, all_on.loss_second_half, all_on.loss_first_half);
  for (int i = 0; i < 3; ++i) {
    const std::string label = format("%s###induction/guess/%d", off_effect_text(kEffects[i]), i);
    if (ImGui::RadioButton(label.c_str(), st.guess == i && st.guess_heads == target_text)) {
      st.guess = i;
      st.guess_heads = target_text;
      s.off = target_text;  // the check switches them off (the heads table shows it)
    }
    mark_item(label.c_str() + label.find("###") + 3);
  }
  const bool guessed = st.guess >= 0 && st.guess_heads == target_text;
  p["guess"] = guessed ? nlohmann::json(off_effect_text(kEffects[st.guess])) : nullptr;
  if (!guessed || off_text != target_text) return;
  const attn::train::InductionMetrics& w = st.off_measure.value();
  const OffEffect effect = off_effect(all_on, w);
  const bool right = effect == kEffects[st.guess];
  text_wrapped_colored(ink(right ? Ink::Right : Ink::Wrong), "%s Measured: %s (%.3f, first half %.3f).",
                       right ? "Right." : "Not quite.", off_effect_text(effect), w.loss_second_half,
                       w.loss_first_half);
  text_wrapped(
      "Without its induction heads the model has nothing that finds the earlier copy: the repeat becomes as "
      "hard as the first half. Click the heads above to switch them on again, or switch off a layer-0 "
      "previous-token head instead: the induction head reads what that head wrote.");
  p["effect"] = off_effect_text(effect);
  p["right"] = right;
}

void draw_compare(InductionState& st, Settings& s, nlohmann::json& shown) {
  text_wrapped(
      "Each row is one run (the last pause of each scheme and seed trained in this tab). A head is counted "
      "as "
      "formed at the first evaluation where it reached %.1f. The last two columns are the repeat's loss on "
      "sequences twice and four times the training length of 32.",
      attn::train::kRoleFloor);
  ImGui::BeginDisabled(st.comparing);
  if (ImGui::Button(st.comparing ? "Training every scheme in turn..." : "Train every scheme in turn")) {
    st.comparing = true;
    s.train = Training::Run;
  }
  ImGui::EndDisabled();
  mark_item("induction/compare");
  help_marker("Trains the model with each scheme to max steps, with this seed, one after the other.");
  nlohmann::json& table = shown["table"] = nlohmann::json::array();
  if (st.rows.empty()) return text_wrapped_disabled("No run has paused or finished yet.");
  if (begin_table("induction/compare", {{"positions"},
                                        {"steps"},
                                        {"previous-token head"},
                                        {"induction head"},
                                        {"best previous"},
                                        {"best matching"},
                                        {"loss, first half"},
                                        {"loss, repeat"},
                                        {"repeat at 64"},
                                        {"repeat at 128"}})) {
    for (const attn::Scheme scheme : attn::train::trainable_schemes()) {
      for (const Row& r : st.rows) {
        if (r.positions != scheme) continue;
        table_row();
        table_text(attn::scheme_name(r.positions) + (r.seed != s.seed ? format(" (seed %d)", r.seed) : ""));
        table_text(std::to_string(r.steps));
        table_text(step_or_dash(r.formed.previous_token));
        table_text(step_or_dash(r.formed.induction));
        table_text(format("%.2f", r.best_previous));
        table_text(format("%.2f", r.best_induction));
        table_text(format("%.3f", r.loss_first_half));
        table_text(format("%.3f", r.loss_second_half));
        for (const AtLength& a : r.longer)
          table_text(a.error.empty() ? format("%.3f", a.loss_second_half) : "no slot");
        table.push_back(row_json(r));
      }
    }
    end_table();
  }
  for (const nlohmann::json& r : table) text_wrapped("%s", r["summary"].get<std::string>().c_str());
  text_wrapped_disabled(
      "The same run on the command line: attention_cli train --task induction --positions %s "
      "--seed %d --steps %d --eval-length 64,128",
      attn::scheme_name(s.positions).c_str(), s.seed, s.max_steps);
}

}  // namespace app::induction
