// The Train scene's panels: learning curves, any email's prediction, the order-flipped pair, model files.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/logic/memo.hpp"
#include "app/platform_io.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/line_plot.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

namespace app::train_ui {
namespace {

const ImVec4 kGood(0.45f, 0.9f, 0.45f, 1.0f);
const ImVec4 kBad(1.0f, 0.6f, 0.3f, 1.0f);

// x with `digits` (3 significant, or decimals when fixed), more while a value below 1 would read as 1.
std::string figure(double x, int digits = 3, bool fixed = false, double scale = 1.0) {
  char buf[32];
  for (;; ++digits) {
    std::snprintf(buf, sizeof buf, fixed ? "%.*f" : "%.*g", digits, x * scale);
    if (x >= 1.0 || std::strtod(buf, nullptr) < scale || digits >= 9) return buf;
  }
}

using PredictionMemo = PanelState::PredictionMemo;

// One bar per class, the predicted one in green, in columns (label, bar) of `rows` lines: two when they
// fit, else one with bars as wide as the room allows.
void probability_bars(const TrainedModel& m, const attn::train::Prediction& p) {
  const int n = static_cast<int>(p.probabilities.size());
  float label_w = 0.0f;
  for (int c = 0; c < n; ++c) label_w = std::max(label_w, ImGui::CalcTextSize(label_name(m, c).c_str()).x);
  const float spacing = ImGui::GetStyle().ItemSpacing.x, avail = ImGui::GetContentRegionAvail().x;
  const bool two = 2.0f * (label_w + 220.0f) + 5.0f * spacing <= avail;
  const int rows = two ? (n + 1) / 2 : n;
  const float bar_w = two ? 220.0f : std::clamp(avail - label_w - spacing, 80.0f, 220.0f);
  for (int r = 0; r < rows; ++r) {
    for (int c = r, k = 0; c < n; c += rows, ++k) {
      const bool top = c == p.label;
      if (k > 0) ImGui::SameLine(static_cast<float>(k) * (label_w + bar_w + 3.0f * spacing));
      ImGui::TextColored(top ? kGood : ImGui::GetStyleColorVec4(ImGuiCol_Text), "%s",
                         label_name(m, c).c_str());
      ImGui::SameLine(static_cast<float>(k) * (label_w + bar_w + 3.0f * spacing) + label_w + spacing);
      char overlay[16];
      std::snprintf(overlay, sizeof overlay, "%.3f",
                    static_cast<double>(p.probabilities[static_cast<size_t>(c)]));
      if (top) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ink(Ink::Right));
      ImGui::ProgressBar(p.probabilities[static_cast<size_t>(c)], ImVec2(bar_w, ImGui::GetTextLineHeight()),
                         overlay);
      if (top) ImGui::PopStyleColor();
    }
  }
}

// The first held-out twin about the cake with the first template ("Refund the X, not the Y."), both orders.
std::vector<attn::train::Example> refund_pair() {
  const auto& test = refund_data().test;
  for (const auto& e : test) {
    if (e.template_id != 0 || e.order != 0 || e.text.find("cake") == std::string::npos) continue;
    for (const auto& f : test) {
      if (f.pair == e.pair && f.template_id == 0 && f.order == 1) return {e, f};
    }
  }
  return {test[0], test[1]};
}

std::string info_line(const nlohmann::json& info) {
  if (!info.is_object() || info.empty()) return "The file says nothing about how the model was trained.";
  std::string out = "The file says: ";
  char buf[160];
  if (info.contains("positions") && info["positions"].is_string())
    out += info["positions"].get<std::string>() + " positions, ";
  if (info.contains("steps") && info["steps"].is_number())
    out += "trained for " + info["steps"].dump() + " steps";
  if (info.contains("seconds") && info["seconds"].is_number()) {
    std::snprintf(buf, sizeof buf, " in %.1f s", info["seconds"].get<double>());
    out += buf;
  }
  const nlohmann::json& mt = info.contains("metrics") && info["metrics"].is_object() ? info["metrics"] : info;
  auto num = [&](const char* k) { return mt.contains(k) && mt[k].is_number() ? mt[k].get<double>() : -1.0; };
  if (num("test_accuracy") >= 0) {
    std::snprintf(buf, sizeof buf, "; held-out accuracy %.1f%%", 100.0 * num("test_accuracy"));
    out += buf;
  }
  if (num("flipped_pair_accuracy") >= 0) {
    std::snprintf(buf, sizeof buf, ", both orders right for %.1f%% of the twins",
                  100.0 * num("flipped_pair_accuracy"));
    out += buf;
  }
  return out + ".";
}

}  // namespace

