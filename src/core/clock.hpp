// Reading the sinusoidal clock: hand angles, two positions compared hand by hand, and PE.PE similarity.
#pragma once

#include <vector>

#include "positions.hpp"

namespace attn {

// What one hand says about two positions, from its angle and its reading distance.
enum class HandVerdict {
  Same,         // the two positions are one position
  BarelyMoved,  // reads alike: the hand turned less than half a turn between them
  CameRound,    // reads alike: the hand turned close to a whole number of turns (at least one)
  SineAlike,    // reads alike: a lone sine (odd d_model's last hand) happens to read the same
  Differs,      // tells them apart
};

struct HandReading {
  int hand;           // dimension pair (2*hand, 2*hand+1); at odd d_model the last hand is dimension 2*hand
  bool paired;        // a sine and a cosine (false: odd d_model's last hand, a lone sine)
  double speed;       // radians per token
  double wavelength;  // tokens per turn
  double angle_a;     // pos_a * speed, wrapped to [0, 2 pi)
  double angle_b;     // pos_b * speed, wrapped to [0, 2 pi)
  double phase_diff;  // angle_b - angle_a wrapped to (-pi, pi]
  double distance;    // Euclidean distance between the two (sin, cos) readings of this hand
  double turns;       // (pos_b - pos_a) * speed / (2 pi): whole and part turns between the two
  HandVerdict verdict;
};

// The reading distance under which a hand "nearly repeats" (cannot tell two positions apart).
inline constexpr double kNearlyRepeats = 0.05;

// Hand by hand comparison of two positions: (hands,) readings.
std::vector<HandReading> compare_positions(const PositionClock& clock, int pos_a, int pos_b);

// The offset k in [1, max_offset] at which two positions k apart read most alike on the paired hands
// (sin a sin b + cos a cos b makes that distance depend on k alone), and that distance:
// sqrt(sum over paired hands of 4 sin^2(k speed / 2)). max_offset >= 1; a clock with no pair gives 0, 0.
struct ClosestOffset {
  int offset = 0;
  double distance = 0.0;
};
ClosestOffset closest_offset(const PositionClock& clock, int max_offset);

// The fixed rotation: turning each paired hand of the reading at `start` by k x its speed gives the
// reading at start + k. Returns the largest difference from the reading at start + k over the paired
// dimensions (odd d_model's lone sine has no cosine to turn with and is left out; 0 when there is none).
double rotation_error(const PositionClock& clock, int start, int k);

// The position in [lo, hi] whose hand `hand` reads closest to position `reference`'s (the lesson's
// exercise: hand 0, reference 0, 1..49 gives 44). Ties go to the smaller position.
int nearest_return(const PositionClock& clock, int hand, int reference, int lo, int hi);

// Position-to-position similarity of a table: (P, D) -> (P, P) = table table^T.
Mat similarity(const Mat& table);

// How far the similarity of a sinusoidal table is from depending on the offset alone:
// the largest |S(i, i+k) - S(j, j+k)| over all i, j, k in the matrix. (P, P) -> number
float offset_dependence_error(const Mat& sim);

}  // namespace attn
