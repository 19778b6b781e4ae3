// The raw position number, the lesson's first naive attempt (core/schemes/raw.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// Naive attempt 1: write the position number itself into every dimension. (P, d_model)
Mat raw_position_table(const std::vector<int>& positions, int d_model);

}  // namespace attn