std::string percent(float x) {
  return figure(static_cast<double>(x), 1, true, 100.0) + "%";
}

const PredictionMemo& predict(PredictionMemo& memo, const TrainedModel& m, const std::string& text,
                              const attn::HeadSwitch* off, const std::string& off_key) {
  return memo.get({m.version, off_key + "\n" + text},
                  [&] { return attn::train::predict_text(m.model, m.vocab, text, off); });
}

const std::string& label_name(const TrainedModel& m, int label) {
  static const std::string unknown = "?";
  return label >= 0 && label < static_cast<int>(m.labels.size()) ? m.labels[static_cast<size_t>(label)]
                                                                 : unknown;
}

void draw_curves(const TrainClient& ses) {
  const Curves& c = ses.curves();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float width = std::min(avail, std::max(240.0f, (avail - 24.0f) * 0.5f));  // two side by side, or one
  const float x_max = static_cast<float>(std::max(ses.steps(), kEvalEvery));
  float loss_max = 0.5f;
  for (size_t i = 0; i < std::min<size_t>(c.loss.size(), 50); ++i) loss_max = std::max(loss_max, c.loss[i]);
  ImGui::BeginGroup();
  if (ses.steps() > 0) {
    text_wrapped("loss (cross-entropy of each batch of 32): %.4f", static_cast<double>(ses.last_loss()));
  } else {
    text_wrapped("loss (cross-entropy of each batch of 32): no step yet");
  }
  PlotOptions loss_opt;
  loss_opt.size = ImVec2(width, 150);
  loss_opt.x_lo = 1.0f, loss_opt.x_hi = x_max;
  loss_opt.y_lo = 0.0f, loss_opt.y_hi = loss_max;
  loss_opt.y_ticks = {0.0f, loss_max * 0.5f, loss_max};
  loss_opt.x_name = "step";
  line_plot("loss", {{"loss", nullptr, c.loss.data(), c.loss.size(), ink_u32(Ink::Orange), 1.0f}}, loss_opt);
  ImGui::EndGroup();
  same_line_if_fits(width);
  ImGui::BeginGroup();
  const attn::train::Metrics& mt = ses.metrics();
  if (ses.metrics_step() < 0) {
    text_wrapped("%s", ses.evaluating() ? "accuracy: evaluating the untrained model..."
                                        : "accuracy: not evaluated yet");
  } else {
    text_wrapped("accuracy at step %d: held-out %s, flipped pairs %s, training %s%s", ses.metrics_step(),
                 percent(mt.test_accuracy).c_str(), percent(mt.flipped_pair_accuracy).c_str(),
                 percent(mt.train_accuracy).c_str(),
                 ses.train_metrics_step() == ses.metrics_step()
                     ? ""
                     : (" (step " + std::to_string(ses.train_metrics_step()) + ")").c_str());
  }
  PlotOptions acc_opt = loss_opt;
  acc_opt.x_lo = 0.0f;
  acc_opt.y_lo = 0.0f, acc_opt.y_hi = 1.0f;
  acc_opt.y_ticks = {0.0f, 0.5f, 1.0f};
  acc_opt.target = kTarget;
  line_plot("accuracy",
            {{"held-out emails", c.eval_step.data(), c.test_accuracy.data(), c.test_accuracy.size(),
              ink_u32(Ink::Blue)},
             {"both orders of a twin", c.eval_step.data(), c.flipped.data(), c.flipped.size(),
              ink_u32(Ink::Magenta)},
             {"training emails", c.train_step.data(), c.train_accuracy.data(), c.train_accuracy.size(),
              ink_u32(Ink::Grey)}},
            acc_opt);
  ImGui::EndGroup();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped(
      "Held-out emails use item pairs the model never saw in training. A twin counts as right only when both "
      "orders get their own label; a model blind to order can get at most one of the two (50%% of emails, "
      "0%% "
      "of twins). The two orders of a twin get probabilities up to %s apart (for a model blind to order, "
      "0).",
      figure(static_cast<double>(mt.max_pair_difference)).c_str());
  ImGui::PopStyleColor();
}

