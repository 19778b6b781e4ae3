// Position schemes scene: one input through every scheme (none, sinusoidal, learned, RoPE, ALiBi, relative),
// one head's grid each.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/logic/captions.hpp"
#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/scenes/scenes.hpp"
#include "app/scenes/schemes/panels.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/scheme_probe.hpp"

namespace app {
namespace {

using schemes::SchemesData;
using schemes::SchemeView;

// Full weight grids go into state() only up to this many tokens (heatmaps() has them all).
constexpr int kMaxShownTokens = 64;

using SchemesMemo = decltype(schemes::SchemesState::memo);

// The RoPE probe from the RoPE run: its inputs are the bare embeddings (RoPE adds nothing to them).
void take_probe(SchemesData& d, const attn::PipelineResult& r, const attn::PipelineConfig& c) {
  try {
    const attn::HeadQueriesKeys qk = attn::head_queries_keys(r, c, d.head);
    d.k_index = qk.k.rows() > 1 ? 1 : 0;
    d.q = qk.q.row(0);
    d.k = qk.k.row(d.k_index);
    d.base = c.base;
  } catch (const attn::InputError& e) {
    d.probe_error = e.what();
  }
}

SchemeView view_of(SchemesData& d, const Settings& s, attn::Scheme scheme) {
  SchemeView v;
  v.scheme = scheme;
  v.name = attn::scheme_name(scheme);
  const attn::PipelineConfig config = pipeline_config(s, scheme);
  // The reference is used before the next cached_pipeline call (which may evict entries).
  const CachedPipeline& c = cached_pipeline(s.text, config);
  if (!c.ok()) {
    v.error = c.error;
    return v;
  }
  const attn::HeadResult& h = c.result.mha.head[static_cast<size_t>(d.head)];
  v.weights = h.weights;
  v.scores = h.scores;
  v.stats = c.result.stats[static_cast<size_t>(d.head)];
  v.weight_offsets = attn::offset_profile(v.weights);
  v.score_offsets = attn::offset_profile(v.scores);
  if (d.tokens.empty()) {
    d.tokens = c.result.tokens;
    d.dropped = c.result.dropped_tokens;
  }
  if (scheme == attn::Scheme::Rope) take_probe(d, c.result, config);
  return v;
}

// (schemes, 2T - 1) rows of offset means, NaN for a scheme that failed.
attn::Mat offset_rows(const std::vector<SchemeView>& views, int t, bool scores) {
  attn::Mat m = attn::Mat::Constant(static_cast<int>(views.size()), std::max(1, 2 * t - 1),
                                    std::numeric_limits<float>::quiet_NaN());
  for (size_t r = 0; r < views.size(); ++r) {
    const attn::OffsetProfile& p = scores ? views[r].score_offsets : views[r].weight_offsets;
    for (size_t c = 0; c < p.mean.size() && static_cast<int>(c) < m.cols(); ++c) {
      m(static_cast<int>(r), static_cast<int>(c)) = p.mean[c];
    }
  }
  return m;
}

SchemesData compute(const Settings& s) {
  SchemesData d;
  d.version = next_version();
  d.heads = s.heads, d.head = schemes::shown_head(s), d.causal = s.causal;
  for (attn::Scheme scheme : attn::pipeline_schemes()) {
    d.views.push_back(view_of(d, s, scheme));
    d.scheme_names.push_back(d.views.back().name);
  }
  const bool all_failed =
      std::none_of(d.views.begin(), d.views.end(), [](const SchemeView& v) { return v.ok(); });
  if (all_failed) d.common_error = d.views.front().error;
  const int t = static_cast<int>(d.tokens.size());
  d.labels = token_labels(d.tokens);
  d.offset_weights = offset_rows(d.views, t, false);
  d.offset_scores = offset_rows(d.views, t, true);
  if (t > 0) d.even = attn::even_stats(t, d.causal);
  d.relative = schemes::relative_bias(d.heads, t, d.causal);
  for (int k = -(t - 1); k <= t - 1; ++k) d.offset_labels.push_back(std::to_string(k));
  return d;
}

void draw_controls(Settings& s) {
  ControlSet show;
  show.positions = false;
  attention_controls(s, show);
  ImGui::SetNextItemWidth(180);
  int head = schemes::shown_head(s);
  slider_int("head", &head, 0, std::max(0, s.heads - 1), "%d", ImGuiSliderFlags_AlwaysClamp);
  s.head = head;
  help_marker(
      "Which head every scheme's grid shows. All the runs use the same seeded weights; only the "
      "position signal differs.");
  same_line_if_fits(180, "learned slots (?)");
  ImGui::SetNextItemWidth(180);
  slider_int("learned slots", &s.slots, 1, 4096, "%d",
             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  help_marker(
      "The learned table has one vector per slot: positions 0 to slots - 1. A longer text has no "
      "vector for its later positions.");
}

std::vector<std::string> cell_tooltip(const SchemeView& v, int heads, int head, bool causal, int r, int c) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "raw score: %.4f", static_cast<double>(v.scores(r, c)));
  std::vector<std::string> lines = {buf};
  std::snprintf(buf, sizeof buf, "offset i - j: %d", r - c);
  lines.push_back(buf);
  if (const attn::DistanceBuckets* b = attn::scheme_def(v.scheme).distance) {
    std::snprintf(buf, sizeof buf, "distance bucket: %d of %d", b->bucket(c - r, causal), b->buckets);
    lines.push_back(buf);
  }
  if (v.scheme == attn::Scheme::Alibi) {
    const float slope = attn::Alibi{heads}.slope(head);
    std::snprintf(buf, sizeof buf, "ALiBi bias: -%.4f × %d", static_cast<double>(slope), std::abs(r - c));
    lines.push_back(buf);
  }
  return lines;
}

// One scheme's grid (or its error in place) with the head's statistics below it.
void draw_view(const Settings& s, const SchemesData& d, const SchemeView& v, float side, bool colorbar) {
  ImGui::BeginGroup();
  ImGui::Text("%s", v.name.c_str());
  if (!v.ok()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side + 60.0f);
    error_box(v.error);
    ImGui::PopTextWrapPos();
    ImGui::Dummy(ImVec2(side + 60.0f, 1.0f));
    ImGui::EndGroup();
    return;
  }
  HeatmapSpec spec = weight_grid_spec("schemes/" + v.name, v.weights, d.version, d.labels, s, side);
  spec.show_colorbar = colorbar;
  const int heads = d.heads, head = d.head;
  const bool causal = d.causal;
  spec.extra_tooltip = [&v, heads, head, causal](int r, int c) {
    return cell_tooltip(v, heads, head, causal, r, c);
  };
  heatmap_view(spec);
  ImGui::Text("entropy %.3f", static_cast<double>(v.stats.entropy));
  ImGui::Text("mean distance %.3f", static_cast<double>(v.stats.mean_distance));
  ImGui::Text("first-token mass %.3f", static_cast<double>(v.stats.first_token_mass));
  ImGui::EndGroup();
}

