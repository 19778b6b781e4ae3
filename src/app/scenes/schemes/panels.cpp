// The schemes scene's lower panels: offset profiles per scheme, RoPE's gap-only score, the learned table
// limit.
#include "app/scenes/schemes/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>

#include "app/widgets/attention_controls.hpp"
#include "app/logic/captions.hpp"
#include "core/error.hpp"
#include "core/scheme_probe.hpp"
#include "core/tokenizer.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/widgets.hpp"

namespace app::schemes {
namespace {

// Offset profiles go into ctx.shown only up to this many tokens (heatmaps() has them all).
constexpr int kMaxShownTokens = 64;

// One colour per scheme, in pipeline_schemes() order: none, sinusoidal, learned, rope, alibi.
const ImU32 kSchemeColours[] = {IM_COL32(170, 170, 170, 255), IM_COL32(90, 160, 240, 255),
                                IM_COL32(110, 200, 110, 255), IM_COL32(240, 150, 60, 255),
                                IM_COL32(220, 100, 200, 255)};

ImU32 scheme_colour(size_t i) {
  return kSchemeColours[i % (sizeof kSchemeColours / sizeof kSchemeColours[0])];
}

// The finite range of m, widened when flat.
void finite_range(const attn::Mat& m, float& lo, float& hi) {
  lo = INFINITY, hi = -INFINITY;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    if (std::isfinite(m.data()[i])) lo = std::min(lo, m.data()[i]), hi = std::max(hi, m.data()[i]);
  }
  if (!(lo <= hi)) lo = 0.0f, hi = 1.0f;
  if (hi - lo < 1e-6f) lo -= 0.5f, hi += 0.5f;
}

// One line per row of `rows` (schemes x offsets), skipping non-finite points; hover shows every value.
void line_chart(const char* id, const char* title, const attn::Mat& rows,
                const std::vector<std::string>& names, int t, ImVec2 size) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = p.x + 52.0f, right = p.x + size.x - 6.0f, top = p.y + 4.0f,
              bottom = p.y + size.y - 18.0f;
  float lo = 0, hi = 1;
  finite_range(rows, lo, hi);
  const auto n = static_cast<int>(rows.cols());
  auto x_of = [&](int i) {
    return n > 1 ? left + (right - left) * static_cast<float>(i) / static_cast<float>(n - 1)
                 : 0.5f * (left + right);
  };
  auto y_of = [&](float v) { return bottom - (bottom - top) * (v - lo) / (hi - lo); };
  dl->AddRectFilled(ImVec2(left, top), ImVec2(right, bottom), IM_COL32(30, 32, 38, 255));
  if (lo < 0.0f && hi > 0.0f)
    dl->AddLine(ImVec2(left, y_of(0.0f)), ImVec2(right, y_of(0.0f)), IM_COL32(90, 90, 100, 255));
  dl->AddLine(ImVec2(x_of(t - 1), top), ImVec2(x_of(t - 1), bottom), IM_COL32(90, 90, 100, 255));
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    const ImU32 col = scheme_colour(static_cast<size_t>(r));
    for (int i = 0; n <= 33 && i < n; ++i) {  // dots too, while there is room for them
      if (std::isfinite(rows(r, i))) dl->AddCircleFilled(ImVec2(x_of(i), y_of(rows(r, i))), 2.5f, col);
    }
    for (int i = 0; i + 1 < n; ++i) {
      const float a = rows(r, i), b = rows(r, i + 1);
      if (!std::isfinite(a) || !std::isfinite(b)) continue;
      dl->AddLine(ImVec2(x_of(i), y_of(a)), ImVec2(x_of(i + 1), y_of(b)), col, 2.0f);
    }
  }
  char buf[64];
  const ImU32 text = IM_COL32(200, 200, 200, 255);
  std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(hi));
  dl->AddText(ImVec2(p.x, top), text, buf);
  std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(lo));
  dl->AddText(ImVec2(p.x, bottom - ImGui::GetTextLineHeight()), text, buf);
  std::snprintf(buf, sizeof buf, "%d", -(t - 1));
  dl->AddText(ImVec2(left, bottom + 2.0f), text, buf);
  dl->AddText(ImVec2(x_of(t - 1) - 4.0f, bottom + 2.0f), text, "0");
  std::snprintf(buf, sizeof buf, "%d", t - 1);
  dl->AddText(ImVec2(right - ImGui::CalcTextSize(buf).x, bottom + 2.0f), text, buf);
  if (hovered && n > 0) {
    const float f =
        (ImGui::GetIO().MousePos.x - left) / std::max(1.0f, right - left) * static_cast<float>(n - 1);
    const int i = std::clamp(static_cast<int>(std::lround(f)), 0, n - 1);
    dl->AddLine(ImVec2(x_of(i), top), ImVec2(x_of(i), bottom), IM_COL32(255, 255, 255, 120));
    ImGui::BeginTooltip();
    ImGui::Text("offset i - j = %d", i - (t - 1));
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(scheme_colour(static_cast<size_t>(r))), "%s: %.4f",
                         names[static_cast<size_t>(r)].c_str(), static_cast<double>(rows(r, i)));
    }
    ImGui::EndTooltip();
  }
  for (size_t r = 0; r < names.size(); ++r) {
    if (r) ImGui::SameLine();
    const bool empty = !rows.row(static_cast<Eigen::Index>(r)).array().isFinite().any();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(scheme_colour(r)), "%s%s", names[r].c_str(),
                       empty ? " (failed)" : "");
  }
  ImGui::EndGroup();
}

