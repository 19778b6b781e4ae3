// The position schemes' shared checks and rotation speeds, and (included at the end) each scheme's maths
// from its own header in core/schemes: the sinusoidal clock, the learned table, RoPE, ALiBi and the two
// naive attempts.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/schemes/scheme.hpp"
#include "types.hpp"

namespace attn {

// Positions 0, 1, ..., count - 1.
std::vector<int> range_positions(int count);
// The largest distance between two of `positions`, or count - 1 when they are empty (0 .. count - 1).
int position_span(const std::vector<int>& positions, int count);
// Throws InputError unless every position is in 0 .. kMaxPosition.
inline constexpr int kMaxPosition = 1000000;
void require_positions(const std::vector<int>& positions);
// Throws InputError unless base is a finite number above 1 (and at most 1e12).
void require_base(double base);

// Radians per token of dimension pair i in a width-d rotation family: base^(-2i / d). The sinusoidal
// clock's hands and RoPE's pairs turn at these speeds.
double rotation_speed(double base, int pair, int width);

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

}  // namespace attn

// Each scheme's own maths.
#include "core/schemes/alibi.hpp"
#include "core/schemes/fraction.hpp"
#include "core/schemes/learned.hpp"
#include "core/schemes/raw.hpp"
#include "core/schemes/rope.hpp"
#include "core/schemes/sinusoidal.hpp"
