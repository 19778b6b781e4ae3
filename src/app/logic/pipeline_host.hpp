// The compute worker's side of the multi-head scene's recomputes: it runs the one PipelineJob it was last
// given (a new one replaces it: the page asks again for one it still wants) in slices between its messages,
// and answers with its progress now and then, then its result. The same start_pipeline/advance_pipeline
// as the page's own cache (pipeline_cache.hpp): the worker's numbers are the page's. A job may be a span
// of the heads or a second round's rows of the output (pipeline_messages.hpp).
#pragma once

#include <chrono>
#include <optional>

#include "app/logic/clock.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/logic/pipeline_messages.hpp"

namespace app {

inline constexpr double kPipelineProgressEveryMs = 100.0;  // at most this often a progress answer

class PipelineHost {
 public:
  void receive(const PipelineJob& job);
  // About budget_ms of the job's steps; returns whether steps remain.
  bool work(double budget_ms);
  // The job's result once it is done (then the host is idle), else its progress when one is due.
  std::optional<PipelineAnswer> take_answer();

 private:
  SceneWeights weights_;
  CachedPipeline run_;
  attn::HeadSpan span_;  // the job's, its end resolved
  PipelineJob rows_;     // a second round's job (rows_.output_rows), until its rows are computed
  bool active_ = false;
  Clock::time_point last_answer_{};
};

}  // namespace app
