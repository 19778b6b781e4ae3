// Per-row mean and variance of a matrix: what LayerNorm sets to 0 and 1 for every token.
#pragma once

#include "types.hpp"

namespace attn {

// m (T, D) -> (T, 2): column 0 the mean of each row, column 1 its population variance (divided by D, as
// LayerNorm does). Throws InputError for a matrix with no columns.
Mat row_moments(const Mat& m);

}  // namespace attn
