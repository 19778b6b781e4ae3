// The Train scene's "What each head does" panel: each head's role scores and name, and heads switched off.
#include <imgui.h>

#include "app/logic/head_measure.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app::train_ui {
namespace {

// Measuring time per frame (at least one email; the app's router reads a held-out email in well under a
// millisecond, so the measures take a few frames).
constexpr double kBudgetMs = 6.0;

// The role scores in the core's order (attn::train::RouterRoleTally): the score's name, its column and
// what a head it names follows, in a learner's words.
struct RoleWords {
  const char* score;
  const char* column;
  const char* follows;
};
constexpr RoleWords kRoleWords[] = {
    {"refunded_item", "item to refund", "the item to refund"},
    {"excluded_item", "item kept", "the item kept (the excluded one)"},
    {"not", "\"not\"", "the word \"not\""},
    {"previous_token", "word before", "the word just before"},
    {"first_token", "first word", "the first word"},
};

// "the item to refund, 0.55" for a named head, else "mixed".
std::string role_text(const attn::train::HeadRole& r) {
  for (const RoleWords& w : kRoleWords) {
    for (const attn::train::RoleScore& sc : r.scores) {
      if (r.role == w.score && sc.name == w.score) return format("%s, %.2f", w.follows, sc.value);
    }
  }
  return "mixed";
}

// What this training produced: which heads got a name, how many are mixed.
std::string roles_summary(const std::vector<attn::train::HeadRole>& roles) {
  std::string named;
  int mixed = 0;
  for (const attn::train::HeadRole& r : roles) {
    if (r.role == "mixed") {
      ++mixed;
      continue;
    }
    named +=
        format("%shead %d.%d follows %s", named.empty() ? "" : "; ", r.layer, r.head, role_text(r).c_str());
  }
  if (named.empty()) return format("no head has one clear job by this rule: all %d are mixed", mixed);
  if (mixed == 0) return named;
  return named + (mixed == 1 ? "; the other head is mixed" : format("; the other %d heads are mixed", mixed));
}

nlohmann::json metrics_json(const attn::train::SetMetrics& m) {
  nlohmann::json j;  // key by key: nlohmann's initializer lists cost the page more code
  j["test_accuracy"] = m.accuracy;
  j["flipped_pair_accuracy"] = m.pair_accuracy;
  j["test_loss"] = m.loss;
  return j;
}

// One row of the switch-off table: what, with every head on, with the heads off (when any).
void measure_row(const char* what, const std::string& on, const std::string& off, bool any) {
  table_row();
  table_cell();
  ImGui::TextUnformatted(what);
  table_cell();
  ImGui::TextUnformatted(on.c_str());
  if (!any) return;
  table_cell();
  ImGui::TextUnformatted(off.c_str());
}

// The checkbox of head (l, h): ticked while it is on; a click switches it off or on in s.off.
void head_checkbox(Settings& s, attn::HeadSwitch& off, int l, int h) {
  bool on = !off.is_off(l, h);
  const LockScope lock(&s.off);
  const bool clicked = ImGui::Checkbox(format("head %d.%d", l, h).c_str(), &on);
  mark_item(format("train/head/%d.%d", l, h).c_str());
  if (clicked) {
    off.off[static_cast<size_t>(l)][static_cast<size_t>(h)] = on ? 0 : 1;
    s.off = heads_off_text(off);
  }
}

}  // namespace

