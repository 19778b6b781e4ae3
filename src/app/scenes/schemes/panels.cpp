// The schemes scene's lower panels: offset profiles per scheme and RoPE's gap-only score (the learned-table
// limits are in limits.cpp).
#include "app/scenes/schemes/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>

#include "app/logic/captions.hpp"
#include "app/logic/memo.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/line_plot.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/scheme_probe.hpp"
#include "core/tokenizer.hpp"

namespace app::schemes {
namespace {

// Offset profiles go into state() only up to this many tokens (heatmaps() has them all).
constexpr int kMaxShownTokens = 64;

// One colour per scheme, in pipeline_schemes() order: none, sinusoidal, learned, rope, alibi, relative.
const Ink kSchemeInks[] = {Ink::Grey, Ink::Blue, Ink::Right, Ink::Orange, Ink::Magenta, Ink::Note};

ImU32 scheme_colour(size_t i) {
  return ink_u32(kSchemeInks[i % (sizeof kSchemeInks / sizeof kSchemeInks[0])]);
}

// One line per row of `rows` (schemes x offsets -(t - 1) .. t - 1), gaps where a scheme failed.
void offset_chart(const char* id, const char* title, const attn::Mat& rows,
                  const std::vector<std::string>& names, int t, ImVec2 size) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  std::vector<std::vector<float>> y(static_cast<size_t>(rows.rows()));
  std::vector<PlotSeries> series;
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    const auto k = static_cast<size_t>(r);
    y[k].assign(rows.row(r).data(), rows.row(r).data() + rows.cols());
    const bool failed = !rows.row(r).array().isFinite().any();
    series.push_back({names[k] + (failed ? " (failed)" : ""), nullptr, y[k].data(), y[k].size(),
                      scheme_colour(k), static_cast<float>(-(t - 1))});
  }
  PlotOptions opt;
  opt.size = size;
  opt.x_lo = static_cast<float>(-(t - 1)), opt.x_hi = static_cast<float>(t - 1);
  opt.x_marks = {opt.x_lo, 0.0f, opt.x_hi};
  opt.x_name = "offset i - j =";
  opt.dots = rows.cols() <= 33;  // while there is room for them
  line_plot(id, series, opt);
  ImGui::EndGroup();
}

void offset_heatmap(const Settings& s, const SchemesData& d, const char* what, const attn::Mat& m,
                    bool scores, float width) {
  HeatmapSpec spec = heatmap_spec(std::string("schemes/") + what, m, d.version, {&d.scheme_names, "scheme"},
                                  {&d.offset_labels, "offset i - j"},
                                  scores ? gfx::Colormap::Diverging : sequential_colormap(s));
  spec.width = width;
  spec.height = static_cast<float>(m.rows()) * 22.0f;
  heatmap_view(spec);
}

std::vector<float> profile_values(const attn::OffsetProfile& p) {
  return p.mean;
}

// state().shown["offsets"]: every scheme's offset profiles (up to kMaxShownTokens tokens).
void fill_offsets(nlohmann::json& shown, const SchemesData& d, int t) {
  nlohmann::json off = nlohmann::json::object();
  if (t <= kMaxShownTokens) {
    for (const SchemeView& v : d.views) {
      off[v.name]["weights"] = profile_values(v.weight_offsets);
      off[v.name]["scores"] = profile_values(v.score_offsets);
    }
  } else {
    off["note"] =
        "omitted above 64 tokens; the heatmaps schemes/offset_weights and schemes/offset_scores hold them";
  }
  shown["offsets"] = off;
}

// True when ALiBi's mean weight never rises on either side going out from offset 0 (causal off).
bool alibi_falls_off(const SchemeView& alibi, int t) {
  const std::vector<float>& m = alibi.weight_offsets.mean;
  if (!alibi.ok() || t < 2 || static_cast<int>(m.size()) != 2 * t - 1) return false;
  for (int k = 1; k < t; ++k) {
    const size_t c = static_cast<size_t>(t - 1);
    if (m[c + k] > m[c + k - 1] || m[c - k] > m[c - k + 1]) return false;
  }
  return true;
}

// The causal-off reading guide: what to look for in each scheme's profile, ALiBi's as it is on screen.
void offsets_paragraph(const SchemesData& d, int t) {
  const auto it = std::find_if(d.views.begin(), d.views.end(),
                               [](const SchemeView& v) { return v.scheme == attn::Scheme::Alibi; });
  const bool shown = it != d.views.end() && it->ok(), falls = shown && alibi_falls_off(*it, t);
  std::string alibi;
  if (t > 1 && shown && !falls) {
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  " ALiBi's mean weight does not fall steadily with the distance here: %.3g per token is too "
                  "gentle beside the words' own score differences (more heads give head 0 a steeper slope).",
                  static_cast<double>(attn::Alibi{d.heads}.slope(d.head)));
    alibi = buf;
  }
  text_wrapped(
      "Each point is the mean over one diagonal of the grid: all query/key pairs i - j apart (positive: the "
      "key comes earlier). Look for: %s%sno positions giving a profile that is flat in expectation at every "
      "offset except 0. At offset 0 each token's query meets its own key, made from the same vector, so that "
      "score has its own expected level (up or down, set by the weights); at every other offset the bumps "
      "come only from which words happen to sit that far apart, and moving the words would move them.%s",
      falls ? "ALiBi falling off on both sides as the distance grows; " : "",
      d.q.size() > 1 ? "RoPE's scores changing with the offset itself; " : "", alibi.c_str());
}

}  // namespace

