// The Induction scene's live panels: the halves' losses and the strongest scores, every head's scores and
// name with a switch, and the grids of a held-out sequence.
#include <imgui.h>

#include <algorithm>

#include "app/logic/text.hpp"
#include "app/scenes/induction/induction.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/line_plot.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"

namespace app::induction {
namespace {

// The strongest score of the layers [from, to) at every evaluation: (E)
std::vector<float> strongest(const train_ui::Curves& c, bool induction, int from, int to, int layers,
                             int heads) {
  std::vector<float> out;
  const std::size_t n = static_cast<std::size_t>(layers * heads);
  for (std::size_t e = 0; e < c.eval_step.size() && c.scores.size() >= (e + 1) * 2 * n; ++e) {
    const float* row = c.scores.data() + e * 2 * n + (induction ? n : 0);
    out.push_back(*std::max_element(row + from * heads, row + to * heads));
  }
  return out;
}

}  // namespace

void draw_curves(const train_ui::TrainClient& ses) {
  const train_ui::Curves& c = ses.curves();
  const int layers = ses.snapshot().model.config.layers, heads = ses.snapshot().model.config.heads;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float width = std::min(avail, std::max(240.0f, (avail - 24.0f) * 0.5f));
  PlotOptions opt;
  opt.size = ImVec2(width, 150);
  opt.x_lo = 0.0f, opt.x_hi = static_cast<float>(std::max(ses.steps(), train_ui::kInductionEvalEvery));
  opt.x_name = "step";
  opt.dots = c.eval_step.size() < 30;
  ImGui::BeginGroup();
  if (c.eval_step.empty()) {
    text_wrapped("%s", ses.evaluating() ? "measuring the untrained model..." : "not measured yet");
  } else {
    text_wrapped("held-out loss at step %.0f: first half %.3f, repeat %.3f",
                 static_cast<double>(c.eval_step.back()), static_cast<double>(c.first_half.back()),
                 static_cast<double>(c.second_half.back()));
  }
  float top = 1.0f;
  for (const float v : c.first_half) top = std::max(top, v);
  opt.y_lo = 0.0f, opt.y_hi = top;
  opt.y_ticks = {0.0f, top * 0.5f, top};
  line_plot(
      "induction/loss",
      {{"first half", c.eval_step.data(), c.first_half.data(), c.first_half.size(), ink_u32(Ink::Orange)},
       {"repeat (second half)", c.eval_step.data(), c.second_half.data(), c.second_half.size(),
        ink_u32(Ink::Blue)}},
      opt);
  ImGui::EndGroup();
  same_line_if_fits(width);
  ImGui::BeginGroup();
  text_wrapped("strongest head scores (a head is named from %.1f)", attn::train::kRoleFloor);
  if (layers > 0) {
    const std::vector<float> previous = strongest(c, false, 0, 1, layers, heads);
    const std::vector<float> matching = strongest(c, true, 1, layers, layers, heads);
    PlotOptions score = opt;
    score.y_lo = 0.0f, score.y_hi = 1.0f;
    score.y_ticks = {0.0f, 0.5f, 1.0f};
    score.target = static_cast<float>(attn::train::kRoleFloor);
    line_plot("induction/scores",
              {{"previous token, layer 0", c.eval_step.data(), previous.data(), previous.size(),
                ink_u32(Ink::Magenta)},
               {"prefix matching, later layers", c.eval_step.data(), matching.data(), matching.size(),
                ink_u32(Ink::Blue)}},
              score);
  }
  ImGui::EndGroup();
  text_wrapped_disabled(
      "Cross-entropy over 16 token ids: guessing is ln 16 = 2.77. The first half stays near it; the repeat's "
      "loss falls when an induction head forms.");
}

void draw_heads(Settings& s, const train_ui::TrainClient& ses, const attn::HeadSwitch& off,
                nlohmann::json& shown) {
  const train_ui::Curves& c = ses.curves();
  if (c.eval_step.empty() || ses.snapshot().vocab.size() == 0) {
    text_wrapped_disabled("measured at the first evaluation");
    return;
  }
  const attn::train::ModelConfig& mc = ses.snapshot().model.config;
  const attn::train::InductionMetrics m = evaluation(c, c.eval_step.size() - 1, mc.layers, mc.heads);
  text_wrapped(
      "Previous token: a head's mean weight from each position to the one just before it. Prefix matching: "
      "its mean weight, in the repeat, from each token to the token right after that token's earlier copy "
      "(Olsson et al., 2022). Measured at step %.0f on 64 held-out sequences. Click a head to switch it off.",
      static_cast<double>(c.eval_step.back()));
  nlohmann::json& list = shown["heads"] = nlohmann::json::array();
  attn::HeadSwitch next = off;
  if (begin_table("induction/heads", {{"head"}, {"previous token"}, {"prefix matching"}, {"what it does"}})) {
    for (const attn::train::HeadRole& r : attn::train::induction_head_roles(m)) {
      const auto l = static_cast<std::size_t>(r.layer), h = static_cast<std::size_t>(r.head);
      const bool is_off = l < off.off.size() && h < off.off[l].size() && off.off[l][h];
      table_row();
      table_cell();
      const std::string label = format("head %d.%d %s###induction/head/%d.%d", r.layer, r.head,
                                       is_off ? "off" : "on", r.layer, r.head);
      {
        const LockScope lock(&s.off);
        if (ImGui::Selectable(label.c_str(), !is_off, 0, ImGui::CalcTextSize(label.c_str(), nullptr, true)) &&
            l < next.off.size() && h < next.off[l].size()) {
          next.off[l][h] = !is_off;
          s.off = heads_off_text(next);
        }
      }
      mark_item(label.c_str() + label.find("###") + 3);
      table_cell();
      ImGui::Text("%.2f", m.previous_token[l][h]);
      table_cell();
      ImGui::Text("%.2f", m.induction[l][h]);
      table_cell();
      ImGui::TextUnformatted(role_text(r).c_str());
      nlohmann::json& e = list.emplace_back();
      e["layer"] = r.layer;
      e["head"] = r.head;
      e["role"] = r.role;
      e["previous_token"] = m.previous_token[l][h];
      e["induction"] = m.induction[l][h];
    }
    end_table();
  }
}

void draw_grids(InductionState& st, const TrainedModel& m, const attn::HeadSwitch& off,
                const std::string& off_text, const Settings& s, nlohmann::json& shown) {
  const auto& memo = st.grids.get({m.version, off_text}, [&] { return sequence_attention(m.model, &off); });
  if (!memo.ok()) return error_box(memo.error());
  const SequenceAttention& a = memo.value();
  std::vector<std::string> labels;  // the token ids (heatmap_view copies them)
  for (std::size_t i = 0; i < a.ids.size(); ++i) labels.push_back(std::to_string(a.ids[i]));
  text_wrapped(
      "Sequence: %s. Each grid is one head: a row is a query position, a column a key (the mask hides the "
      "future). A previous-token head draws the diagonal just below the main one; an induction head, in the "
      "repeat, the stripe %zu columns left of the diagonal, one after each token's earlier copy.",
      [&] {
        std::string t;
        for (const std::string& l : labels) t += (t.empty() ? "" : " ") + l;
        return t;
      }()
          .c_str(),
      a.ids.size() / 2 - 1);
  const int heads = m.model.config.heads;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float side =
      std::clamp((avail - 16.0f * static_cast<float>(heads)) / static_cast<float>(heads), 90.0f, 220.0f);
  nlohmann::json& ids = shown["grids"] = nlohmann::json::array();
  for (std::size_t k = 0; k < a.weights.size(); ++k) {
    const int l = static_cast<int>(k) / heads, h = static_cast<int>(k) % heads;
    if (k % static_cast<std::size_t>(heads) != 0) same_line_if_fits(side + 16.0f);
    ImGui::BeginGroup();
    const bool is_off = off.is_off(l, h);
    ImGui::Text("head %d.%d%s", l, h, is_off ? " (off)" : "");
    HeatmapSpec spec = heatmap_spec(format("induction/head%d.%d", l, h), a.weights[k], memo.version(),
                                    {&labels, "query"}, {&labels, "key"}, sequential_colormap(s));
    spec.title = format("head %d.%d", l, h);
    spec.width = spec.height = side;
    spec.show_colorbar = false;
    spec.fix_range(0.0f, 1.0f);
    heatmap_view(spec);
    ImGui::EndGroup();
    ids.push_back(spec.id);
  }
}

}  // namespace app::induction
