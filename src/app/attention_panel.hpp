// Shared by the attention scenes: the text/d_model/heads/scheme/causal/seed controls and a cached pipeline.
#pragma once

#include <string>

#include "core/pipeline.hpp"
#include "heatmap_view.hpp"
#include "settings.hpp"

namespace app {

// Which controls attention_controls() shows.
struct ControlSet {
  bool positions = true;  // the scheme combo (the schemes scene shows every scheme instead)
  bool causal = true;
};

// Draws the controls and writes changes into s. Returns true when something changed.
bool attention_controls(Settings& s, const ControlSet& show = {});

// The core's settings for the current Settings (scheme parsed from s.positions, or `scheme` if given).
attn::PipelineConfig pipeline_config(const Settings& s);
attn::PipelineConfig pipeline_config(const Settings& s, attn::Scheme scheme);

// The pipeline for these settings, recomputed only when they change. On bad input returns nullptr and
// fills `error` with the core's message (shown in place). `compute_ms` is the time of the last recompute.
struct CachedPipeline {
  attn::PipelineResult result;
  std::string error;
  double compute_ms = 0.0;
  bool ok() const { return error.empty(); }
};
const CachedPipeline& cached_pipeline(const std::string& text, const attn::PipelineConfig& config);

// Token labels "Refund", "my", ... made unique for display when a token repeats ("the", "the#2"); a token
// longer than 48 bytes is shown cut, with "...".
std::vector<std::string> token_labels(const std::vector<std::string>& tokens);

// A T x T weight grid: queries down, keys across, token labels on both, the weights' colormap on the fixed
// range 0..1 so that every grid shares one scale; `side` x `side` CSS pixels.
HeatmapSpec weight_grid_spec(const std::string& id, const attn::Mat& weights, const std::vector<std::string>& labels,
                             const Settings& s, float side);

// A visible note when the text was cut to the maximum number of tokens.
void truncation_note(int dropped_tokens);

}  // namespace app