std::string draw_prediction(PanelState& ps, Settings& s, const TrainedModel& m, nlohmann::json& shown) {
  PredictionMemo& memo = ps.prediction;
  ImGui::SetNextItemWidth(-80);
  text_field("email", "type any email, e.g. Refund the candles, not the hamper.", s.text);
  if (!predict(memo, m, s.text).ok()) {
    error_box(memo.error());
    nlohmann::json& j = shown["prediction"];  // key by key: initializer lists cost the page more code
    j["text"] = s.text;
    j["error"] = memo.error();
    return memo.error();
  }
  const attn::train::TextPrediction& tp = memo.value();
  std::string tokens, unknown;
  for (size_t i = 0; i < tp.tokens.size(); ++i) {
    tokens += "[" + tp.tokens[i] + "] ";
    if (tp.ids[i] == 0) unknown += (unknown.empty() ? "" : ", ") + tp.tokens[i];
  }
  text_wrapped("tokens: %s", tokens.c_str());
  if (!unknown.empty())
    text_wrapped_disabled("not in the model's vocabulary (read as <unk>): %s", unknown.c_str());
  const attn::train::Prediction& p = tp.prediction;
  text_wrapped("refund the: %s   (confidence %.3f)", label_name(m, p.label).c_str(),
               static_cast<double>(p.confidence));
  probability_bars(m, p);
  nlohmann::json& j = shown["prediction"];
  j["text"] = s.text;
  j["tokens"] = tp.tokens;
  j["label"] = label_name(m, p.label);
  j["label_index"] = p.label;
  j["confidence"] = p.confidence;
  j["probabilities"] = p.probabilities;
  return "";
}

