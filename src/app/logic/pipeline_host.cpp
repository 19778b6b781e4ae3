// The compute worker's pipeline job: run in slices, answered with progress and then the result.
#include "app/logic/pipeline_host.hpp"

#include <utility>

namespace app {

void PipelineHost::receive(const PipelineJob& job) {
  run_ = CachedPipeline{};
  run_.version = job.version;
  start_pipeline(run_, job.text, job.config, weights_);
  active_ = true;
  last_answer_ = Clock::now();
}

bool PipelineHost::work(double budget_ms) {
  if (!active_) return false;
  advance_pipeline(run_, budget_ms);
  return run_.pending();
}

std::optional<PipelineAnswer> PipelineHost::take_answer() {
  if (!active_) return std::nullopt;
  const Clock::time_point now = Clock::now();
  if (run_.pending() &&
      std::chrono::duration<double, std::milli>(now - last_answer_).count() < kPipelineProgressEveryMs)
    return std::nullopt;
  last_answer_ = now;
  PipelineAnswer a;
  a.version = run_.version;
  a.done = !run_.pending();
  a.progress = run_.progress();
  a.compute_ms = run_.compute_ms;
  if (a.done) {
    a.error = std::move(run_.error);
    a.result = std::move(run_.result);
    run_ = CachedPipeline{};
    active_ = false;
  }
  return a;
}

}  // namespace app
