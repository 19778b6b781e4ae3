// The sinusoidal clock's maths (core/schemes/sinusoidal.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// The sinusoidal clock: hand i (dimensions 2i and 2i+1) turns at speed base^(-2i / d_model) radians per
// token. Even dimensions hold the sine, odd ones the cosine; with an odd d_model the last, unpaired
// dimension holds a sine.
struct PositionClock {
  int d_model;
  double base = 10000.0;

  PositionClock(int d_model, double base = 10000.0);
  int hands() const { return (d_model + 1) / 2; }
  // Radians per token of hand i, (hands,).
  std::vector<double> speeds() const;
  // Tokens per full turn of hand i (2 pi / speed), (hands,).
  std::vector<double> wavelengths() const;
  // One row per position: (P, d_model).
  Mat table(const std::vector<int>& positions) const;
};

}  // namespace attn
