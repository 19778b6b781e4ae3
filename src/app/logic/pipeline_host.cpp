// The compute worker's pipeline job: run in slices, answered with progress and then the result.
#include "app/logic/pipeline_host.hpp"

#include <utility>

namespace app {

void PipelineHost::receive(const PipelineJob& job) {
  run_ = CachedPipeline{};
  run_.version = job.version;
  span_ = {job.span.begin, job.span.end_of(job.config.heads)};
  rows_ = PipelineJob{};
  if (job.output_rows) {
    rows_ = job;
  } else {
    start_pipeline(run_, job.text, job.config, weights_, job.span);
  }
  active_ = true;
  last_answer_ = Clock::now();
}

bool PipelineHost::work(double budget_ms) {
  if (!active_) return false;
  if (rows_.output_rows) {  // one block of rows of W_o: a few milliseconds, at once
    output_rows(run_, rows_.concat, rows_.config, weights_);
    rows_.concat = attn::Mat();  // its memory back
    return false;
  }
  advance_pipeline(run_, budget_ms);
  return run_.pending();
}

std::optional<PipelineAnswer> PipelineHost::take_answer() {
  if (!active_) return std::nullopt;
  const Clock::time_point now = Clock::now();
  if (run_.pending() && ms_between(last_answer_, now) < kPipelineProgressEveryMs) return std::nullopt;
  last_answer_ = now;
  PipelineAnswer a;
  a.version = run_.version;
  a.done = !run_.pending();
  a.progress = run_.progress();
  a.compute_ms = run_.compute_ms;
  a.span = span_;
  a.output_rows = rows_.output_rows;
  a.first_row = rows_.first_row;
  if (a.done) {
    a.error = std::move(run_.error);
    a.result = std::move(run_.result);
    run_ = CachedPipeline{};
    rows_ = PipelineJob{};
    active_ = false;
  }
  return a;
}

}  // namespace app