void draw_offsets(const Settings& s, const std::shared_ptr<const SchemesData>& kept, bool open,
                  SceneContext& ctx) {
  const SchemesData& d = *kept;
  const int t = static_cast<int>(d.tokens.size());
  ctx.report([kept, t](nlohmann::json& shown) {
    fill_offsets(shown, *kept, t);
    if (t <= kMaxShownTokens) fill_relative(shown, kept->relative);
  });
  if (!open) return;
  if (!d.causal) {
    offsets_paragraph(d, t);
  } else {
    text_wrapped(
        "Each point is the mean over one diagonal of the grid: all query/key pairs i - j apart. With the "
        "causal "
        "mask a query sees only itself and earlier keys, so only offsets 0 and above have points, and row i "
        "spreads its weight over i + 1 keys: even attention's mean weight would fall with the offset, "
        "because the long offsets belong to the late rows with many keys. Compare the schemes with each "
        "other here, not with a flat line; switch causal off to see each scheme's own shape.");
  }
  text_wrapped("ALiBi in head %d of %d subtracts %.4g × |i - j| from each score: %.3g at distance %d.",
               d.head, d.heads, static_cast<double>(attn::Alibi{d.heads}.slope(d.head)),
               static_cast<double>(attn::Alibi{d.heads}.slope(d.head)) * std::max(0, t - 1),
               std::max(0, t - 1));
  const float avail = ImGui::GetContentRegionAvail().x;
  const float w = std::min(avail, std::max(240.0f, (avail - 30.0f) * 0.5f));  // two side by side, or one
  offset_chart("offset_weights_chart", "mean weight", d.offset_weights, d.scheme_names, t, ImVec2(w, 170.0f));
  if (avail > 2.0f * 240.0f + 30.0f) ImGui::SameLine(0, 30.0f);
  offset_chart("offset_scores_chart", "mean raw score (before softmax)", d.offset_scores, d.scheme_names, t,
               ImVec2(w, 170.0f));
  const float hw =
      std::clamp(static_cast<float>(2 * t - 1) * 22.0f, 200.0f, std::max(200.0f, avail - 240.0f));
  text_wrapped("The same numbers as heatmaps (weights: lowest to highest mean; scores: diverging around 0)");
  offset_heatmap(s, d, "offset_weights", d.offset_weights, false, hw);
  offset_heatmap(s, d, "offset_scores", d.offset_scores, true, hw);
  draw_relative(d, d.relative, hw);
}

// [SECTION] RoPE: one query and one key, moved together

