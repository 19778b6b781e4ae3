// The schemes scene's shared data and its lower panels: the offset view, the RoPE pair, the learned table
// limits.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/logic/memo.hpp"
#include "app/logic/settings.hpp"
#include "app/scenes/scenes.hpp"
#include "core/analysis.hpp"
#include "core/pipeline.hpp"

namespace app::schemes {

// One scheme's view of the shown head, copied out of the pipeline cache when the settings change.
struct SchemeView {
  attn::Scheme scheme = attn::Scheme::None;
  std::string name;
  std::string error;          // the core's message when this scheme could not run (learned past its slots)
  attn::Mat weights, scores;  // (T, T) of the shown head; scores before softmax (masked cells -inf)
  attn::HeadStats stats{};
  attn::OffsetProfile weight_offsets, score_offsets;  // (2T - 1,) means over the diagonals i - j
  bool ok() const { return error.empty(); }
};

// The relative scheme's untrained bias of every head against the offset i - j = -(t - 1) .. t - 1.
struct RelativeBias {
  attn::Mat bias;                        // (H, 2t - 1)
  std::vector<int> bucket_of;            // (2t - 1,) each offset's bucket
  std::vector<std::string> head_labels;  // (H,)
  int buckets = 0, max_distance = 0;
};
// Everything the scene shows for the current text and model settings; rebuilt only when they change.
// What the scene computes from text, d_model, heads, the shown head, slots, seed and causal.
struct SchemesData {
  std::uint64_t version = 0;  // next_version() of this computation: keys the heatmaps and the panels' caches
  int heads = 0, head = 0;
  bool causal = false;
  std::vector<std::string> tokens, labels;  // (T,) tokens and their unique display labels
  int dropped = 0;                          // tokens cut past the core's maximum
  std::vector<SchemeView> views;            // one per pipeline_schemes(), in menu order
  std::string common_error;                 // set when every scheme failed for the same reason
  attn::Mat offset_weights, offset_scores;  // (schemes, 2T - 1): NaN where a scheme failed
  std::vector<std::string> scheme_names, offset_labels;
  // The RoPE probe: the first token's query and the second token's key of the shown head, unrotated.
  attn::RowVec q, k;  // (d_k,)
  int k_index = 1;
  std::string probe_error;
  double base = 10000.0;
  attn::HeadStats even{};  // even attention over the keys each row may see (the entropy baseline)
  RelativeBias relative;
};

// What the schemes scene keeps between frames: its data (from text, d_model, heads, the shown head, slots,
// seed, causal) and its panels' states.
struct SchemesState : SceneState {
  Memo<SchemesData, std::string, int, int, int, int, int, bool> memo;
  std::unique_ptr<SceneState> rope, limits;  // draw_rope's and draw_limits'
};

// The shown head: s.head clamped to 0 .. heads-1 (-1 means head 0).
int shown_head(const Settings& s);

// Each panel reports its numbers to state() (ctx.report) and draws only when `open`; `d` is the scene's
// data, held by its memo (the report keeps it alive until state() has run).
// "Offset view" section: mean weight and mean raw score against i - j for every scheme.
void draw_offsets(const Settings& s, const std::shared_ptr<const SchemesData>& d, bool open,
                  SceneContext& ctx);
RelativeBias relative_bias(int heads, int t, bool causal);  // computed with the scene's data
// state().shown["relative_bias"]: buckets, max_distance, bucket_of, bias.
void fill_relative(nlohmann::json& shown, const RelativeBias& r);
// Its paragraph and heatmap, in the offset view.
void draw_relative(const SchemesData& d, const RelativeBias& r, float width);

// "RoPE" section: one query and one key moved together; the score depends on the gap only.
void draw_rope(Settings& s, const std::shared_ptr<const SchemesData>& d, bool open, SceneContext& ctx);
// "Learned table limits" section: the long email through learned, sinusoidal and RoPE positions.
void draw_limits(Settings& s, const std::shared_ptr<const SchemesData>& d, bool open, SceneContext& ctx);

}  // namespace app::schemes
