// Multi-head attention scene: one weight grid per head (click to enlarge), row view, statistics, parameters.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <tuple>

#include "app/logic/captions.hpp"
#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/trained_model.hpp"
#include "app/scenes/mha/grid_layout.hpp"
#include "app/scenes/mha/panels.hpp"
#include "app/scenes/mha/text_view.hpp"
#include "app/scenes/mha/trained.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/widgets.hpp"
#include "core/analysis.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"

namespace app {
namespace {

constexpr int kMaxShownTokens = 64;  // full (H, T, T) weights go into state() only up to this T
constexpr int kTooltipHands = 4;     // clock hands listed in a hovered cell's tooltip
constexpr float kGap = 14.0f;
// A long input's computation per frame: the page keeps drawing (at about 12 frames per second) and
// answers input, and the steps lose little to the frames between them (in headless Chromium the GPU is
// the CPU too: 12 ms slices made a 512-token recompute 1.6 times slower, 80 ms ones 1.1 times).
constexpr double kFrameBudgetMs = 80.0;

// What the scene derives from one pipeline result (keyed by CachedPipeline::version).
struct MhaData {
  std::uint64_t version = 0;        // the pipeline's version: which weights the grids show
  std::vector<std::string> tokens;  // (T,)
  int dropped_tokens = 0;
  std::vector<std::string> labels;  // (T,) token labels, unique (for sentences)
  std::vector<std::string> words;   // (T,) token text (the grids' axes and the text view)
  float label_w = 0.0f;             // widest row label as heatmap_view draws it (cut at 90 px)
  nlohmann::json stats;             // per-head statistics, for state()
  std::vector<attn::Mat> weights;   // (H) x (T, T) copies for state(), only when T <= kMaxShownTokens
  attn::HeadStats even{};           // the statistics of even attention (the baselines)
  std::vector<int> peak_keys;       // (H,): how many different keys each head's rows peak on
};
using MhaMemo = Memo<MhaData, std::uint64_t, float>;  // the pipeline's version, the font's pixel size
// The row of the chosen query token in every head (keyed by the pipeline's version and the row).
using RowMemo = Memo<mha::RowView, std::uint64_t, int>;

MhaData compute(const CachedPipeline& pipe, bool causal) {
  const attn::PipelineResult& r = pipe.result;
  MhaData d;
  d.version = pipe.version;
  d.tokens = r.tokens;
  d.dropped_tokens = r.dropped_tokens;
  d.labels = token_labels(r.tokens);
  d.words = token_words(r.tokens);
  d.label_w = ImGui::CalcTextSize("query").x;
  for (const std::string& l : d.words)
    d.label_w = std::max(d.label_w, std::min(90.0f, ImGui::CalcTextSize(l.c_str()).x));
  d.stats = mha::stats_json(r.stats);
  d.even = attn::even_stats(static_cast<int>(r.tokens.size()), causal);
  for (const attn::HeadStats& st : r.stats) d.peak_keys.push_back(st.peak_keys);
  if (static_cast<int>(r.tokens.size()) <= kMaxShownTokens) {
    for (const attn::HeadResult& h : r.mha.head) d.weights.push_back(h.weights);
  }
  return d;
}

// Tooltip lines of cell (i, j) of head h: the raw score and, with sinusoidal positions, both clock readings.
std::vector<std::string> cell_lines(const attn::PipelineResult& r, const attn::PipelineConfig& c, int h,
                                    int i, int j) {
  std::vector<std::string> lines;
  char buf[200];
  const float score = r.mha.head[static_cast<size_t>(h)].scores(i, j);
  if (std::isfinite(score)) {
    const attn::DistanceBuckets* buckets = attn::scheme_def(c.positions).distance;
    const std::string bucket =
        buckets ? "q·k / √dₖ + the bias of bucket " + std::to_string(buckets->bucket(j - i, c.causal)) : "";
    std::snprintf(buf, sizeof buf, "raw score %.4f (%s, before softmax)", static_cast<double>(score),
                  buckets                              ? bucket.c_str()
                  : c.positions == attn::Scheme::Alibi ? "q·k / √dₖ - slope × |i - j|"
                                                       : "q·k / √dₖ");
  } else {
    std::snprintf(buf, sizeof buf, "raw score -inf: masked, the key comes after the query");
  }
  lines.emplace_back(buf);
  if (c.positions != attn::Scheme::Sinusoidal) return lines;
  const std::vector<attn::HandReading> hands =
      attn::compare_positions(attn::PositionClock(c.d_model, c.base), i, j);
  std::snprintf(buf, sizeof buf, "clock hands at query position %d and key position %d:", i, j);
  lines.emplace_back(buf);
  const size_t n = std::min(hands.size(), static_cast<size_t>(kTooltipHands));
  for (size_t k = 0; k < n; ++k) {
    const attn::HandReading& hr = hands[k];
    std::snprintf(buf, sizeof buf, "  hand %d: %.2f rad vs %.2f rad, phase difference %+.2f rad", hr.hand,
                  hr.angle_a, hr.angle_b, hr.phase_diff);
    lines.emplace_back(buf);
  }
  if (hands.size() > n) {
    std::snprintf(buf, sizeof buf, "  (first %zu of %zu hands; the Clock scene shows them all)", n,
                  hands.size());
    lines.emplace_back(buf);
  }
  return lines;
}

HeatmapSpec head_spec(const mha::MhaState& ms, const Settings& s, const attn::PipelineResult& r,
                      const attn::PipelineConfig& c, const MhaData& d, int h, float side) {
  HeatmapSpec spec =
      weight_grid_spec("mha/head" + std::to_string(h), r.mha.head[static_cast<size_t>(h)].weights, d.version,
                       d.words, s, side);
  spec.title = "head " + std::to_string(h) + " of " + std::to_string(r.mha.head.size());
  spec.extra_tooltip = [&r, c, h](int i, int j) { return cell_lines(r, c, h, i, j); };
  const mha::GridWindow w = mha::grid_window(ms, s, static_cast<int>(r.tokens.size()));
  spec.row0 = w.row0, spec.col0 = w.col0, spec.shown_rows = w.size, spec.shown_cols = w.size;
  spec.row_label_w = d.label_w;
  return spec;
}

// Whether the grids are sized by the width alone: in an iframe (embed=1) and in the figure view, whose
// height follows the content.
bool sized_by_width(const Settings& s) {
  return s.embed || figure_mode();
}

float colorbar_width() {
  return 8.0f + 12.0f + 4.0f + ImGui::CalcTextSize("0").x + 4.0f;
}
// Height below the cursor that is on screen when the page is scrolled to the top (stable while scrolling:
// GetCursorPosY counts from the top of the content, not of the visible part).
float grid_height() {
  return std::max(260.0f,
                  ImGui::GetWindowHeight() - ImGui::GetCursorPosY() - ImGui::GetStyle().WindowPadding.y);
}

// Height above a grid's image: the axis titles and the column labels, upright when they are wider than a
// line (as they are for most token labels).
float labels_height(const MhaData& d) {
  const float line = ImGui::GetTextLineHeight();
  return line + std::max(line, std::min(kMaxColLabelW, d.label_w)) + 4.0f;
}

void draw_grid(mha::MhaState& ms, Settings& s, const attn::PipelineResult& r, const attn::PipelineConfig& c,
               const MhaData& d) {
  const auto heads = static_cast<int>(r.mha.head.size());
  const bool stats = !hidden(s, "stats") && !figure_mode();  // the figure view: the grids alone
  const float line = ImGui::GetTextLineHeightWithSpacing(), spacing = ImGui::GetStyle().ItemSpacing.y;
  const float labels_h = labels_height(d);
  const float stats_w = ImGui::CalcTextSize("first token 0.00").x + 10.0f;
  const mha::CellExtra under{d.label_w + 4.0f + kGap,
                             line * (stats ? 4.0f : 1.0f) + labels_h + 3.0f * spacing};
  const mha::CellExtra beside{under.w + stats_w, line + labels_h + 2.0f * spacing};
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const mha::GridLayout g = sized_by_width(s) ? mha::width_layout(heads, avail_w, colorbar_width(), under)
                                              : mha::grid_layout(heads, avail_w, grid_height(),
                                                                 colorbar_width(), under, beside, stats);
  mha::note_grid_side(ms, g.side, false, static_cast<int>(r.tokens.size()));
  for (int h = 0; h < heads; ++h) {
    if (h % g.cols) {
      ImGui::SameLine(0, kGap);
    } else if (h > 0) {
      ImGui::Spacing();  // a little air between lines of grids
    }
    ImGui::BeginGroup();
    ImGui::BeginGroup();
    ImGui::Text("head %d", h);
    HeatmapSpec spec = head_spec(ms, s, r, c, d, h, g.side);
    spec.show_colorbar = h % g.cols == g.cols - 1 || h == heads - 1;
    const HeatmapHover hover = heatmap_view(spec);
    if (hover.clicked) s.head = h;
    mha::follow_grid_gesture(ms, s, hover, static_cast<int>(r.tokens.size()));
    ImGui::EndGroup();
    if (stats && g.stats_beside) {
      ImGui::SameLine(0, 8.0f);
      ImGui::BeginGroup();
      ImGui::Dummy(ImVec2(1.0f, line + labels_h));  // level with the top of the grid
      mha::draw_head_stats(r.stats[static_cast<size_t>(h)], stats_w);
      ImGui::EndGroup();
    } else if (stats) {
      mha::draw_head_stats(r.stats[static_cast<size_t>(h)], d.label_w + g.side);
    }
    ImGui::EndGroup();
  }
}

void draw_enlarged(mha::MhaState& ms, Settings& s, const attn::PipelineResult& r,
                   const attn::PipelineConfig& c, const MhaData& d) {
  const int h = s.head, heads = static_cast<int>(r.mha.head.size()), t = static_cast<int>(r.tokens.size());
  if (ImGui::Button("Back to all heads")) s.head = -1;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) s.head = (h + heads - 1) % heads;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) s.head = (h + 1) % heads;
  ImGui::SameLine();
  text_wrapped("head %d of %d (click the grid to go back)", h, heads);
  const bool stats = !hidden(s, "stats") && !figure_mode();
  const float stats_w = stats ? 380.0f : 0.0f, avail = ImGui::GetContentRegionAvail().x;
  const bool beside = avail - stats_w > 420.0f;
  const float room_w = avail - d.label_w - colorbar_width() - 20.0f - (beside ? stats_w : 0.0f);
  const float room_h = sized_by_width(s) ? room_w : grid_height() - labels_height(d) - 2.0f;
  const float side = std::clamp(std::min(room_w, room_h), 200.0f, 760.0f);
  mha::note_grid_side(ms, side, true, t);
  const HeatmapHover hover = heatmap_view(head_spec(ms, s, r, c, d, h, side));
  if (hover.clicked) s.head = -1;
  mha::follow_grid_gesture(ms, s, hover, t);
  if (!stats) return;
  if (beside) ImGui::SameLine(0, 24);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(beside ? ImGui::GetCursorPosX() + stats_w - 10.0f : 0.0f);
  text_wrapped("What this head does, averaged over its rows:");
  mha::draw_head_stats_long(r.stats[static_cast<size_t>(h)], t, c.causal, d.even);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

// The heads as grids (one per head, or the enlarged one) or as text (draw_text_view), with the view switch
// and the find box; returns what the text view showed (nothing for grids).
std::shared_ptr<const mha::TextViewShown> draw_heads(mha::MhaState& ms, Settings& s,
                                                     const attn::PipelineResult& r,
                                                     const attn::PipelineConfig& c, const MhaData& d,
                                                     const mha::RowView& rows) {
  const auto t = static_cast<int>(r.tokens.size());
  const bool as_text = heads_as_text(s, t, mha::grid_side(ms, s.head >= 0));
  mha::draw_view_controls(ms, s, r.tokens, as_text);
  if (as_text) {
    // the whole-text box: what is on screen under the caption, its buttons and title (a fixed height where
    // the page's height follows the content, which would follow the box)
    const float box_h =
        sized_by_width(s)
            ? 400.0f
            : std::clamp(grid_height() - 4.0f * ImGui::GetFrameHeightWithSpacing(), 200.0f, 560.0f);
    return std::make_shared<const mha::TextViewShown>(mha::draw_text_view(ms, s, rows, d.words, box_h));
  }
  text_wrapped_disabled(
      "Rows are queries, columns are keys; brighter = more weight (0 to 1, the same scale for "
      "every head). Hover a cell for its score; click a head to enlarge it.");
  if (!hidden(s, "stats") && !figure_mode()) {
    text_wrapped_disabled("%s", stats_legend(t, c.causal, d.even).c_str());
    help_marker(
        "Entropy: 0 when every query looks at a single key, ln T when it spreads evenly over all T keys "
        "(with "
        "the causal mask row i has only i + 1 keys to spread over). Distance: how many tokens away a query "
        "looks on average. First token: the mean weight the queries give token 0.");
  }
  mha::draw_window_controls(ms, s, t);
  if (s.head >= 0) {
    draw_enlarged(ms, s, r, c, d);
  } else {
    draw_grid(ms, s, r, c, d);
  }
  return nullptr;
}

// state().shown: the sizes, the parameter count and, when the pipeline ran, the tokens, statistics, the
// chosen row, (up to kMaxShownTokens tokens) every head's weights, the grids' token window [row0, col0,
// size] and what the text view shows (text_view, when it is drawn; null for grids).
void report(SceneContext& ctx, mha::MhaState& ms, const CachedPipeline* pipe,
            std::shared_ptr<const MhaData> d, std::shared_ptr<const mha::RowView> row, int enlarged,
            std::shared_ptr<const mha::TextViewShown> text = nullptr) {
  const Settings s = with_model_sizes(ctx.settings);
  nlohmann::json trained = uses_trained_model(s) ? trained_model_json_summary() : nlohmann::json();
  const mha::GridWindow win =
      d ? mha::grid_window(ms, s, static_cast<int>(d->tokens.size())) : mha::GridWindow{};
  const nlohmann::json params = mha::parameters_json(ms, s);
  const double compute_ms = pipe ? pipe->compute_ms : 0.0;
  const bool in_worker = pipe && pipe->from_worker;
  const int workers = in_worker ? std::max(pipe->shares, 1) : 0;
  nlohmann::json roles = uses_trained_model(s) ? ms.roles_shown : nlohmann::json();
  const int guess = ms.guess;
  nlohmann::json off_check = uses_trained_model(s) ? ms.off_shown : nlohmann::json();
  ctx.report([s, compute_ms, in_worker, workers, d, row, enlarged, trained, roles, guess, off_check, text,
              win, params](nlohmann::json& shown) {
    // key by key: nlohmann's nested initializer lists cost the page several times the code
    shown["d_model"] = s.d_model;
    shown["heads"] = s.heads;
    shown["d_k"] = params["d_k"];
    shown["positions"] = attn::scheme_name(s.positions);
    shown["causal"] = s.causal;
    shown["seed"] = s.seed;
    shown["parameters"] = params;
    shown["enlarged"] = enlarged;
    shown["compute_ms"] = compute_ms;
    shown["computed_in"] = in_worker ? "worker" : "page";
    shown["workers"] = workers;  // how many workers shared it (0: computed on the page)
    shown["model"] = param_value(s, "model");
    if (uses_trained_model(s)) {
      shown["trained_model"] = trained;
      shown["layer"] = s.layer;
      shown["head_roles"] = roles;     // the layer's heads' roles once measured and shown (null before)
      shown["head_guess"] = guess;     // the head the learner predicted (-2: not yet, -1: skipped)
      shown["off_check"] = off_check;  // that head switched off: the answer and what was measured
    }
    if (!d || !row) return;
    shown["tokens"] = d->tokens;
    shown["dropped_tokens"] = d->dropped_tokens;
    shown["stats"] = d->stats;
    shown["row"]["token"] = row->token;
    shown["row"]["weights"] = matrix_json(row->weights);
    shown["window"] = std::array<int, 3>{win.row0, win.col0, win.size};
    shown["text_view"] = text ? mha::text_view_json(*text) : nlohmann::json();
    if (!d->weights.empty()) {
      nlohmann::json weights = nlohmann::json::array();
      for (const attn::Mat& w : d->weights) weights.push_back(matrix_json(w));
      shown["weights"] = std::move(weights);
    }
  });
}

// "Where heads break" for the sizes shown (the trained model's in trained mode, without the d_k = 1 button);
// peaks: MhaData::peak_keys of the heads on screen (empty when none are).
void draw_breaks_section(Settings& s, const Settings& view, bool trained, const std::vector<int>& peaks) {
  if (section("Where heads break", "breaks", s.hide) && mha::draw_breaks(view, !trained, peaks))
    mha::show_narrowest_heads(s);
}

// mha.cpp's part of the scene's state (MhaState::data).
struct MhaCaches : SceneState {
  MhaMemo data_memo;
  RowMemo row_memo;
};

}  // namespace