void offset_heatmap(const Settings& s, const SchemesData& d, const char* what, const attn::Mat& m,
                    bool scores, float width) {
  HeatmapSpec spec;
  spec.id = std::string("schemes/") + what;
  spec.values = &m;
  spec.row_labels = d.scheme_names;
  spec.col_labels = d.offset_labels;
  spec.row_title = "scheme";
  spec.col_title = "offset i - j";
  spec.colormap = scores ? gfx::Colormap::Diverging : sequential_colormap(s);
  spec.width = width;
  spec.height = 5.0f * 22.0f;
  heatmap_view(spec);
}

std::vector<float> profile_values(const attn::OffsetProfile& p) {
  return p.mean;
}

}  // namespace

void draw_offsets(const Settings& s, const SchemesData& d, bool open, nlohmann::json& shown) {
  const int t = static_cast<int>(d.tokens.size());
  nlohmann::json off = nlohmann::json::object();
  if (t <= kMaxShownTokens) {
    for (const SchemeView& v : d.views) {
      off[v.name] = {{"weights", profile_values(v.weight_offsets)},
                     {"scores", profile_values(v.score_offsets)}};
    }
  } else {
    off["note"] =
        "omitted above 64 tokens; the heatmaps schemes/offset_weights and schemes/offset_scores hold them";
  }
  shown["offsets"] = off;
  if (!open) return;
  if (!d.causal) {
    text_wrapped(
        "Each point is the mean over one diagonal of the grid: all query/key pairs i - j apart (positive: "
        "the "
        "key comes earlier). Look for: ALiBi falling off on both sides as the distance grows; RoPE's scores "
        "changing with the offset itself; no positions giving a profile that is flat in expectation at every "
        "offset except 0. At offset 0 each token's query meets its own key, made from the same vector, so "
        "that "
        "score has its own expected level (up or down, set by the weights); at every other offset the bumps "
        "come only from which words happen to sit that far apart, and moving the words would move them.");
  } else {
    text_wrapped(
        "Each point is the mean over one diagonal of the grid: all query/key pairs i - j apart. With the "
        "causal "
        "mask a query sees only itself and earlier keys, so only offsets 0 and above have points, and row i "
        "spreads its weight over i + 1 keys: the mean weight falls with the offset for every scheme, "
        "positions "
        "or not, because the long offsets belong to the late rows with many keys. Compare the schemes with "
        "each "
        "other here, not with a flat line; switch causal off to see each scheme's own shape.");
  }
  ImGui::Text("ALiBi in head %d of %d subtracts %.4g x |i - j| from each score: %.3g at distance %d.", d.head,
              d.heads, static_cast<double>(attn::Alibi{d.heads}.slope(d.head)),
              static_cast<double>(attn::Alibi{d.heads}.slope(d.head)) * std::max(0, t - 1),
              std::max(0, t - 1));
  const float avail = ImGui::GetContentRegionAvail().x;
  const float w = std::max(240.0f, (avail - 30.0f) * 0.5f);
  line_chart("offset_weights_chart", "mean weight", d.offset_weights, d.scheme_names, t, ImVec2(w, 170.0f));
  if (avail > 2.0f * 240.0f + 30.0f) ImGui::SameLine(0, 30.0f);
  line_chart("offset_scores_chart", "mean raw score (before softmax)", d.offset_scores, d.scheme_names, t,
             ImVec2(w, 170.0f));
  const float hw =
      std::clamp(static_cast<float>(2 * t - 1) * 22.0f, 200.0f, std::max(200.0f, avail - 240.0f));
  ImGui::Text("The same numbers as heatmaps (weights: lowest to highest mean; scores: diverging around 0)");
  offset_heatmap(s, d, "offset_weights", d.offset_weights, false, hw);
  offset_heatmap(s, d, "offset_scores", d.offset_scores, true, hw);
}

