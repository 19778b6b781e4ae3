// The sinusoidal clock: hand i (dimensions 2i, 2i+1) turns base^(-2i / d_model) radians per token; its
// readings are added to the embeddings.
#include <cmath>

#include "core/error.hpp"
#include "core/positions.hpp"

namespace attn {

PositionClock::PositionClock(int d, double b) : d_model(d), base(b) {
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_base(base);
}

std::vector<double> PositionClock::speeds() const {
  std::vector<double> s(static_cast<size_t>(hands()));
  for (int i = 0; i < hands(); ++i) s[static_cast<size_t>(i)] = rotation_speed(base, i, d_model);
  return s;
}

std::vector<double> PositionClock::wavelengths() const {
  std::vector<double> w = speeds();
  for (double& x : w) x = 2.0 * M_PI / x;
  return w;
}

Mat PositionClock::table(const std::vector<int>& positions) const {
  require_positions(positions);
  const std::vector<double> speed = speeds();
  Mat t(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r) {
    for (int dim = 0; dim < d_model; ++dim) {
      const double angle = positions[r] * speed[static_cast<size_t>(dim / 2)];
      // even dimension: sine; odd: cosine (an unpaired last dimension is even, so a sine)
      t(static_cast<Eigen::Index>(r), dim) =
          static_cast<float>(dim % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return t;
}

namespace {

Mat clock_readings(const std::vector<int>& positions, const SchemeArgs& a) {
  return PositionClock(a.d_model, a.base).table(positions);
}

std::vector<SchemeFact> clock_facts(const std::vector<int>&, const SchemeArgs& a) {
  const PositionClock s(a.d_model, a.base);
  return {{"base", {a.base}}, {"speeds", s.speeds(), true}, {"wavelengths", s.wavelengths(), true}};
}

}  // namespace

extern const SchemeDef kSinusoidalScheme;
const SchemeDef kSinusoidalScheme = {Scheme::Sinusoidal,
                                     "sinusoidal",
                                     "clock readings added to the embeddings: hands turning at base^(-2i/d)",
                                     kUseAttention | kUseRouter | kUseTable,
                                     clock_readings,
                                     /*trained_table=*/false,
                                     /*rotation=*/nullptr,
                                     /*score_bias=*/nullptr,
                                     /*appended=*/false,
                                     /*takes_length=*/false,
                                     clock_facts};

}  // namespace attn