void draw_heads(PanelState& ps, Settings& s, const TrainedModel& m, bool training, nlohmann::json& shown) {
  const attn::train::ModelConfig& c = m.model.config;
  const auto& emails = refund_data().test;
  text_wrapped(
      "Each number is a head's attention weight on one kind of word, averaged over its %zu held-out emails: "
      "the item to refund, the item kept, the word \"not\", the word just before, the first word. A head is "
      "named after its largest number when that is at least %.1f and at least %.0f times the next one; "
      "otherwise it is mixed. Untick a head to switch it off.",
      emails.size(), attn::train::kRoleFloor, attn::train::kRoleMargin);
  nlohmann::json& j = shown["heads_off"];
  if (training) {
    text_wrapped_disabled("(measured when training pauses or stops)");
    j["training"] = true;
    return;
  }
  // s.off read against this model's heads: a list that does not fit it is said in place, every head on
  attn::HeadSwitch off = attn::train::parse_heads_off("", c.layers, c.heads);
  std::string off_error;
  try {
    off = attn::train::parse_heads_off(s.off, c.layers, c.heads);
  } catch (const attn::InputError& e) {
    off_error = "off=" + s.off + ": " + e.what();
  }
  const bool mean = s.ablate == Ablation::Mean;
  HeadMeasure& hm = ps.heads;
  if (!hm.work(m.model, m.vocab, m.version, off, mean, kBudgetMs)) request_next_frame();
  const HeadMeasures& r = hm.measures();
  const std::string names = heads_off_text(off);
  const bool any = !names.empty();
  j["off"] = attn::train::heads_off_names(off);
  j["ablate"] = word_of(s.ablate);
  j["error"] = off_error;
  j["measuring"] = !r.error.empty() ? false : !(r.roles_done && r.all_on_done && r.ablated_done);
  if (!r.error.empty()) {
    error_box(r.error);
    j["error"] = r.error;
    return;
  }

  // 1. the roles, one row per head with its switch
  nlohmann::json roles = nullptr;
  if (!r.roles_done) {
    text_wrapped_disabled("measuring the heads ... %d%%", static_cast<int>(100.0f * r.fraction));
  } else if (begin_table("roles", {{"head (ticked: on)"},
                                   {kRoleWords[0].column},
                                   {kRoleWords[1].column},
                                   {kRoleWords[2].column},
                                   {kRoleWords[3].column},
                                   {kRoleWords[4].column},
                                   {"what it does"}})) {
    roles = nlohmann::json::array();
    for (const attn::train::HeadRole& hr : r.roles) {
      table_row();
      table_cell();
      head_checkbox(s, off, hr.layer, hr.head);
      nlohmann::json& e = roles.emplace_back();
      e["layer"] = hr.layer;
      e["head"] = hr.head;
      e["role"] = hr.role;
      nlohmann::json& scores = e["scores"];
      for (const attn::train::RoleScore& sc : hr.scores) {
        table_cell();
        ImGui::Text("%.2f", sc.value);
        scores[sc.name] = sc.value;
      }
      table_cell();
      ImGui::TextUnformatted(role_text(hr).c_str());
    }
    end_table();
    text_wrapped(
        "The lesson says that with several heads \"one can follow what it refers to while another tracks "
        "what the customer wants done\", and warns: \"Nobody assigns a head a job.\" In this model (seed "
        "%llu) %s. That came out of training, not out of a plan: another seed starts from other weights, "
        "and its heads may end up with other roles, or none.",
        static_cast<unsigned long long>(c.seed), roles_summary(r.roles).c_str());
  }
  shown["head_roles"] = roles;

  // 2. the heads switched off: zeros or their mean output, and what the model does without them
  {
    const LockScope lock(&s.ablate);
    if (ImGui::RadioButton("a head switched off outputs zeros", !mean)) s.ablate = Ablation::Zero;
    same_line_if_fits(ImGui::CalcTextSize("its mean output over the training emails").x + 30.0f);
    if (ImGui::RadioButton("its mean output over the training emails", mean)) s.ablate = Ablation::Mean;
  }
  if (!off_error.empty()) error_box(off_error);
  const PanelState::PredictionMemo& on = predict(ps.prediction, m, s.text);
  const std::optional<attn::HeadSwitch> applied = hm.applied();
  auto& off_memo = ps.prediction_off;
  if (any && applied) {
    off_memo.get({m.version, s.text, names + word_of(s.ablate)},
                 [&] { return attn::train::predict_text(m.model, m.vocab, s.text, &*applied); });
  }
  const auto answer = [&](const attn::train::TextPrediction& p) {
    return format("%s (%.3f)", label_name(m, p.prediction.label).c_str(),
                  static_cast<double>(p.prediction.confidence));
  };
  const std::string measuring = "measuring ...";
  const bool off_ready = any && r.ablated_done;
  const bool email_ready = any && applied && off_memo.ok();
  const bool table =
      r.all_on_done &&
      (any ? begin_table("with heads off", {{"held-out emails"}, {"every head on"}, {"with them off"}})
           : begin_table("every head on", {{"held-out emails"}, {"every head on"}}));
  if (table) {
    measure_row("accuracy", percent(r.all_on.accuracy), off_ready ? percent(r.ablated.accuracy) : measuring,
                any);
    measure_row("both orders of a twin right", percent(r.all_on.pair_accuracy),
                off_ready ? percent(r.ablated.pair_accuracy) : measuring, any);
    if (on.ok()) {
      measure_row("the email above: refund the", answer(on.value()),
                  email_ready ? answer(off_memo.value()) : measuring, any);
    }
    end_table();
  }
  text_wrapped_disabled("%s", any ? format("Switched off: %s (%s).", names.c_str(),
                                           mean ? "each outputs its mean output" : "each outputs zeros")
                                        .c_str()
                                  : "Every head is on: untick one to see what the model does without it.");
  j["all_on"] = r.all_on_done ? metrics_json(r.all_on) : nlohmann::json(nullptr);
  j["ablated"] = off_ready ? metrics_json(r.ablated) : nlohmann::json(nullptr);
  if (email_ready && on.ok()) {
    nlohmann::json& e = j["email"];
    e["text"] = s.text;
    e["label"] = label_name(m, on.value().prediction.label);
    e["confidence"] = on.value().prediction.confidence;
    e["label_off"] = label_name(m, off_memo.value().prediction.label);
    e["confidence_off"] = off_memo.value().prediction.confidence;
    e["probabilities_off"] = off_memo.value().prediction.probabilities;
  }
}

}  // namespace app::train_ui