// [SECTION] RoPE: one query and one key, moved together

namespace {

struct ShiftedPair {
  int pos, pos2;
  float score;
};

// RoPE numbers for the probe vectors at the chosen positions; rebuilt when they or the probe change.
struct RopeData {
  int version = -1, pos = -1, pos2 = -1;
  float score = 0, unrotated = 0, moved_key = 0;
  std::vector<ShiftedPair> shifted;  // (pos - k, pos2 - k) for a few shifts k
  std::vector<float> by_gap;         // score at gap g = -kGaps .. kGaps
  std::string error;
};
constexpr int kGaps = 32;

void update_rope(RopeData& r, const SchemesData& d, int pos, int pos2) {
  if (r.version == d.version && r.pos == pos && r.pos2 == pos2) return;
  r = RopeData();
  r.version = d.version, r.pos = pos, r.pos2 = pos2;
  if (!d.probe_error.empty() || d.q.size() == 0) {
    r.error =
        d.probe_error.empty() ? "the RoPE run failed, so there is no query and key to turn" : d.probe_error;
    return;
  }
  try {
    r.score = attn::rope_score(d.q, d.k, pos, pos2, d.base);
    r.unrotated = attn::rope_score(d.q, d.k, 0, 0, d.base);  // no turn at all: q.k / sqrt(d_k)
    r.moved_key = attn::rope_score(d.q, d.k, pos, pos2 + 1, d.base);
    for (int k : {1, 3, 5, std::min(pos, pos2), -100}) {
      const bool seen = std::any_of(r.shifted.begin(), r.shifted.end(),
                                    [&](const ShiftedPair& p) { return p.pos == pos - k; });
      if (k == 0 || seen || pos - k < 0 || pos2 - k < 0) continue;
      r.shifted.push_back({pos - k, pos2 - k, attn::rope_score(d.q, d.k, pos - k, pos2 - k, d.base)});
    }
    for (int g = -kGaps; g <= kGaps; ++g) {
      r.by_gap.push_back(attn::rope_score(d.q, d.k, std::max(g, 0), std::max(-g, 0), d.base));
    }
  } catch (const attn::InputError& e) {
    r.error = e.what();
  }
}

void rope_table(const RopeData& r) {
  if (!ImGui::BeginTable("rope_shifts", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg, ImVec2(560, 0)))
    return;
  for (const char* h : {"query position", "key position", "gap", "score", "difference"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  auto row = [&](int p, int p2, float score) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", p);
    ImGui::TableNextColumn();
    ImGui::Text("%d", p2);
    ImGui::TableNextColumn();
    ImGui::Text("%d", p - p2);
    ImGui::TableNextColumn();
    ImGui::Text("%.4f", static_cast<double>(score));
    ImGui::TableNextColumn();
    ImGui::Text("%.1e", static_cast<double>(std::fabs(score - r.score)));
  };
  row(r.pos, r.pos2, r.score);
  for (const ShiftedPair& p : r.shifted) row(p.pos, p.pos2, p.score);
  ImGui::EndTable();
}

}  // namespace

void draw_rope(Settings& s, const SchemesData& d, bool open, nlohmann::json& shown) {
  static RopeData r;
  update_rope(r, d, s.pos, s.pos2);
  if (r.error.empty()) {
    nlohmann::json shifted = nlohmann::json::array();
    for (const ShiftedPair& p : r.shifted)
      shifted.push_back({{"pos", p.pos}, {"pos2", p.pos2}, {"score", p.score}});
    shown["rope"] = {{"pos", r.pos},     {"pos2", r.pos2},     {"gap", r.pos - r.pos2},
                     {"score", r.score}, {"shifted", shifted}, {"unrotated", r.unrotated},
                     {"head", d.head}};
  } else {
    shown["rope"] = {{"pos", r.pos}, {"pos2", r.pos2}, {"error", r.error}};
  }
  if (!open) return;
  text_wrapped(
      "RoPE turns each pair of a query's numbers by (position x speed) and the key's pairs by its "
      "own position, then takes the dot product. The two turns partly cancel: only the gap "
      "between the positions is left.");
  const std::string& qt = d.tokens.front();
  const std::string& kt = d.tokens[static_cast<size_t>(d.k_index)];
  text_wrapped(
      "Query: token 0 '%s', key: token %d '%s', both of head %d before rotation (%d numbers "
      "each). Move them anywhere:",
      qt.c_str(), d.k_index, kt.c_str(), d.head, static_cast<int>(d.q.size()));
  ImGui::SetNextItemWidth(260);
  ImGui::SliderInt("query position", &s.pos, 0, 2048, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine(0, 30);
  ImGui::SetNextItemWidth(260);
  ImGui::SliderInt("key position", &s.pos2, 0, 2048, "%d", ImGuiSliderFlags_AlwaysClamp);
  if (!r.error.empty()) {
    error_box(r.error);
    return;
  }
  ImGui::Text("Query at %d, key at %d (gap %d): score %.4f", r.pos, r.pos2, r.pos - r.pos2,
              static_cast<double>(r.score));
  if (!r.shifted.empty()) {
    const ShiftedPair& p = r.shifted[std::min<size_t>(2, r.shifted.size() - 1)];
    ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1), "%d and %d score the same as %d and %d: %.4f", r.pos,
                       r.pos2, p.pos, p.pos2, static_cast<double>(p.score));
  }
  ImGui::Text("Move only the key, to %d (gap %d): %.4f - a different gap, a different score.", r.pos2 + 1,
              r.pos - r.pos2 - 1, static_cast<double>(r.moved_key));
  ImGui::Text("Without rotation (q . k / sqrt(d_k)): %.4f, the same at every pair of positions.",
              static_cast<double>(r.unrotated));
  rope_table(r);
  ImGui::Text("Score against the gap (query position - key position, %d to %d):", -kGaps, kGaps);
  ImGui::PlotLines("##rope_gap", r.by_gap.data(), static_cast<int>(r.by_gap.size()), 0, nullptr, FLT_MAX,
                   FLT_MAX, ImVec2(560, 90));
  const int gap = r.pos - r.pos2;
  if (gap >= -kGaps && gap <= kGaps) {  // mark the current gap on the plot
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float x = a.x + (b.x - a.x) * static_cast<float>(gap + kGaps) / static_cast<float>(2 * kGaps);
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(120, 230, 120, 200), 2.0f);
  }
}

