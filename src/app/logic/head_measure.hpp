// The Train scene's heads measure: the trained router's role scores on the held-out emails, and its
// held-out measures with the heads of the `off` setting switched off, one email at a time so that it runs a
// few milliseconds a frame and never blocks the page.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/logic/trained_model.hpp"
#include "core/model/transformer.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/trainer.hpp"

namespace app {

struct HeadsState {
  std::vector<attn::train::HeadRole> roles;  // (layers x heads) in layer-major order
  attn::train::SetMetrics clean;             // every head on
  attn::train::SetMetrics ablated;           // the `off` heads switched off (clean when none is)
  std::vector<std::string> off;              // the heads switched off, "L.H"
  float fraction = 0.0f;                     // share of the held-out emails measured
  bool done = false;
  std::string error;  // why the heads cannot be measured (then done)
};

class HeadsMeasure {
 public:
  // Starts over when the model version or the `off` text changes; then measures about budget_ms of emails
  // (at least one). Each email: a forward pass for the role scores and the measures with every head on,
  // and one with the `off` heads switched off.
  const HeadsState& work(const TrainedModel& m, const std::string& off, double budget_ms);
  const HeadsState& state() const { return state_; }

 private:
  void start(const TrainedModel& m, const std::string& off);
  long long version_ = -1;
  std::string off_text_;
  attn::HeadSwitch switch_;
  std::optional<attn::train::RouterRoleTally> tally_;
  std::optional<attn::train::SetEvaluation> clean_, ablated_;
  attn::train::Forward forward_;
  size_t next_ = 0;
  HeadsState state_;
};

}  // namespace app
