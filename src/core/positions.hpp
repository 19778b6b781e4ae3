// The maths of the position schemes (each implemented in its file of core/schemes): the sinusoidal clock,
// the learned table, RoPE, ALiBi and the two naive attempts, and the checks they share.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/schemes/scheme.hpp"
#include "types.hpp"

namespace attn {

// Positions 0, 1, ..., count - 1.
std::vector<int> range_positions(int count);
// Throws InputError unless every position is in 0 .. kMaxPosition.
inline constexpr int kMaxPosition = 1000000;
void require_positions(const std::vector<int>& positions);
// Throws InputError unless base is a finite number above 1 (and at most 1e12).
void require_base(double base);

// Radians per token of dimension pair i in a width-d rotation family: base^(-2i / d). The sinusoidal
// clock's hands and RoPE's pairs turn at these speeds.
double rotation_speed(double base, int pair, int width);

// The sinusoidal clock: hand i (dimensions 2i and 2i+1) turns at speed base^(-2i / d_model) radians per
// token. Even dimensions hold the sine, odd ones the cosine; with an odd d_model the last, unpaired
// dimension holds a sine.
struct Sinusoidal {
  int d_model;
  double base = 10000.0;

  Sinusoidal(int d_model, double base = 10000.0);
  int hands() const { return (d_model + 1) / 2; }
  // Radians per token of hand i, (hands,).
  std::vector<double> speeds() const;
  // Tokens per full turn of hand i (2 pi / speed), (hands,).
  std::vector<double> wavelengths() const;
  // One row per position: (P, d_model).
  Mat table(const std::vector<int>& positions) const;
};

// A learned table: one trainable vector per slot 0 .. slots-1, initialised from a seed (normal, std 0.1).
struct Learned {
  int slots;
  int d_model;
  Mat weights;  // (slots, d_model)

  Learned(int slots, int d_model, std::uint64_t seed);
  // (P, d_model); throws InputError naming the position and the slot count when one is past the end.
  Mat table(const std::vector<int>& positions) const;
};

// (P, d_model) rows, row r filled with value(positions[r]): the two naive attempts.
template <typename F>
Mat constant_rows(const std::vector<int>& positions, int d_model, F value) {
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_positions(positions);
  Mat t(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r)
    t.row(static_cast<Eigen::Index>(r)).setConstant(value(positions[r]));
  return t;
}

// Naive attempt 1: write the position number itself into every dimension. (P, d_model)
Mat raw_position_table(const std::vector<int>& positions, int d_model);
// Naive attempt 2: position / text length in every dimension. (P, d_model); length >= 1.
Mat fraction_position_table(const std::vector<int>& positions, int length, int d_model);

// RoPE: rotates each dimension pair (2i, 2i+1) of a row by position * speed_i, speed_i = base^(-2i/d).
// A query at p and a key at p - k then score the same for every p. With an odd width the last
// dimension is left unrotated.
struct Rope {
  double base = 10000.0;
  // m: (T, d) rows at `positions` (T entries) -> rotated copy (T, d).
  Mat rotate(const Mat& m, const std::vector<int>& positions) const;
};

// ALiBi: head h of H adds -slope_h * |i - j| to the score of query i and key j, slope_h = 2^(-8(h+1)/H).
struct Alibi {
  int heads;
  float slope(int head) const;
  // (T, T) bias of one head for the given positions.
  Mat bias(const std::vector<int>& positions, int head) const;
};

}  // namespace attn