// [SECTION] Learned table limits: the long email

namespace {

struct LimitRun {
  std::string error;
  float entropy = 0;
};

// The long email through learned, sinusoidal and RoPE positions; rebuilt when its inputs change.
struct LimitsData {
  int version = -1, length = -1;
  int tokens = 0, dropped = 0;
  std::string error;  // the text itself could not be used
  LimitRun learned, sinusoidal, rope;
  std::string past_end;  // the learned table's error for position `slots`, the first one past its end
  bool causal = false;
  attn::HeadStats even{};  // even attention over `tokens` keys (the entropy baseline)
};

LimitRun run_long(const std::vector<std::string>& email, const attn::PipelineConfig& c,
                  const attn::MhaWeights& w, int head, LimitsData& l) {
  LimitRun run;
  try {
    const attn::PipelineResult r = attn::run_pipeline(email, c, &w);
    run.entropy = r.stats[static_cast<size_t>(head)].entropy;
    l.tokens = static_cast<int>(r.tokens.size());
    l.dropped = r.dropped_tokens;
  } catch (const attn::InputError& e) {
    run.error = e.what();
  } catch (const std::bad_alloc&) {
    run.error = "this is too large to compute here; try fewer tokens or a smaller d_model";
  }
  return run;
}

// What the learned table says when asked for position `slots`, the first one past its end ("" if it
// answered). Asked directly, so it shows even where a text would be cut at kMaxTokens first.
std::string past_end_error(const attn::PipelineConfig& c) {
  try {
    attn::Learned(c.learned_slots, 1, c.seed).table({c.learned_slots});  // width 1: the answer is the same
  } catch (const attn::InputError& e) {
    return e.what();
  }
  return "";
}

void update_limits(LimitsData& l, const SchemesData& d, const Settings& s) {
  if (l.version == d.version && l.length == s.length) return;
  l = LimitsData();
  l.version = d.version, l.length = s.length;
  try {
    const std::vector<std::string> email = attn::repeat_tokens(attn::tokenize(s.text), s.length);
    const attn::MhaWeights w = attn::scene_weights(pipeline_config(s));  // one draw for all three runs
    l.learned = run_long(email, pipeline_config(s, attn::Scheme::Learned), w, d.head, l);
    l.sinusoidal = run_long(email, pipeline_config(s, attn::Scheme::Sinusoidal), w, d.head, l);
    l.rope = run_long(email, pipeline_config(s, attn::Scheme::Rope), w, d.head, l);
  } catch (const attn::InputError& e) {
    l.error = e.what();
  }
  l.past_end = past_end_error(pipeline_config(s, attn::Scheme::Learned));
  l.causal = s.causal;
  if (l.tokens > 0) l.even = attn::head_stats(attn::even_weights(l.tokens, l.causal));
}

void limit_row(const char* name, const LimitRun& run, const LimitsData& l, int head) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  if (!run.error.empty()) {
    error_box(run.error);
    return;
  }
  ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1),
                     "ok: %d tokens, entropy of head %d = %.3f (even attention: %s)", l.tokens, head,
                     static_cast<double>(run.entropy), even_entropy(l.tokens, l.causal, l.even).c_str());
}

