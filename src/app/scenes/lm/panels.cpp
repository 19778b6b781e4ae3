// Real model scene's panels: the model view (every head small), one head enlarged, the heads' roles.
#include <imgui.h>

#include <algorithm>

#include "app/logic/head_measure.hpp"
#include "app/logic/lm_store.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/lm/lm.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/line_plot.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/widgets.hpp"

namespace app::lm_scene {
namespace {

const char* role_words(const std::string& role) {
  if (role == "previous_token") return "previous token";
  if (role == "induction") return "induction";
  if (role == "first_token") return "first token";
  return "mixed";
}

// The role scores of head (layer, head), or nullptr before they are measured.
const LmHeadScores* scores_of(int layer, int head) {
  for (const LmHeadScores& h : lm_store().roles) {
    if (h.layer == layer && h.head == head) return &h;
  }
  return nullptr;
}

void toggle(Settings& s, attn::HeadSwitch& off, int layer, int head) {
  const auto l = static_cast<size_t>(layer), h = static_cast<size_t>(head);
  off.off[l][h] = !off.off[l][h];
  s.off = heads_off_text(off);
}

}  // namespace

void draw_model_view(Settings& s, const LmInfo& info, const LmAnswer& a, const attn::HeadSwitch& off,
                     nlohmann::json& shown) {
  text_wrapped(
      "A row of grids per layer, one grid per head (rows: queries, columns: keys). Click one to enlarge "
      "it.%s",
      s.find == "all" ? "" : " * marks the role chosen below.");
  const float avail = ImGui::GetContentRegionAvail().x;
  const float side = std::clamp(
      (avail - 8.0f * static_cast<float>(info.heads)) / static_cast<float>(info.heads), 36.0f, 140.0f);
  nlohmann::json& ids = shown["grids"] = nlohmann::json::array();
  for (int l = 0; l < info.layers; ++l) {
    for (int h = 0; h < info.heads; ++h) {
      const size_t k = static_cast<size_t>(l * info.heads + h);
      if (k >= a.grids.size()) return;
      if (h != 0) same_line_if_fits(side + 8.0f);
      ImGui::BeginGroup();
      const LmHeadScores* r = scores_of(l, h);
      const bool marked = r && s.find != "all" && r->role == s.find;
      ImGui::Text("%d.%d%s%s", l, h, off.is_off(l, h) ? " off" : "", marked ? " *" : "");
      HeatmapSpec spec =
          heatmap_spec(format("lm/head%d.%d", l, h), a.grids[k], static_cast<std::uint64_t>(a.serial),
                       {nullptr, "query"}, {nullptr, "key"}, sequential_colormap(s));
      spec.title = format("layer %d head %d", l, h);
      spec.width = spec.height = side;
      spec.show_colorbar = false;
      spec.fix_range(0.0f, 1.0f);
      if (heatmap_view(spec).clicked) s.grid = format("%d.%d", l, h);
      ImGui::EndGroup();
      ids.push_back(spec.id);
    }
  }
}

void draw_enlarged(Settings& s, const LmInfo& info, const LmAnswer& a, attn::HeadSwitch& off,
                   nlohmann::json& shown) {
  int l = 0, h = 0;
  shown["grid"] = nullptr;
  if (!parse_grid(s.grid, info, l, h)) {
    text_wrapped("Click a grid above to see it here with the tokens on its axes.");
    return;
  }
  const size_t k = static_cast<size_t>(l * info.heads + h);
  if (k >= a.grids.size()) return;
  {
    const LockScope lock(&s.off);
    const std::string label = format("head %d.%d %s (click to switch it %s)###lm/enlarged/switch", l, h,
                                     off.is_off(l, h) ? "off" : "on", off.is_off(l, h) ? "on" : "off");
    if (ImGui::Selectable(label.c_str(), !off.is_off(l, h), 0,
                          ImGui::CalcTextSize(label.c_str(), nullptr, true)))
      toggle(s, off, l, h);
  }
  if (const LmHeadScores* r = scores_of(l, h)) {
    ImGui::SameLine();
    ImGui::Text("previous token %.2f, induction %.2f, first token %.2f: %s", r->previous_token, r->induction,
                r->first_token, role_words(r->role));
  }
  const float side = std::clamp(ImGui::GetContentRegionAvail().x - 160.0f, 200.0f, 560.0f);
  HeatmapSpec spec = heatmap_spec("lm/enlarged", a.grids[k], static_cast<std::uint64_t>(a.serial),
                                  {&a.pieces, "query"}, {&a.pieces, "key"}, sequential_colormap(s));
  spec.title = format("layer %d head %d, enlarged", l, h);
  spec.width = spec.height = side;
  spec.fix_range(0.0f, 1.0f);
  heatmap_view(spec);
  nlohmann::json& g = shown["grid"];
  g["layer"] = l;
  g["head"] = h;
  g["id"] = spec.id;
  if (a.gap_scores.size() != static_cast<size_t>(2 * kLmGaps + 1) || a.gap_key < 0 ||
      a.gap_key >= static_cast<int>(a.pieces.size()))
    return;
  // RoPE with this head's own query and key: the score depends on the gap alone
  const int i = static_cast<int>(a.ids.size()) - 1, gap = i - a.gap_key;
  text_wrapped(
      "RoPE in this head: the last query and the key it weights most ('%s', %d back), unturned, scored at "
      "every gap%s:",
      a.pieces[static_cast<size_t>(a.gap_key)].c_str(), gap,
      gap <= kLmGaps ? format(" (at %d: %.3f)", gap,
                              static_cast<double>(a.gap_scores[static_cast<size_t>(gap + kLmGaps)]))
                           .c_str()
                     : "");
  PlotOptions opt;
  opt.size = ImVec2(side, 110);
  opt.x_lo = -kLmGaps, opt.x_hi = kLmGaps;
  if (gap <= kLmGaps) opt.x_marks = {static_cast<float>(gap)};
  opt.x_name = "gap";
  line_plot("lm/rope_gap",
            {{"score", nullptr, a.gap_scores.data(), a.gap_scores.size(), ink_u32(Ink::Orange), -kLmGaps}},
            opt);
  g["rope_key"] = a.gap_key;
  g["rope_scores"] = a.gap_scores;
}

void draw_roles(Settings& s, const LmInfo& info, attn::HeadSwitch& off, nlohmann::json& shown) {
  const LmStore& store = lm_store();
  nlohmann::json& heads = shown["roles"] = nlohmann::json::array();
  if (store.roles_model != info.model) {
    text_wrapped_disabled("measuring...");
    return;
  }
  text_wrapped(
      "On %d random ids repeated once (seed %d), each head's mean weight on the previous token; in the "
      "repeat, on the token after the earlier copy (induction); on the first token. A score of 0.5 and twice "
      "the next names the head. Click a head to switch it off or on.",
      store.segment, s.seed);
  {
    const LockScope lock(&s.find);
    const char* roles[] = {"all", "previous_token", "induction", "first_token"};
    ImGui::SetNextItemWidth(200);
    if (begin_combo("find heads by role",
                    role_words(s.find) == std::string("mixed") ? "all" : role_words(s.find))) {
      for (const char* r : roles) {
        if (ImGui::Selectable(r == std::string("all") ? "all" : role_words(r), s.find == r)) s.find = r;
      }
      ImGui::EndCombo();
    }
  }
  // with a role chosen: only its heads
  int named = 0, shown_rows = 0;
  for (const LmHeadScores& r : store.roles) {
    named += r.role != "mixed";
    shown_rows += s.find == "all" || r.role == s.find;
  }
  if (shown_rows == 0) text_wrapped("No head is named %s.", role_words(s.find));
  for (const LmHeadScores& r : store.roles) {  // reported whether or not the table is on screen
    nlohmann::json& e = heads.emplace_back();
    e["layer"] = r.layer;
    e["head"] = r.head;
    e["role"] = r.role;
    e["scores"]["previous_token"] = r.previous_token;
    e["scores"]["induction"] = r.induction;
    e["scores"]["first_token"] = r.first_token;
  }
  if (!begin_table("lm/roles", {{"head"}, {"previous token"}, {"induction"}, {"first token"}, {"role"}}, 12))
    return;
  for (const LmHeadScores& r : store.roles) {
    if (s.find != "all" && r.role != s.find) continue;
    table_row();
    table_cell();
    const bool is_off = off.is_off(r.layer, r.head);
    const std::string label =
        format("head %d.%d %s###lm/head/%d.%d", r.layer, r.head, is_off ? "off" : "on", r.layer, r.head);
    {
      const LockScope lock(&s.off);
      if (ImGui::Selectable(label.c_str(), !is_off, 0, ImGui::CalcTextSize(label.c_str(), nullptr, true)))
        toggle(s, off, r.layer, r.head);
    }
    for (float v : {r.previous_token, r.induction, r.first_token}) {
      table_cell();
      ImGui::Text("%.2f", v);
    }
    table_text(role_words(r.role));
  }
  end_table();
  text_wrapped("%d of %zu heads have one clear job by this rule.", named, store.roles.size());
}

}  // namespace app::lm_scene
