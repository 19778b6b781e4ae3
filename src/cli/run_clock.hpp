// The wall clock of a CLI run: seconds since a start, to the microsecond, and timed chunks of training.
#pragma once

#include <chrono>
#include <cmath>

namespace attn::cli {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::round(std::chrono::duration<double>(Clock::now() - t0).count() * 1e6) / 1e6;
}

// `chunk` steps of `trainer` (anything with step() and last_loss()); returns their mean loss and adds the
// time they took to `seconds` (evaluations between chunks are not counted).
template <class Trainer>
double train_chunk(Trainer& trainer, int chunk, double& seconds) {
  double loss_sum = 0.0;
  const auto t0 = Clock::now();
  for (int i = 0; i < chunk; ++i) {
    trainer.step();
    loss_sum += trainer.last_loss();
  }
  seconds += seconds_since(t0);
  return loss_sum / chunk;
}

}  // namespace attn::cli
