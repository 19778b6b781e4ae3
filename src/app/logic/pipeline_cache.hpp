// The attention scenes' pipeline (no UI code): Settings -> core config, a cache of results, token labels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"
#include "core/pipeline.hpp"

namespace app {

// The core's settings for the current Settings (scheme parsed from s.positions, or `scheme` if given).
attn::PipelineConfig pipeline_config(const Settings& s);
attn::PipelineConfig pipeline_config(const Settings& s, attn::Scheme scheme);

// The pipeline for these settings, recomputed only when they change (the last 12 inputs are kept). On bad
// input the entry's `error` holds the core's message (shown in place). `compute_ms`: the recompute's time.
struct CachedPipeline {
  attn::PipelineResult result;
  std::string error;
  double compute_ms = 0.0;
  std::uint64_t version = 0;  // next_version() of the computation (keys heatmaps and derived caches)
  bool ok() const { return error.empty(); }
};
const CachedPipeline& cached_pipeline(const std::string& text, const attn::PipelineConfig& config);

// Token labels "Refund", "my", ... made unique for display when a token repeats ("the", "the#2"); a token
// longer than 48 bytes is shown cut, with "...".
std::vector<std::string> token_labels(const std::vector<std::string>& tokens);

}  // namespace app