namespace {

struct ShiftedPair {
  int pos, pos2;
  float score;
};

// RoPE numbers for the probe vectors at the chosen positions; rebuilt when they or the probe change.
struct RopeData {
  int pos = -1, pos2 = -1;
  float score = 0, unrotated = 0, moved_key = 0;
  std::vector<ShiftedPair> shifted;  // (pos - k, pos2 - k) for a few shifts k
  std::vector<float> by_gap;         // score at gap g = -kGaps .. kGaps
  std::string error;
};
constexpr int kGaps = 32;
using RopeMemo = Memo<RopeData, std::uint64_t, int, int>;  // SchemesData::version, pos, pos2

// The error stays in the data (shown in place).
RopeData compute_rope(const SchemesData& d, int pos, int pos2) {
  RopeData r;
  r.pos = pos, r.pos2 = pos2;
  if (!d.probe_error.empty() || d.q.size() == 0) {
    r.error =
        d.probe_error.empty() ? "the RoPE run failed, so there is no query and key to turn" : d.probe_error;
    return r;
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
  return r;
}

void rope_table(const RopeData& r) {
  if (!begin_table("rope_shifts", {{"query position"}, {"key position"}, {"gap"}, {"score"}, {"difference"}}))
    return;
  auto row = [&](int p, int p2, float score) {
    table_row();
    table_cell();
    ImGui::Text("%d", p);
    table_cell();
    ImGui::Text("%d", p2);
    table_cell();
    ImGui::Text("%d", p - p2);
    table_cell();
    ImGui::Text("%.4f", static_cast<double>(score));
    table_cell();
    ImGui::Text("%.1e", static_cast<double>(std::fabs(score - r.score)));
  };
  row(r.pos, r.pos2, r.score);
  for (const ShiftedPair& p : r.shifted) row(p.pos, p.pos2, p.score);
  end_table();
}

// state().shown["rope"]: the pair's score, the shifted pairs, the unrotated score, the score with the key
// one later and the probe's query, key and base (or the error).
void fill_rope(nlohmann::json& shown, const RopeData& r, const SchemesData& d) {
  nlohmann::json& j = shown["rope"];  // key by key: nested initializer lists cost the page more code
  j["pos"] = r.pos;
  j["pos2"] = r.pos2;
  if (!r.error.empty()) {
    j["error"] = r.error;
    return;
  }
  nlohmann::json shifted = nlohmann::json::array();
  for (const ShiftedPair& p : r.shifted) {
    nlohmann::json& one = shifted.emplace_back();
    one["pos"] = p.pos;
    one["pos2"] = p.pos2;
    one["score"] = p.score;
  }
  j["gap"] = r.pos - r.pos2;
  j["score"] = r.score;
  j["shifted"] = std::move(shifted);
  j["unrotated"] = r.unrotated;
  j["moved_key"] = r.moved_key;
  j["q"] = std::vector<float>(d.q.data(), d.q.data() + d.q.size());
  j["k"] = std::vector<float>(d.k.data(), d.k.data() + d.k.size());
  j["base"] = d.base;
  j["head"] = d.head;
}

// The score with the key one position later: "different" only when it prints differently, and why not.
void moved_key_line(const RopeData& r, int d_k) {
  char a[32], b[32];
  std::snprintf(a, sizeof a, "%.4f", static_cast<double>(r.score));
  std::snprintf(b, sizeof b, "%.4f", static_cast<double>(r.moved_key));
  const bool same = std::string(a) == b;
  text_wrapped("Move only the key, to %d (gap %d): %s - %s", r.pos2 + 1, r.pos - r.pos2 - 1, b,
               !same      ? "a different gap, a different score."
               : d_k == 1 ? "the same score: with dₖ = 1 there is no pair of numbers to turn, so RoPE "
                            "changes nothing."
                          : "the same score to 4 decimals: this query and key happen to score alike at both "
                            "gaps.");
}

// draw_rope's state.
struct RopeState : SceneState {
  RopeMemo memo;
};

}  // namespace

void draw_rope(Settings& s, const std::shared_ptr<const SchemesData>& kept, bool open, SceneContext& ctx) {
  const SchemesData& d = *kept;
  RopeMemo& memo = state_in<RopeState>(ctx.state<SchemesState>().rope).memo;
  memo.get({d.version, s.pos, s.pos2}, [&] { return compute_rope(d, s.pos, s.pos2); });
  if (!memo.ok()) return error_box(memo.error());
  const std::shared_ptr<const RopeData> rope = memo.shared();
  const RopeData& r = *rope;
  ctx.report([rope, kept](nlohmann::json& shown) { fill_rope(shown, *rope, *kept); });
  if (!open) return;
  text_wrapped(
      "RoPE turns each pair of a query's numbers by (position × speed) and the key's pairs by its "
      "own position, then takes the dot product. The two turns partly cancel: only the gap "
      "between the positions is left.");
  const std::string& qt = d.tokens.front();
  const std::string& kt = d.tokens[static_cast<size_t>(d.k_index)];
  text_wrapped(
      "Query: token 0 '%s', key: token %d '%s', both of head %d before rotation (%d numbers "
      "each). Move them anywhere:",
      qt.c_str(), d.k_index, kt.c_str(), d.head, static_cast<int>(d.q.size()));
  ImGui::SetNextItemWidth(260);
  slider_int("query position", &s.pos, 0, 2048, "%d", ImGuiSliderFlags_AlwaysClamp);
  same_line_if_fits(260, "key position");
  ImGui::SetNextItemWidth(260);
  slider_int("key position", &s.pos2, 0, 2048, "%d", ImGuiSliderFlags_AlwaysClamp);
  if (!r.error.empty()) {
    error_box(r.error);
    return;
  }
  text_wrapped("Query at %d, key at %d (gap %d): score %.4f", r.pos, r.pos2, r.pos - r.pos2,
               static_cast<double>(r.score));
  if (!r.shifted.empty()) {
    const ShiftedPair& p = r.shifted[std::min<size_t>(2, r.shifted.size() - 1)];
    text_wrapped_colored(ink(Ink::Right), "%d and %d score the same as %d and %d: %.4f", r.pos, r.pos2, p.pos,
                         p.pos2, static_cast<double>(p.score));
  }
  moved_key_line(r, static_cast<int>(d.q.size()));
  text_wrapped("Without rotation (q · k / √dₖ): %.4f, the same at every pair of positions.",
               static_cast<double>(r.unrotated));
  rope_table(r);
  text_wrapped("Score against the gap (query position - key position, %d to %d):", -kGaps, kGaps);
  PlotOptions opt;
  opt.size = ImVec2(std::min(560.0f, ImGui::GetContentRegionAvail().x), 110);
  opt.x_lo = static_cast<float>(-kGaps), opt.x_hi = static_cast<float>(kGaps);
  const int gap = r.pos - r.pos2;
  if (gap >= -kGaps && gap <= kGaps) opt.x_marks = {static_cast<float>(gap)};  // the current gap
  opt.x_name = "gap";
  line_plot("rope_gap",
            {{"score", nullptr, r.by_gap.data(), r.by_gap.size(), ink_u32(Ink::Orange),
              static_cast<float>(-kGaps)}},
            opt);
}

}  // namespace app::schemes
