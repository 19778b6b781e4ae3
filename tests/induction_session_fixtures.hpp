// Helpers shared by the Induction scene's session, message and view tests (tests/test_induction_*.cpp).
// An induction key, curves compared bit for bit or by their largest difference, the session's row of head
// scores, and whether a pause's measure has arrived.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/logic/settings.hpp"
#include "app/logic/train_client.hpp"
#include "app/logic/train_session.hpp"
#include "core/train/induction.hpp"
#include "core/types.hpp"

namespace induction_fx {

// The Induction scene's session key at `positions` and `seed`.
inline app::train_ui::SessionKey induction_of(attn::Scheme positions, int seed = 1) {
  app::Settings s;
  s.positions = positions;
  s.seed = seed;
  return app::train_ui::induction_key(s);
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), 4 * a.size()) == 0);
}

// The largest |a - b| (infinite when the sizes differ).
inline double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(double(a[i]) - double(b[i])));
  return worst;
}

inline double max_diff(const attn::Mat& a, const attn::Mat& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<double>::infinity();
  return (a - b).cwiseAbs().maxCoeff();
}

// Every head's previous-token score, then every head's prefix-matching score, layer-major, as the session
// stores them.
inline std::vector<float> score_row(const attn::train::InductionMetrics& m) {
  std::vector<float> row;
  for (const auto* scores : {&m.previous_token, &m.induction}) {
    for (const auto& layer : *scores) {
      for (double s : layer) row.push_back(static_cast<float>(s));
    }
  }
  return row;
}

// What the session's pause measured has arrived: its snapshot is of step `steps` with the longer lengths.
inline bool settled(const app::train_ui::TrainClient& c, int steps) {
  const nlohmann::json& info = c.snapshot().info;
  return !c.evaluating() && info.is_object() && info.contains("eval_length") &&
         info.value("steps", -1) == steps;
}

}  // namespace induction_fx