void draw_grids(const Settings& s, const SchemesData& d) {
  // Each group is the heatmap's label column + image (+ colour bar on a row's last), or the stats text.
  float label_w = ImGui::CalcTextSize("query").x;
  for (const std::string& l : d.labels)
    label_w = std::min(90.0f, std::max(label_w, ImGui::CalcTextSize(l.c_str()).x));
  label_w += 8.0f;
  const float stats_w = ImGui::CalcTextSize("first-token mass 0.000").x;
  const float gap = 18.0f, bar = 64.0f, avail = ImGui::GetContentRegionAvail().x;
  const int n = static_cast<int>(d.views.size());
  auto cell_of = [&](int k) {
    return (avail - bar - gap * static_cast<float>(k - 1)) / static_cast<float>(k);
  };
  int per_row = n;
  while (per_row > 1 && cell_of(per_row) < std::max(stats_w, label_w + 90.0f)) --per_row;
  const float side = std::clamp(cell_of(per_row) - label_w, 90.0f, 320.0f);
  for (int i = 0; i < n; ++i) {
    if (i % per_row) ImGui::SameLine(0, gap);
    const bool last_in_row = i % per_row == per_row - 1 || i == n - 1;
    draw_view(s, d, d.views[static_cast<size_t>(i)], side, last_in_row);
  }
}

