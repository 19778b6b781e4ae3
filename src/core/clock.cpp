// Clock readings: angles per hand, the nearest return of a hand, and the PE.PE similarity matrix.
#include "clock.hpp"

#include <algorithm>
#include <cmath>

#include "error.hpp"
#include "gemm.hpp"

namespace attn {
namespace {

double wrap_2pi(double a) {
  a = std::fmod(a, 2.0 * M_PI);
  return a < 0 ? a + 2.0 * M_PI : a;
}

double wrap_pi(double a) {
  a = wrap_2pi(a);
  return a > M_PI ? a - 2.0 * M_PI : a;
}

}  // namespace

std::vector<HandReading> compare_positions(const PositionClock& clock, int pos_a, int pos_b) {
  const Mat t = clock.table({pos_a, pos_b});  // (2, D)
  const std::vector<double> speed = clock.speeds();
  const std::vector<double> wave = clock.wavelengths();
  std::vector<HandReading> out;
  for (int h = 0; h < clock.hands(); ++h) {
    HandReading r;
    r.hand = h;
    r.speed = speed[static_cast<size_t>(h)];
    r.wavelength = wave[static_cast<size_t>(h)];
    r.angle_a = wrap_2pi(pos_a * r.speed);
    r.angle_b = wrap_2pi(pos_b * r.speed);
    r.phase_diff = wrap_pi(r.angle_b - r.angle_a);
    const int d0 = 2 * h, d1 = std::min(2 * h + 1, clock.d_model - 1);
    r.paired = d1 != d0;
    const double ds = t(1, d0) - t(0, d0);
    const double dc = r.paired ? t(1, d1) - t(0, d1) : 0.0;
    r.distance = std::sqrt(ds * ds + dc * dc);
    r.turns = (static_cast<double>(pos_b) - pos_a) * r.speed / (2.0 * M_PI);
    if (pos_a == pos_b) {
      r.verdict = HandVerdict::Same;
    } else if (r.distance >= kNearlyRepeats) {
      r.verdict = HandVerdict::Differs;
    } else if (!r.paired && std::fabs(r.phase_diff) >= kNearlyRepeats) {  // sin a = sin(pi - a)
      r.verdict = HandVerdict::SineAlike;
    } else {
      r.verdict = std::fabs(r.turns) < 0.5 ? HandVerdict::BarelyMoved : HandVerdict::CameRound;
    }
    out.push_back(r);
  }
  return out;
}

ClosestOffset closest_offset(const PositionClock& clock, int max_offset) {
  require_range(max_offset, 1, 1 << 30, "the largest offset");
  const std::vector<double> speed = clock.speeds();
  const int pairs = clock.d_model / 2;
  ClosestOffset best;
  if (pairs == 0) return best;
  best.distance = INFINITY;
  for (int k = 1; k <= max_offset; ++k) {
    double sq = 0.0;
    for (int h = 0; h < pairs; ++h) {
      const double half = std::sin(0.5 * k * speed[static_cast<size_t>(h)]);
      sq += 4.0 * half * half;
    }
    if (sq < best.distance) best.distance = sq, best.offset = k;
  }
  best.distance = std::sqrt(best.distance);
  return best;
}

double rotation_error(const PositionClock& clock, int start, int k) {
  const Mat rows = clock.table({start, start + k});  // (2, D)
  const std::vector<double> speed = clock.speeds();
  double worst = 0.0;
  for (int h = 0; h < clock.d_model / 2; ++h) {
    const Eigen::Index d = 2 * h;
    const double t = k * speed[static_cast<size_t>(h)], sn = rows(0, d), cs = rows(0, d + 1);
    worst = std::max({worst, std::fabs(sn * std::cos(t) + cs * std::sin(t) - rows(1, d)),
                      std::fabs(cs * std::cos(t) - sn * std::sin(t) - rows(1, d + 1))});
  }
  return worst;
}

int nearest_return(const PositionClock& clock, int hand, int reference, int lo, int hi) {
  require_range(hand, 0, clock.hands() - 1, "the hand");
  require_range(lo, 0, hi, "the first position");
  int best = lo;
  double best_d = INFINITY;
  for (int p = lo; p <= hi; ++p) {
    const double d = compare_positions(clock, reference, p)[static_cast<size_t>(hand)].distance;
    if (d < best_d) best = p, best_d = d;
  }
  return best;
}

Mat similarity(const Mat& table) {
  // (P, D) -> (P, P) = table table^T, row-independent and exactly symmetric (gemm.hpp)
  Mat sim(table.rows(), table.rows());
  gemm::multiply_bt(gemm::in(table), gemm::in(table), gemm::out(sim));
  return sim;
}

float offset_dependence_error(const Mat& sim) {
  const Eigen::Index n = sim.rows();
  float worst = 0.0f;
  for (Eigen::Index k = -(n - 1); k < n; ++k) {
    // every entry on diagonal k should equal the first one on it
    const Eigen::Index i0 = k >= 0 ? 0 : -k;
    const float first = sim(i0, i0 + k);
    for (Eigen::Index i = i0; i < n && i + k < n; ++i)
      worst = std::max(worst, std::abs(sim(i, i + k) - first));
  }
  return worst;
}

}  // namespace attn
