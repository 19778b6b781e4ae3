// The attention scenes' pipeline (no UI code): Settings -> core config, a cache of results, token labels.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "app/logic/pipeline_messages.hpp"
#include "app/logic/settings.hpp"
#include "core/pipeline.hpp"

namespace app {

// The core's settings for the current Settings (s.positions, or `scheme` if given).
attn::PipelineConfig pipeline_config(const Settings& s);
attn::PipelineConfig pipeline_config(const Settings& s, attn::Scheme scheme);

// The pipeline for these settings, recomputed only when they change (the last 12 inputs are kept). On bad
// input the entry's `error` holds the core's message (shown in place). `compute_ms`: the recompute's time.
// A long input is computed over several frames (cached_pipeline's budget), or in the page's compute worker:
// until it is done, `job` holds the steps still to run here, or `remote` says the worker has it, and the
// result is empty.
struct CachedPipeline {
  attn::PipelineResult result;
  std::string error;
  double compute_ms = 0.0;    // the computation's own time, summed over the frames it took
  std::uint64_t version = 0;  // next_version() of the computation (keys heatmaps and derived caches)
  std::shared_ptr<attn::PipelineSteps> job;  // the steps still to run, or null when done
  bool remote = false;                       // the compute worker computes it (pipeline_messages.hpp)
  float remote_progress = 0.0f;              // what the worker last said of it
  bool from_worker = false;                  // the result or error came from the worker
  int parts_left = 0;                        // parts (a head's or a layer matrix) not arrived yet (remote)
  // Shared by several workers (shares > 1; pipeline_messages.hpp): the config, each share's progress and
  // time in the first round, the longest time of the second round, and whether it is under way.
  int shares = 0;
  attn::PipelineConfig config;
  std::vector<float> share_progress;  // (shares,)
  std::vector<double> share_ms;       // (shares,)
  double rows_ms = 0.0;
  bool second_round = false;
  bool ok() const { return error.empty() && !pending(); }
  bool pending() const { return job != nullptr || remote; }
  float progress() const { return job ? job->progress() : remote ? remote_progress : 1.0f; }
};

// The seeded weights the pipelines share, drawn again only when d_model, heads or the seed change.
struct SceneWeights {
  std::tuple<int, int, std::uint64_t> key{-1, -1, 0};
  std::shared_ptr<const attn::MhaWeights> weights;
  bool has(const attn::PipelineConfig& config) const;
  std::shared_ptr<const attn::MhaWeights> get(const attn::PipelineConfig& config);
};

// The two halves of a computation, wherever it runs (here, or in the worker's PipelineHost): start_pipeline
// sets e.job (or e.error) and e.compute_ms; advance_pipeline runs e.job for about budget_ms and, once it is
// done, puts its result (or error) in e.
// With a span of the heads, the result is PipelineSteps' part for them.
void start_pipeline(CachedPipeline& e, const std::string& text, const attn::PipelineConfig& config,
                    SceneWeights& weights, attn::HeadSpan span = {});
void advance_pipeline(CachedPipeline& e, double budget_ms);
// The second round of a recompute shared by several workers: rows of the output from the same rows of the
// joined concat (rows, D), into e.result.mha.output (or e.error), the time added to e.compute_ms.
void output_rows(CachedPipeline& e, const attn::Mat& concat_rows, const attn::PipelineConfig& config,
                 SceneWeights& weights);

// With budget_ms, each call runs the pending steps for about that long and returns, pending, when they
// are not all done: the caller shows the progress and calls again next frame (a frame is requested). With
// a budget, an input too large to compute within a frame goes to the compute worker when the platform has
// one (compute_link.hpp); its answer is taken in a later call.
const CachedPipeline& cached_pipeline(const std::string& text, const attn::PipelineConfig& config,
                                      double budget_ms = 1e30);
// An answer from the compute worker (the platform decodes it as it arrives), for the next cached_pipeline.
void deliver_pipeline_answer(PipelineAnswer answer);
// Whether a cached_pipeline call left a computation pending since the last call of this (which clears it).
bool take_pipeline_pending();

// What cached_pipeline() keeps (held by the LogicState): the last 12 results by input, and the weights
// they share (which depend on d_model, heads and seed only).
struct PipelineStore {
  using Key = std::tuple<std::string, int, int, int, bool, std::uint64_t, int, double>;
  std::map<Key, CachedPipeline> cache;
  std::vector<Key> order;  // oldest first
  SceneWeights weights;
  std::uint64_t asked = 0;  // the version the compute worker was last given (it computes one at a time)
  std::vector<PipelineAnswer> answers;  // from the worker, not yet taken
  bool pending = false;                 // a computation was left pending (take_pipeline_pending)
};

// Token text for display: as it is, but a token longer than 48 bytes cut, with "..." (grid axes, where the
// position is in the tooltip, and the text view).
std::vector<std::string> token_words(const std::vector<std::string>& tokens);
// Token labels "Refund", "my", ... made unique for display when a token repeats ("the", "the#2"); a token
// longer than 48 bytes is shown cut, with "...".
std::vector<std::string> token_labels(const std::vector<std::string>& tokens);

}  // namespace app
