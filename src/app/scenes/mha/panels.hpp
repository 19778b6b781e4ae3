// The multi-head attention scene's panels: per-head statistics, the row view, the parameter accounting.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/logic/head_measure.hpp"
#include "app/logic/long_text.hpp"
#include "app/logic/settings.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "core/pipeline.hpp"

namespace app::mha {

// What the parameter panel shows, rebuilt only when d_model or heads change.
struct ParamData {
  int d_model = -1, heads = -1;
  bool ok = false;
  attn::ParameterCount count{};
  long long single = -1;         // one full-width head, from count_parameters(d_model, 1)
  std::string error;             // the core's message when heads do not divide d_model
  std::vector<int> valid_heads;  // 1..16 that divide d_model
};

// What the multi-head scene keeps between frames (the scene table's state of this scene).
struct MhaState : SceneState {
  std::unique_ptr<SceneState> data;  // mha.cpp's caches of the pipeline's result
  float side = 0.0f,
        enlarged_side = 0.0f;    // the grids' sides as last drawn (0: not yet): all heads, enlarged
  bool panning = false;          // a drag on a grid goes on
  TokenWindow pan_start;         // the window when it began
  bool scroll_to_query = false;  // the find box moved the query: the text view scrolls to it if off screen
  int drawn_query = -1;          // the query the whole-text box showed last frame
  std::string needle;            // the find box's text
  ParamData params;              // the parameter panel's numbers
  std::string asked_model;       // the model= link last opened (a link is opened once)
  // trained.cpp: the trained model's head roles (measured once per model version), as state() reports them
  std::unique_ptr<HeadMeasure> roles;
  long long roles_version = -1;
  int roles_layer = -1;
  nlohmann::json roles_shown;
  // the learner's guess of the head that follows the refunded item, before the measures show
  static constexpr int kNoGuess = -2, kSkipped = -1;
  int guess = kNoGuess;
  // then what switching that layer's refunded-item head off does (0 a fall of 5 points or more, 1 less,
  // 2 none), and what was measured, for state()
  int off_guess = kNoGuess;
  nlohmann::json off_shown;
};

// One query token's row from every head, side by side; rebuilt only when the pipeline or the token changes.
struct RowView {
  int token = -1;
  attn::Mat weights;                     // (H, T): row `token` of each head's (T, T) weights
  std::vector<int> top_key;              // (H,): the key each head gives the most weight
  std::vector<std::string> head_labels;  // (H,): "0", "1", ... (the row title says "head")
};
RowView make_row_view(const attn::PipelineResult& r, int token);

// The row view: a token combo (writes s.row), the (H, T) heatmap "mha/rows" and a sentence saying where
// each head looks, what the row leaves for other words, and two heads peaking on different words.
// labels: (T,) token labels; version: which row view this is (HeatmapSpec::version); causal: the mask is
// on; trained: the heads are the trained model's.
void draw_row_view(const MhaState& ms, Settings& s, const RowView& view, std::uint64_t version,
                   const std::vector<std::string>& labels, bool causal, bool trained);

// Three short lines under a head's grid: entropy (nats), mean |i - j|, first-token mass.
void draw_head_stats(const attn::HeadStats& st, float wrap_width);
// The same numbers with words, for the enlarged head, beside the baselines of even attention
// (even = attn::even_stats(tokens, causal)).
void draw_head_stats_long(const attn::HeadStats& st, int tokens, bool causal, const attn::HeadStats& even);
// {"entropy", "mean_distance", "first_token_mass"} per head.
nlohmann::json stats_json(const std::vector<attn::HeadStats>& stats);

// Fused multi-head vs one full-width head for s.d_model and s.heads, with the arithmetic written out
// (numbers from attn::count_parameters, recomputed only when d_model or heads change).
void draw_parameters(MhaState& ms, const Settings& s);
// "Where heads break": roles emerge, spare heads and shared keys/values, d_k shrinking as heads grow
// (with what d_k = 1 does, and at d_k = 1 the `peaks` counts of the heads on screen; empty: none shown),
// attention maps as hints. With offer_example, a button to see d_k = 1: returns true when it was clicked
// (then call show_narrowest_heads).
bool draw_breaks(const Settings& s, bool offer_example, const std::vector<int>& peaks);
// d_model 16 with 16 heads (d_k = 1), causal off and a position scheme that leave the d_k = 1 argument as
// it is.
void show_narrowest_heads(Settings& s);
// The token window the grids show (app/logic/long_text.hpp): the chosen one, or with none chosen the whole
// text when its cells are readable at the side the grids were last drawn, else a readable window around
// s.row.
using GridWindow = TokenWindow;
GridWindow grid_window(const MhaState& ms, const Settings& s, int t);
// The side (CSS px) of the heads' grids as last drawn: all heads, or the enlarged one; before the first
// draw, the largest side those grids take. note_grid_side records it as the grids of a t-token text are
// drawn, and asks for one more frame when the new side changes their window, so the window follows.
float grid_side(const MhaState& ms, bool enlarged);
void note_grid_side(MhaState& ms, float side, bool enlarged, int t);
// "Window: 48 of 220 tokens", Zoom in / Zoom out / Whole text and the two position sliders (writes s.span,
// s.from, s.key_from); nothing for a short text shown whole.
void draw_window_controls(const MhaState& ms, Settings& s, int t);
// A grid's Ctrl + wheel (zoom around the hovered cell) and drag (pan by whole cells) applied to s.
void follow_grid_gesture(MhaState& ms, Settings& s, const HeatmapHover& g, int t);
// {"fused", "single_head", "d_k"}; fused and d_k are null when the heads do not divide d_model.
nlohmann::json parameters_json(MhaState& ms, const Settings& s);

}  // namespace app::mha
