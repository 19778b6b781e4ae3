// The Train scene's "What each head does" panel: each head's role scores and name, and heads switched off.
#include <imgui.h>

#include "app/logic/head_measure.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app::train_ui {
namespace {

// Measuring time per frame (at least one email; the app's router reads a held-out email in well under a
// millisecond, so the measures take a few frames).
constexpr double kBudgetMs = 6.0;

void put_metrics(nlohmann::json& j, const attn::train::SetMetrics& m) {
  j["test_accuracy"] = m.accuracy;
  j["flipped_pair_accuracy"] = m.pair_accuracy;
}

}  // namespace

void draw_heads(PanelState& ps, Settings& s, const TrainedModel& m, bool training, nlohmann::json& shown) {
  const attn::train::ModelConfig& c = m.model.config;
  text_wrapped(
      "Each number is a head's mean attention weight over the %zu held-out emails on: the item to refund, "
      "the "
      "item kept, \"not\", the word just before, the first word. A head is named after its largest number "
      "when that is at least %.1f and %.0f times the next, else it is mixed. Click a head to switch it off.",
      refund_data().test.size(), attn::train::kRoleFloor, attn::train::kRoleMargin);
  nlohmann::json& j = shown["heads_off"];
  j["measuring"] = true;
  if (training) {
    text_wrapped_disabled("(measured when training pauses or stops)");
    return;
  }
  // s.off read against this model's heads: a list that does not fit it is said in place, every head on
  std::string off_error;
  attn::HeadSwitch off = heads_off_setting(s.off, c.layers, c.heads, off_error);
  const bool mean = s.ablate == Ablation::Mean;
  if (!ps.heads || ps.heads_version != m.version) {
    ps.heads = std::make_unique<HeadMeasure>(c.layers, c.heads);
    ps.heads_version = m.version;
  }
  if (!ps.heads->work(m.model, m.vocab, off, mean, kBudgetMs)) request_next_frame();
  const HeadMeasures& r = ps.heads->measures();
  const std::string names = heads_off_text(off);
  const bool any = !names.empty(), off_ready = any && r.ablated_done;
  j["off"] = names;
  j["error"] = r.error.empty() ? off_error : r.error;
  j["measuring"] = r.error.empty() && !(r.roles_done && r.all_on_done && r.ablated_done);
  if (!r.error.empty()) return error_box(r.error);

  // 1. the roles, one row per head: a click on its name switches it off or on
  nlohmann::json& roles = shown["head_roles"];
  if (!r.roles_done) {
    text_wrapped_disabled("measuring the heads ... %.0f%%", 100.0 * static_cast<double>(r.fraction));
  } else if (begin_table("roles", {{"head"},
                                   {"item to refund"},
                                   {"item kept"},
                                   {"\"not\""},
                                   {"word before"},
                                   {"first word"},
                                   {"what it follows"}})) {
    int named = 0;
    for (const attn::train::HeadRole& hr : r.roles) {
      named += hr.role != "mixed";
      table_row();
      table_cell();
      const auto l = static_cast<size_t>(hr.layer), h = static_cast<size_t>(hr.head);
      const std::string label = format("head %d.%d %s###train/head/%d.%d", hr.layer, hr.head,
                                       off.off[l][h] ? "off" : "on", hr.layer, hr.head);
      {
        const LockScope lock(&s.off);
        if (ImGui::Selectable(label.c_str(), !off.off[l][h], 0,
                              ImGui::CalcTextSize(label.c_str(), nullptr, true))) {
          off.off[l][h] = !off.off[l][h];
          s.off = heads_off_text(off);
        }
      }
      mark_item(label.c_str() + label.find("###") + 3);
      nlohmann::json& e = roles.emplace_back();
      e["layer"] = hr.layer;
      e["head"] = hr.head;
      e["role"] = hr.role;
      for (const attn::train::RoleScore& sc : hr.scores) {
        table_cell();
        ImGui::Text("%.2f", sc.value);
        e["scores"][sc.name] = sc.value;
      }
      table_text(role_text(hr));
    }
    end_table();
    text_wrapped(
        "In the lesson's story several heads let the router read an email in more than one way at once: "
        "one head can follow which word points at which, another the item the customer wants refunded. "
        "The lesson also warns that nobody hands a head its job: roles come out of training. In this model "
        "(seed %llu), heads with one clear job by this rule: %d of %zu; the rest are mixed. Another seed "
        "starts from other weights, and its heads may end up with other roles, or none.",
        static_cast<unsigned long long>(c.seed), named, r.roles.size());
  }

  // 2. what a switched-off head outputs, and what the model does without those heads
  {
    const LockScope lock(&s.ablate);
    if (ImGui::RadioButton("switched off: zeros", !mean)) s.ablate = Ablation::Zero;
    ImGui::SameLine();
    if (ImGui::RadioButton("its mean output over the training emails", mean)) s.ablate = Ablation::Mean;
  }
  if (!off_error.empty()) error_box(off_error);
  if (!r.all_on_done) return;
  const PanelState::PredictionMemo& on = predict(ps.prediction, m, s.text);
  const attn::HeadSwitch* applied = ps.heads->applied();
  PanelState::PredictionMemo& without = ps.prediction_off;
  const bool email_ready =
      any && applied && on.ok() && predict(without, m, s.text, applied, names + word_of(s.ablate)).ok();
  const auto answer = [&](const attn::train::TextPrediction& p) {
    return format("%s (%.3f)", label_name(m, p.prediction.label).c_str(),
                  static_cast<double>(p.prediction.confidence));
  };
  const char* measuring = any ? "measuring ..." : "-";
  const std::string off_header = any ? names + " off" : "(none off)";
  if (begin_table("off", {{"held-out emails"}, {"every head on"}, {off_header.c_str()}})) {
    table_row();
    table_text("accuracy");
    table_text(percent(r.all_on.accuracy));
    table_text(off_ready ? percent(r.ablated.accuracy) : measuring);
    table_row();
    table_text("both orders of a twin right");
    table_text(percent(r.all_on.pair_accuracy));
    table_text(off_ready ? percent(r.ablated.pair_accuracy) : measuring);
    if (on.ok()) {
      table_row();
      table_text("the email above: refund the");
      table_text(answer(on.value()));
      table_text(email_ready ? answer(without.value()) : measuring);
    }
    end_table();
  }
  put_metrics(j["all_on"], r.all_on);
  nlohmann::json& a = j["ablated"];
  if (off_ready) put_metrics(a, r.ablated);
  if (email_ready) {
    nlohmann::json& e = j["email"];
    e["label_off"] = label_name(m, without.value().prediction.label);
    e["probabilities_off"] = without.value().prediction.probabilities;
  }
}

}  // namespace app::train_ui
