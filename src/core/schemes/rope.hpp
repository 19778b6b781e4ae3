// RoPE's maths (core/schemes/rope.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// RoPE: rotates each dimension pair (2i, 2i+1) of a row by position * speed_i, speed_i = base^(-2i/d).
// A query at p and a key at p - k then score the same for every p. With an odd width the last
// dimension is left unrotated.
struct Rope {
  double base = 10000.0;
  // m: (T, d) rows at `positions` (T entries) -> rotated copy (T, d).
  Mat rotate(const Mat& m, const std::vector<int>& positions) const;
};

// RoPE's point in one number: the dot product of q turned to pos_q and k turned to pos_k, divided by
// sqrt(d). q, k: (d,) -> score; depends on pos_q - pos_k only.
float rope_score(const RowVec& q, const RowVec& k, int pos_q, int pos_k, double base = 10000.0);

}  // namespace attn
