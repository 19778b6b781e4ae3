// The attention scenes' pipeline (no UI code): Settings -> core config, a cache of results, token labels.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "app/logic/settings.hpp"
#include "core/pipeline.hpp"

namespace app {

// The core's settings for the current Settings (s.positions, or `scheme` if given).
attn::PipelineConfig pipeline_config(const Settings& s);
attn::PipelineConfig pipeline_config(const Settings& s, attn::Scheme scheme);

// The pipeline for these settings, recomputed only when they change (the last 12 inputs are kept). On bad
// input the entry's `error` holds the core's message (shown in place). `compute_ms`: the recompute's time.
// A long input is computed over several frames (cached_pipeline's budget): until it is done, `job` holds
// the steps still to run and the result is empty.
struct CachedPipeline {
  attn::PipelineResult result;
  std::string error;
  double compute_ms = 0.0;    // the computation's own time, summed over the frames it took
  std::uint64_t version = 0;  // next_version() of the computation (keys heatmaps and derived caches)
  std::shared_ptr<attn::PipelineSteps> job;  // the steps still to run, or null when done
  bool ok() const { return error.empty() && !job; }
  bool pending() const { return job != nullptr; }
  float progress() const { return job ? job->progress() : 1.0f; }
};
// With budget_ms, each call runs the pending steps for about that long and returns, pending, when they
// are not all done: the caller shows the progress and calls again next frame (a frame is requested).
const CachedPipeline& cached_pipeline(const std::string& text, const attn::PipelineConfig& config,
                                      double budget_ms = 1e30);
// Whether a cached_pipeline call left a computation pending since the last call of this (which clears it).
bool take_pipeline_pending();

// What cached_pipeline() keeps (held by the LogicState): the last 12 results by input, and the weights
// they share (which depend on d_model, heads and seed only).
struct PipelineStore {
  using Key = std::tuple<std::string, int, int, int, bool, std::uint64_t, int, double>;
  std::map<Key, CachedPipeline> cache;
  std::vector<Key> order;  // oldest first
  std::tuple<int, int, std::uint64_t> weights_key{-1, -1, 0};
  std::shared_ptr<const attn::MhaWeights> weights;
  bool pending = false;  // a computation was left pending (take_pipeline_pending)
};

// Token text for display: as it is, but a token longer than 48 bytes cut, with "..." (grid axes, where the
// position is in the tooltip, and the text view).
std::vector<std::string> token_words(const std::vector<std::string>& tokens);
// Token labels "Refund", "my", ... made unique for display when a token repeats ("the", "the#2"); a token
// longer than 48 bytes is shown cut, with "...".
std::vector<std::string> token_labels(const std::vector<std::string>& tokens);

}  // namespace app
