// Position / length, the lesson's second naive attempt (core/schemes/fraction.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// Naive attempt 2: position / text length in every dimension. (P, d_model); length >= 1.
Mat fraction_position_table(const std::vector<int>& positions, int length, int d_model);

}  // namespace attn
