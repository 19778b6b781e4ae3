// SplitMix64 generator with platform-independent uniform and normal draws.
#include "rng.hpp"

namespace attn {

std::uint64_t Rng::next_u64() {
  state_ += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

float Rng::uniform() {
  // Top 24 bits -> exactly representable float in [0, 1).
  return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f);
}

float Rng::normal() {
  // Irwin-Hall: the sum of 12 uniforms has mean 6 and variance 1. Summed in double: exact, so
  // identical everywhere.
  double sum = 0.0;
  for (int i = 0; i < 12; ++i) sum += static_cast<double>(uniform());
  return static_cast<float>(sum - 6.0);
}

Mat Rng::normal_matrix(int rows, int cols, float scale) {
  Mat m(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) m(r, c) = normal() * scale;
  }
  return m;
}

std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t salt) {
  Rng r(seed ^ (salt * 0xd1b54a32d192ed03ULL));
  r.next_u64();
  return r.next_u64();
}

}  // namespace attn
