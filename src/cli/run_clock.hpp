// The wall clock of a CLI run: seconds since a start, to the microsecond.
#pragma once

#include <chrono>
#include <cmath>

namespace attn::cli {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::round(std::chrono::duration<double>(Clock::now() - t0).count() * 1e6) / 1e6;
}

}  // namespace attn::cli
