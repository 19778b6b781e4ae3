// The learned table's maths (core/schemes/learned.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// A learned table: one trainable vector per slot 0 .. slots-1, initialised from a seed (normal, std 0.1).
struct Learned {
  int slots;
  int d_model;
  Mat weights;  // (slots, d_model)

  Learned(int slots, int d_model, std::uint64_t seed);
  // (P, d_model); throws InputError naming the position and the slot count when one is past the end.
  Mat table(const std::vector<int>& positions) const;
};

}  // namespace attn