nlohmann::json run_json(const LimitRun& run) {
  nlohmann::json j = {{"ok", run.error.empty()}, {"error", run.error}};
  if (run.error.empty()) j["entropy"] = run.entropy;
  return j;
}

// Real tables' sizes: buttons that set the slots and a text one token longer than the table.
void draw_presets(Settings& s) {
  ImGui::TextUnformatted("Real tables have fixed sizes:");
  for (const SlotPreset& p : learned_slot_presets()) {
    ImGui::SameLine();
    if (ImGui::SmallButton(p.label)) apply_slot_preset(s, p);
  }
  help_marker(
      "Each button sets the table's slots and an email one token longer, so its last token needs the first "
      "slot past the end, and the line under the table asks the table for that position directly. BERT "
      "learned 512 slots and GPT-2 1,024: there is no vector for slot 1,025. (This app runs at most 1,024 "
      "tokens, so the GPT-2 email is cut first and its learned row stays ok.)");
}

}  // namespace

void draw_limits(Settings& s, const SchemesData& d, bool open, nlohmann::json& shown) {
  static LimitsData l;
  if (open) {
    text_wrapped(
        "A learned table has one vector per slot and nothing past the last one. Arjun's router "
        "learned 128 slots on short emails; the first 400-token complaint crashed it. Here the "
        "email is the text above, repeated until it is long enough.");
    ImGui::SetNextItemWidth(220);
    ImGui::SliderInt("learned slots##limits", &s.slots, 1, 4096, "%d",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    ImGui::SameLine(0, 30);
    ImGui::SetNextItemWidth(220);
    ImGui::SliderInt("email length (tokens)", &s.length, 1, 4096, "%d",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  }
  if (open) draw_presets(s);
  update_limits(l, d, s);
  shown["limits"] = {{"slots", s.slots},
                     {"length", s.length},
                     {"tokens", l.tokens},
                     {"dropped", l.dropped},
                     {"learned", run_json(l.learned)},
                     {"sinusoidal", run_json(l.sinusoidal)},
                     {"rope", run_json(l.rope)}};
  if (!l.error.empty()) shown["limits"]["error"] = l.error;
  shown["limits"]["past_end_error"] = l.past_end;
  if (!open) return;
  if (!l.error.empty()) {
    error_box(l.error);
    return;
  }
  if (l.dropped > 0) {
    truncation_note(l.dropped);
    text_wrapped("The core takes at most %d tokens, so the %d-token email runs as its first %d tokens.",
                 attn::kMaxTokens, s.length, l.tokens);
  }
  if (!ImGui::BeginTable("limits", 2, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("scheme", ImGuiTableColumnFlags_WidthFixed, 110.0f);
  ImGui::TableSetupColumn("the long email");
  ImGui::TableHeadersRow();
  limit_row("learned", l.learned, l, d.head);
  limit_row("sinusoidal", l.sinusoidal, l, d.head);
  limit_row("rope", l.rope, l, d.head);
  ImGui::EndTable();
  text_wrapped_colored(ImVec4(1.0f, 0.55f, 0.45f, 1.0f),
                       "The learned table asked for position %d, the first "
                       "one past its end: %s",
                       s.slots, l.past_end.empty() ? "it answered" : l.past_end.c_str());
  text_wrapped(
      "Sinusoidal and RoPE compute a position's signal from its number, so any position has one. "
      "They do not crash, but a model trained on short texts still gets worse far past them.");
}

}  // namespace app::schemes
