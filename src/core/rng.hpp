// A tiny deterministic random generator: the same seed gives bit-identical numbers natively and in wasm.
#pragma once

#include <cstdint>

#include "types.hpp"

namespace attn {

// SplitMix64 for the bits; uniforms from the top 24 bits; normals as a sum of 12 uniforms minus 6
// (Irwin-Hall), so only additions are involved and no libm function can differ between platforms.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64();
  // Uniform in [0, 1), a multiple of 2^-24.
  float uniform();
  // Approximately standard normal (mean 0, variance 1), in [-6, 6].
  float normal();
  // (rows, cols) matrix of normal(0, scale^2) entries, filled row by row.
  Mat normal_matrix(int rows, int cols, float scale);

 private:
  std::uint64_t state_;
};

// Mixes a seed with a second number into a new well-spread seed (for per-token or per-layer streams).
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t salt);

}  // namespace attn