nlohmann::json schemes_json(const SchemesData& d) {
  nlohmann::json out = nlohmann::json::object();
  const bool small = static_cast<int>(d.tokens.size()) <= kMaxShownTokens;
  for (const SchemeView& v : d.views) {
    nlohmann::json& j = out[v.name];  // key by key: initializer lists cost the page more code
    j["ok"] = v.ok();
    j["error"] = v.error;
    if (v.ok()) {
      j["stats"]["entropy"] = v.stats.entropy;
      j["stats"]["mean_distance"] = v.stats.mean_distance;
      j["stats"]["first_token_mass"] = v.stats.first_token_mass;
      if (small) j["weights"] = matrix_json(v.weights);
    }
  }
  return out;
}

void intro() {
  text_wrapped(
      "The same email through every position scheme: the same tokens, the same seeded weights, "
      "only the position signal differs. Sinusoidal and learned positions are added to the "
      "embeddings; RoPE turns queries and keys by their positions; ALiBi subtracts a penalty "
      "that grows with the distance between query and key; relative adds a learned bias per bucket of that "
      "distance. Rows are queries, columns keys; all "
      "grids share one colour scale from 0 to 1.");
}

}  // namespace

int schemes::shown_head(const Settings& s) {
  return std::clamp(s.head, 0, std::max(0, s.heads - 1));
}

void draw_schemes_scene(SceneContext& ctx) {
  SchemesMemo& memo = ctx.state<schemes::SchemesState>().memo;
  Settings& s = ctx.settings;
  intro();
  if (ctx.settings_open()) draw_controls(s);
  // Each scheme's error stays in its view; only running out of memory fails the whole computation.
  memo.get({s.text, s.d_model, s.heads, schemes::shown_head(s), s.slots, s.seed, s.causal},
           [&] { return compute(s); });
  if (!ctx.ready(memo)) return;
  const std::shared_ptr<const SchemesData> kept = memo.shared();
  const SchemesData& data = *kept;
  ctx.report([kept, d_model = s.d_model, heads = s.heads](nlohmann::json& shown) {
    shown["head"] = kept->head;
    shown["d_model"] = d_model;
    shown["heads"] = heads;
    shown["tokens"] = kept->tokens;
    shown["schemes"] = schemes_json(*kept);
  });
  if (!data.common_error.empty()) {
    ctx.fail(data.common_error);
    return;
  }
  truncation_note(data.dropped);
  for (const SchemeView& v : data.views) {
    if (!v.ok() && ctx.error.empty()) ctx.error = v.error;
  }
  const size_t t = data.tokens.size();
  text_wrapped("Head %d of %d, %zu token%s. Entropy of evenly spread attention: %s.", data.head, s.heads, t,
               t == 1 ? "" : "s", even_entropy(static_cast<int>(t), data.causal, data.even).c_str());
  help_marker(
      "Entropy: how spread out each query's weights are (nats). Mean distance: how far, in tokens, a "
      "query looks on average. First-token mass: the weight that goes to token 0.");
  draw_grids(s, data);
  // Each panel reports its numbers whenever the URL does not hide it, drawn only when open.
  const bool offsets_open = section("Offset view: weight and score against i - j", "offsets", s.hide);
  if (!hidden(s, "offsets")) schemes::draw_offsets(s, kept, offsets_open, ctx);
  const bool rope_open = section("RoPE: only the gap matters", "rope", s.hide);
  if (!hidden(s, "rope")) schemes::draw_rope(s, kept, rope_open, ctx);
  const bool limits_open = section("Learned table limits: the long email", "limits", s.hide);
  if (!hidden(s, "limits")) schemes::draw_limits(s, kept, limits_open, ctx);
}

}  // namespace app