void draw_pair(PanelState& ps, const TrainedModel& m, nlohmann::json& shown) {
  static const std::vector<attn::train::Example> pair = refund_pair();
  PredictionMemo &a = ps.pair_a, &b = ps.pair_b;
  if (!predict(a, m, pair[0].text).ok() || !predict(b, m, pair[1].text).ok()) {
    error_box(a.ok() ? b.error() : a.error());
    return;
  }
  nlohmann::json list = nlohmann::json::array();
  float diff = 0.0f;
  const auto& pa = a.value().prediction.probabilities;
  const auto& pb = b.value().prediction.probabilities;
  for (size_t c = 0; c < pa.size() && c < pb.size(); ++c) diff = std::max(diff, std::fabs(pa[c] - pb[c]));
  if (begin_table("pair", {{"email (held out)", 300}, {"should refund"}, {"model says"}, {"confidence"}})) {
    for (size_t i = 0; i < 2; ++i) {
      const attn::train::Prediction& p = (i ? b : a).value().prediction;
      const bool right = p.label == pair[i].label;
      table_row();
      table_cell();
      ImGui::TextUnformatted(pair[i].text.c_str());
      table_cell();
      ImGui::TextUnformatted(label_name(m, pair[i].label).c_str());
      table_cell();
      ImGui::TextColored(right ? kGood : kBad, "%s %s", label_name(m, p.label).c_str(),
                         right ? "(right)" : "(wrong)");
      table_cell();
      ImGui::Text("%.6f", static_cast<double>(p.confidence));
      nlohmann::json& j = list.emplace_back();  // key by key: initializer lists cost the page more code
      j["text"] = pair[i].text;
      j["label"] = label_name(m, p.label);
      j["confidence"] = p.confidence;
      j["probabilities"] = p.probabilities;
      j["expected"] = label_name(m, pair[i].label);
      j["correct"] = right;
    }
    end_table();
  }
  text_wrapped("largest difference between their probabilities: %s",
               figure(static_cast<double>(diff)).c_str());
  const attn::train::ModelConfig& c = m.model.config;
  // a model made in this session is untrained while the evaluation it was published at is at step 0
  const bool untrained = !m.from_file && m.info.is_object() && m.info.value("steps", 1) == 0;
  if (diff < 1e-6f) {
    text_wrapped_disabled(
        "Identical: %s. Both get one confidence, %.3f: %s model's value of the lesson's \"same label, same "
        "confidence\" (the lesson's 0.87 was an illustration).",
        c.positions == attn::Scheme::None && !c.causal ? "the model cannot tell the two orders apart, so at "
                                                         "most one of them can be right, however long it "
                                                         "trains"
                                                       : "for this pair its positions made no difference",
        static_cast<double>(a.value().prediction.confidence),
        untrained ? "this untrained (freshly seeded)" : "this trained");
  } else if (c.positions == attn::Scheme::None && !c.causal) {
    text_wrapped_disabled("Different only by float rounding: this model has no positions.");
  } else {
    text_wrapped_disabled("Different: the model reads word order, so both can be right.");
  }
  shown["pair"] = list;
  shown["pair_difference"] = diff;
}

void draw_model_file(SceneContext& ctx, PanelState& ps, const TrainedModel* m) {
  std::string &path = ps.path, &status = ps.open.text;
  bool& status_ok = ps.open.ok;
  const bool browser = files_are_picked();
  if (!browser) {
    ImGui::SetNextItemWidth(260);
    ImGui::InputText("file", &path);
    ImGui::SameLine();
  }
  ImGui::BeginDisabled(!m);
  if (ImGui::Button(browser ? "Download model.json" : "Save") && m) {
    try {
      const std::string where = save_text_file(browser ? "model.json" : path, model_file_text(*m));
      status_ok = !where.empty();
      status = where.empty()         ? "could not write " + path
               : where == "download" ? "downloaded model.json"
                                     : "saved to " + where;
    } catch (const attn::InputError& e) {
      status_ok = false;
      status = e.what();
    }
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(browser ? "Open a model file..." : "Open")) {
    // the app opens it after the frame: a loaded model is reported below from the next frame on
    SceneAction open;
    open.kind = SceneAction::Kind::OpenModelFile;
    open.path = path;
    open.status = &ps.open;
    ctx.act(std::move(open));
  }
  help_marker(
      "A model file holds the model's settings, its vocabulary, labels and every weight (JSON). The same "
      "file opens in the browser, the desktop app and attention_cli.");
  long long& seen_attempt = ps.seen_attempt;
  const ModelLoadStatus& load = last_model_load();
  if (load.attempt != seen_attempt) {
    seen_attempt = load.attempt;
    status = load.message, status_ok = load.ok;
  }
  if (!load.progress.empty()) {
    text_wrapped_disabled("%s", load.progress.c_str());
    if (load.fraction >= 0) ImGui::ProgressBar(load.fraction, ImVec2(-1, 0), "");
  } else if (!status.empty()) {
    ImGui::TextColored(status_ok ? kGood : kBad, "%s", status.c_str());
  }
  if (m && m->from_file) {
    const int layers = m->model.config.layers;
    text_wrapped("This model (%d attention layer%s) was loaded from %s. %s", layers, layers == 1 ? "" : "s",
                 m->source.c_str(), info_line(m->info).c_str());
    text_wrapped_disabled("Train or Reset starts a new model with these settings.");
  }
}

}  // namespace app::train_ui
