// ALiBi's maths (core/schemes/alibi.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// ALiBi: head h of H adds -slope_h * |i - j| to the score of query i and key j, slope_h = 2^(-8(h+1)/H).
struct Alibi {
  int heads;
  float slope(int head) const;
  // (T, T) bias of one head for the given positions.
  Mat bias(const std::vector<int>& positions, int head) const;
};

}  // namespace attn
