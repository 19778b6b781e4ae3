// Reading the sinusoidal clock: hand angles, two positions compared hand by hand, and PE.PE similarity.
#pragma once

#include <vector>

#include "positions.hpp"

namespace attn {

struct HandReading {
  int hand;           // dimension pair (2*hand, 2*hand+1)
  double speed;       // radians per token
  double wavelength;  // tokens per turn
  double angle_a;     // pos_a * speed, wrapped to [0, 2 pi)
  double angle_b;     // pos_b * speed, wrapped to [0, 2 pi)
  double phase_diff;  // angle_b - angle_a wrapped to (-pi, pi]
  double distance;    // Euclidean distance between the two (sin, cos) readings of this hand
};

// The reading distance under which a hand "nearly repeats" (cannot tell two positions apart).
inline constexpr double kNearlyRepeats = 0.05;

// Hand by hand comparison of two positions: (hands,) readings.
std::vector<HandReading> compare_positions(const Sinusoidal& clock, int pos_a, int pos_b);

// The position in [lo, hi] whose hand `hand` reads closest to position `reference`'s (the lesson's
// exercise: hand 0, reference 0, 1..49 gives 44). Ties go to the smaller position.
int nearest_return(const Sinusoidal& clock, int hand, int reference, int lo, int hi);

// Position-to-position similarity of a table: (P, D) -> (P, P) = table table^T.
Mat similarity(const Mat& table);

// How far the similarity of a sinusoidal table is from depending on the offset alone:
// the largest |S(i, i+k) - S(j, j+k)| over all i, j, k in the matrix. (P, P) -> number
float offset_dependence_error(const Mat& sim);

}  // namespace attn
