// The Train scene's "What each head does" panel: role scores measured on the held-out emails, a switch per
// head, and what the model gets right with some heads switched off.
#include <imgui.h>

#include <string>

#include "app/logic/head_measure.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/positions.hpp"

namespace app::train_ui {
namespace {

// Time for the measure per frame (at least one email: three forward passes of the router).
constexpr double kBudgetMs = 6.0;

// A role's words: the score names of attn::train::RouterRoleTally.
const char* role_words(const std::string& role) {
  if (role == "refunded_item") return "the item to refund";
  if (role == "excluded_item") return "the item kept";
  if (role == "not") return "the word \"not\"";
  if (role == "previous_token") return "the previous token";
  if (role == "first_token") return "the first token";
  return "mixed";
}

// `off` with head (layer, head) switched the other way, in layer-major order ("" when none is off).
std::string toggled(const std::string& off, int layers, int heads, int layer, int head) {
  attn::HeadSwitch sw = attn::train::parse_heads_off(off, layers, heads);
  char& h = sw.off[static_cast<size_t>(layer)][static_cast<size_t>(head)];
  h = h ? 0 : 1;
  std::string out;
  for (const std::string& name : attn::train::heads_off_names(sw)) out += (out.empty() ? "" : ",") + name;
  return out;
}

std::string percent(float v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(v));
  return buf;
}

// The lesson's guess beside what this training produced.
void draw_jobs_found(const HeadsState& st, const Settings& s) {
  std::string found;
  for (const auto& r : st.roles) {
    if (r.role == "mixed") continue;
    double v = 0;
    for (const auto& sc : r.scores)
      if (sc.name == r.role) v = sc.value;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%shead %d.%d follows %s (%.2f)", found.empty() ? "" : "; ", r.layer, r.head,
                  role_words(r.role), v);
    found += buf;
  }
  text_wrapped(
      "The lesson guesses: \"one head may learn to link not to what it excludes; another may track which "
      "item the refund is for.\" This model (%s positions, seed %d): %s. Nobody assigned these jobs, and "
      "another seed or scheme gives others: train again and compare.",
      attn::scheme_name(s.positions).c_str(), s.seed,
      found.empty() ? "no head has one clear job; each mixes several" : found.c_str());
}

}  // namespace

void draw_heads(PanelState& ps, Settings& s, const TrainedModel& m, bool training, nlohmann::json& shown) {
  text_wrapped(
      "Where does each head look? Over the held-out emails, the mean weight its queries put on the item to "
      "refund, the item kept, \"not\", the previous token and the first token. A head whose largest share is "
      "at least 0.5 and twice the next is named by it; the others are mixed. Switch a head off (its output "
      "becomes zero) to test the name: what the model then gets wrong is what the head did.");
  if (training) {
    text_wrapped_disabled("(measured when training pauses or stops)");
    return;
  }
  const HeadsState& st = ps.heads.work(m, s.off, kBudgetMs);
  nlohmann::json& j = shown["heads_measure"];
  j["fraction"] = st.fraction;
  j["off"] = st.off;
  if (!st.error.empty()) {
    error_box(st.error);
    j["error"] = st.error;
    return;
  }
  if (!st.done) {
    request_next_frame();
    ImGui::TextDisabled("measuring the heads ... %d%%", static_cast<int>(100.0f * st.fraction));
    return;
  }
  draw_jobs_found(st, s);
  const attn::train::ModelConfig& c = m.model.config;
  nlohmann::json heads = nlohmann::json::array();
  if (begin_table("heads", {{"head", 60}, {"job", 150}, {"refund item", 90}, {"item kept", 90}, {"\"not\"", 60},
                            {"previous", 80}, {"first", 60}, {"on"}})) {
    for (const auto& r : st.roles) {
      table_row();
      table_cell();
      ImGui::Text("%d.%d", r.layer, r.head);
      table_cell();
      ImGui::TextUnformatted(role_words(r.role));
      nlohmann::json item;
      item["layer"] = r.layer;
      item["head"] = r.head;
      item["role"] = r.role;
      for (const auto& sc : r.scores) {
        table_cell();
        ImGui::Text("%.2f", sc.value);
        item["scores"][sc.name] = sc.value;
      }
      table_cell();
      bool on = true;
      for (const auto& name : st.off) on = on && name != std::to_string(r.layer) + "." + std::to_string(r.head);
      ImGui::PushID(r.layer * 1024 + r.head);
      if (ImGui::Checkbox("##on", &on)) s.off = toggled(s.off, c.layers, c.heads, r.layer, r.head);
      ImGui::PopID();
      heads.push_back(item);
    }
    end_table();
  }
  shown["heads"] = heads;
  nlohmann::json& a = shown["ablated"];
  a["off"] = st.off;
  a["test_accuracy"] = st.ablated.accuracy;
  a["flipped_pair_accuracy"] = st.ablated.pair_accuracy;
  a["test_loss"] = st.ablated.loss;
  a["clean_test_accuracy"] = st.clean.accuracy;
  a["clean_flipped_pair_accuracy"] = st.clean.pair_accuracy;
  if (st.off.empty()) {
    text_wrapped("Every head on: held-out accuracy %s, both orders of a twin right %s. Untick a head to switch it off.",
                 percent(st.clean.accuracy).c_str(), percent(st.clean.pair_accuracy).c_str());
    return;
  }
  std::string names;
  for (const auto& n : st.off) names += (names.empty() ? "" : ", ") + n;
  text_wrapped("With head%s %s off: held-out accuracy %s (every head on: %s), both orders of a twin right %s "
               "(%s).",
               st.off.size() > 1 ? "s" : "", names.c_str(), percent(st.ablated.accuracy).c_str(),
               percent(st.clean.accuracy).c_str(), percent(st.ablated.pair_accuracy).c_str(),
               percent(st.clean.pair_accuracy).c_str());
  // the typed email with those heads off
  const auto& memo = ps.off_prediction.get({m.version, s.off, s.text}, [&] {
    attn::HeadSwitch sw = attn::train::parse_heads_off(s.off, c.layers, c.heads);
    std::vector<int> ids;
    for (const auto& t : attn::train::Vocab::tokens(s.text)) ids.push_back(m.vocab.id(t));
    return m.model.predict(ids, &sw);
  });
  if (memo.ok()) {
    const attn::train::Prediction& p = memo.value();
    text_wrapped("The email above with them off: refund the %s (confidence %.3f).", label_name(m, p.label).c_str(),
                 static_cast<double>(p.confidence));
    a["label"] = label_name(m, p.label);
    a["confidence"] = p.confidence;
    a["probabilities"] = p.probabilities;
  } else {
    a["error"] = memo.error();
  }
}

}  // namespace app::train_ui