void draw_mha_scene(SceneContext& ctx) {
  mha::MhaState& ms = ctx.state<mha::MhaState>();
  MhaCaches& caches = state_in<MhaCaches>(ms.data);
  MhaMemo& data_memo = caches.data_memo;
  RowMemo& row_memo = caches.row_memo;
  Settings& s = ctx.settings;
  paragraph(heads_intro(uses_trained_model(s)));
  if (ctx.settings_open() && !mha::draw_model_switch(ctx, ms)) attention_controls(s);

  const bool trained = uses_trained_model(s);
  if (trained && !trained_model()) {
    mha::draw_no_model_note(ctx);
    report(ctx, ms, nullptr, nullptr, nullptr, -1);
    return;
  }
  const Settings view = with_model_sizes(s);  // the trained model's sizes in trained mode
  // what is shown: the trained model's scheme, width and mask in trained mode (the cells' tooltips read them)
  const attn::PipelineConfig config = pipeline_config(view);
  const CachedPipeline& pipe =
      trained ? trained_pipeline(s.text, s.layer) : cached_pipeline(s.text, config, kFrameBudgetMs);
  if (pipe.pending()) {
    ImGui::ProgressBar(pipe.progress(), ImVec2(std::min(400.0f, ImGui::GetContentRegionAvail().x), 0.0f),
                       "computing");
    text_wrapped_disabled(pipe.remote
                              ? "A long text: the page's compute worker computes the heads, and the page "
                                "keeps working."
                              : "A long text: the heads are computed a few at a time, and the page "
                                "keeps working.");
    report(ctx, ms, &pipe, nullptr, nullptr, -1);
    return;
  }
  if (!pipe.ok()) {
    ctx.fail(pipe.error);
    if (section("Parameters: many heads for the price of one", "params", s.hide))
      mha::draw_parameters(ms, view);
    draw_breaks_section(s, view, trained, {});
    report(ctx, ms, &pipe, nullptr, nullptr, -1);
    return;
  }
  const attn::PipelineResult& r = pipe.result;
  const auto t = static_cast<int>(r.tokens.size()), heads = static_cast<int>(r.mha.head.size());
  truncation_note(r.dropped_tokens);
  s.row = std::clamp(s.row, 0, t - 1);
  if (s.head >= heads) s.head = -1;
  data_memo.get({pipe.version, ImGui::GetFont()->FontSize}, [&] { return compute(pipe, config.causal); });
  row_memo.get({pipe.version, s.row}, [&] { return mha::make_row_view(r, s.row); });
  if (!ctx.ready(data_memo) || !ctx.ready(row_memo)) {
    report(ctx, ms, &pipe, nullptr, nullptr, -1);
    return;
  }
  const MhaData& data = data_memo.value();
  const mha::RowView& rows = row_memo.value();
  text_wrapped("%d token%s, %d head%s of dₖ = %d, positions: %s%s  (computed in %.1f ms)", t,
               t == 1 ? "" : "s", heads, heads == 1 ? "" : "s", view.d_model / heads,
               attn::scheme_name(view.positions).c_str(), view.causal ? ", causal" : "", pipe.compute_ms);
  text_wrapped_disabled(
      "The steps run one by one, as the lesson writes them: scores = Q Kᵀ / √dₖ, softmax, weights × "
      "V. "
      "PyTorch's F.scaled_dot_product_attention and other fused kernels compute the same maths in one call, "
      "faster, without keeping the T × T grids shown here.");

  const int enlarged = s.head;  // what this frame draws (a click changes s.head for the next frame)
  std::shared_ptr<const mha::TextViewShown> text = draw_heads(ms, s, r, config, data, rows);
  ms.roles_shown = ms.off_shown = nlohmann::json();
  if (trained && section("What each head does", "heads", s.hide)) mha::draw_roles(ms, s.layer);
  if (section("Where one token looks", "rows", s.hide))
    mha::draw_row_view(ms, s, rows, row_memo.version(), data.labels, config.causal, trained);
  if (section("Parameters: many heads for the price of one", "params", s.hide))
    mha::draw_parameters(ms, view);
  draw_breaks_section(s, view, trained, data.peak_keys);
  report(ctx, ms, &pipe, data_memo.shared(), row_memo.shared(), enlarged, text);
}

}  // namespace app
