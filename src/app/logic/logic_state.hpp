// What the app's logic keeps between frames (the version counter, the pipeline cache, the trained model),
// in one struct the App owns; the logic's functions reach it through logic_state().
#pragma once

#include <cstdint>
#include <vector>

#include "app/logic/longer_emails.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/logic/trained_model.hpp"

namespace app {

class ComputeLink;

// compute_link.hpp's link and the messages from the worker not yet taken.
struct WorkerState {
  ComputeLink* link = nullptr;
  bool wanted = false;            // want_compute_worker() was called
  bool possible = false;          // the platform has a link, or may have one
  bool helpers_wanted = false;    // want_compute_helpers() was called
  bool helpers_starting = false;  // the platform is starting its helper workers
  std::vector<std::vector<std::uint8_t>> inbox;
};

struct LogicState {
  std::uint64_t last_version = 0;  // the last number next_version() handed out
  PipelineStore pipelines;         // cached_pipeline()'s results and the weights they share
  TrainedModelStore trained;       // the trained model, its load status and its attention
  WorkerState worker;              // the compute worker, when the platform has one
  LongerStore longer;              // the Train scene's longer-emails measure of the current model
};

// The state in use: the one given to use_logic_state(), else one of the logic's own (tests and tools
// that have no App).
LogicState& logic_state();
// Makes `s` the state the logic uses (the App's, while it lives); nullptr: the logic's own again.
void use_logic_state(LogicState* s);

}  // namespace app
