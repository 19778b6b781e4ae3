// The Induction scene's view helpers (app/logic/induction_view), on hand-made curves and a small model.
// Formation steps, the comparison row, held-out attention under the head switches, induction heads and the
// off-effect's boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/induction_view.hpp"
#include "app/logic/train_session.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/induction.hpp"
#include "core/types.hpp"
#include "fixtures.hpp"
#include "induction_session_fixtures.hpp"

namespace {

namespace tr = attn::train;
using namespace app::train_ui;
using namespace induction_fx;

// Curves of a model of 2 layers x 2 heads, one evaluation per {step, previous-token [l0h0 l0h1 l1h0 l1h1],
// prefix-matching [...]}.
Curves hand_made(const std::vector<std::pair<int, std::vector<float>>>& evaluations) {
  Curves c;
  for (const auto& [step, row] : evaluations) {
    c.eval_step.push_back(static_cast<float>(step));
    c.first_half.push_back(2.5f);
    c.second_half.push_back(1.0f);
    c.scores.insert(c.scores.end(), row.begin(), row.end());
  }
  return c;
}

TEST(InductionView, FormedIsTheFirstEvaluationWithEachKindOfHead) {
  const Curves c = hand_made({
      // a later layer's previous-token head and a layer-0 prefix-matching one count for nothing
      {0, {0.1f, 0.2f, 0.9f, 0.9f, 0.9f, 0.9f, 0.1f, 0.1f}},
      {100, {0.1f, 0.4999f, 0.1f, 0.1f, 0.0f, 0.0f, 0.49f, 0.1f}},
      {200, {0.1f, 0.5f, 0.1f, 0.1f, 0.0f, 0.0f, 0.1f, 0.4999f}},  // layer 0's exactly at the floor
      {300, {0.0f, 0.0f, 0.1f, 0.1f, 0.0f, 0.0f, 0.1f, 0.5f}},     // layer 1's at the floor
      {400, {0.9f, 0.9f, 0.1f, 0.1f, 0.0f, 0.0f, 0.9f, 0.9f}},
  });
  const app::induction::Formed f = app::induction::formed(c, 2, 2);
  EXPECT_EQ(f.previous_token, 200);
  EXPECT_EQ(f.induction, 300);

  const app::induction::Formed never = app::induction::formed(
      hand_made({{0, std::vector<float>(8, 0.0f)}, {100, std::vector<float>(8, 0.49f)}}), 2, 2);
  EXPECT_EQ(never.previous_token, -1);
  EXPECT_EQ(never.induction, -1);
  EXPECT_EQ(app::induction::formed(Curves{}, 2, 2).previous_token, -1);

  // evaluation() reads a row back; too few scores are refused
  const tr::InductionMetrics m = app::induction::evaluation(c, 2, 2, 2);
  EXPECT_EQ(m.previous_token, (std::vector<std::vector<double>>{{0.1f, 0.5f}, {0.1f, 0.1f}}));
  EXPECT_EQ(m.induction, (std::vector<std::vector<double>>{{0.0f, 0.0f}, {0.1f, 0.4999f}}));
  EXPECT_TRUE(fx::throws_input_error_saying([&] { app::induction::evaluation(c, 2, 4, 2); }, "missing"));
}

TEST(InductionView, ARowOnlyForAFinishedRunWithItsLongerLengths) {
  const Curves c = hand_made({{0, {0.1f, 0.2f, 0.3f, 0.4f, 0.0f, 0.0f, 0.1f, 0.2f}},
                              {100, {0.7f, 0.6f, 0.3f, 0.95f, 0.8f, 0.0f, 0.25f, 0.65f}}});
  nlohmann::json info;
  info["steps"] = 100;
  info["eval_length"] =
      nlohmann::json::array({{{"length", 64}, {"loss_first_half", 2.7}, {"loss_second_half", 0.75}},
                             {{"length", 128}, {"error", "no"}}});
  const SessionKey key = induction_of(attn::Scheme::Alibi, 3);
  const std::optional<app::induction::Row> row = app::induction::row_of(key, c, info, 2, 2);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->positions, attn::Scheme::Alibi);
  EXPECT_EQ(row->seed, 3);
  EXPECT_EQ(row->steps, 100);
  EXPECT_EQ(row->formed.previous_token, 100);
  EXPECT_EQ(row->formed.induction, 100);
  EXPECT_DOUBLE_EQ(row->best_previous, 0.7f);    // layer 0's, not layer 1's 0.95
  EXPECT_DOUBLE_EQ(row->best_induction, 0.65f);  // the last layer's, not layer 0's 0.8
  EXPECT_DOUBLE_EQ(row->loss_second_half, 1.0);
  ASSERT_EQ(row->longer.size(), 2u);
  EXPECT_EQ(row->longer[0].length, 64);
  EXPECT_DOUBLE_EQ(row->longer[0].loss_second_half, 0.75);
  EXPECT_EQ(row->longer[0].error, "");
  EXPECT_EQ(row->longer[1].error, "no");

  nlohmann::json other = info;
  other["steps"] = 0;  // the snapshot is of another evaluation
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  other = info;
  other["steps"] = 101;
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  other = info;
  other.erase("eval_length");  // a run still training
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  other = info;
  other.erase("steps");
  EXPECT_FALSE(app::induction::row_of(key, c, other, 2, 2).has_value());
  EXPECT_FALSE(app::induction::row_of(key, Curves{}, info, 2, 2).has_value());
  EXPECT_FALSE(app::induction::row_of(key, c, nlohmann::json(), 2, 2).has_value());
}

TEST(InductionView, TheHeldOutSequencesAttentionIsCausalAndFollowsTheSwitches) {
  // a model trained a little (its weights no longer the seeded start)
  const tr::InductionConfig task;
  tr::InductionTrainer trainer(task, tr::induction_model_config(task, attn::Scheme::Rope, 2));
  trainer.train(10);
  const tr::Model& model = trainer.model();
  const app::induction::SequenceAttention all = app::induction::sequence_attention(model);
  EXPECT_EQ(all.ids, tr::induction_eval_set(2, 16, 32, 1).front());
  ASSERT_EQ(all.weights.size(), 8u);
  for (size_t k = 0; k < all.weights.size(); ++k) {
    const attn::Mat& w = all.weights[k];
    ASSERT_EQ(w.rows(), 32);
    ASSERT_EQ(w.cols(), 32);
    double above = 0, worst_sum = 0;
    for (int i = 0; i < 32; ++i) {
      for (int j = i + 1; j < 32; ++j) above = std::max(above, std::fabs(double(w(i, j))));
      worst_sum = std::max(worst_sum, std::fabs(double(w.row(i).sum()) - 1.0));
      for (int j = 0; j <= i; ++j) EXPECT_GE(w(i, j), 0.0f);
    }
    EXPECT_EQ(above, 0.0) << "head " << k << ": a weight above the diagonal, largest " << above;
    EXPECT_LE(worst_sum, 1e-5) << "head " << k << ": largest |row sum - 1| " << worst_sum;
  }
  // a layer-1 head off: every head's weights as before (its output feeds no later layer's attention)
  const attn::HeadSwitch late = tr::parse_heads_off("1.2", 2, 4);
  const app::induction::SequenceAttention off1 = app::induction::sequence_attention(model, &late);
  ASSERT_EQ(off1.weights.size(), 8u);
  for (size_t k = 0; k < 8; ++k) {
    const double d = max_diff(off1.weights[k], all.weights[k]);
    EXPECT_EQ(d, 0.0) << "head " << k << ": largest difference " << d;
  }
  // a layer-0 head off: layer 0's weights as before, layer 1's change (layer 0's output is its input)
  const attn::HeadSwitch early = tr::parse_heads_off("0.1", 2, 4);
  const app::induction::SequenceAttention off0 = app::induction::sequence_attention(model, &early);
  ASSERT_EQ(off0.weights.size(), 8u);
  double layer1 = 0;
  for (size_t k = 0; k < 8; ++k) {
    const double d = max_diff(off0.weights[k], all.weights[k]);
    if (k < 4) {
      EXPECT_EQ(d, 0.0) << "layer 0 head " << k << ": largest difference " << d;
    } else {
      layer1 = std::max(layer1, d);
    }
  }
  EXPECT_GT(layer1, 1e-4) << "switching a layer-0 head off left layer 1's attention as it was";

  // measure() is the trainer's evaluation
  const tr::InductionMetrics m = app::induction::measure(model);
  const tr::InductionMetrics want = trainer.evaluate();
  EXPECT_NEAR(m.loss_second_half, want.loss_second_half, 1e-9);
  EXPECT_LE(max_diff(score_row(m), score_row(want)), 1e-9);
  const tr::InductionMetrics m_off = app::induction::measure(model, &early);
  EXPECT_NE(m_off.loss_second_half, m.loss_second_half);
}

TEST(InductionView, InductionHeadsAreTheLaterLayersHeadsAtTheFloor) {
  tr::InductionMetrics m;
  m.induction = {{0.9, 0.95}, {0.3, 0.2999}, {0.0, 0.8}};
  m.previous_token = {{0, 0}, {0, 0}, {0, 0}};
  const attn::HeadSwitch s = app::induction::induction_heads(m);
  EXPECT_EQ(s.off, (std::vector<std::vector<char>>{{0, 0}, {1, 0}, {0, 1}}));
  EXPECT_TRUE(s.mean.empty()) << "switched off to zeros";
  EXPECT_EQ(app::induction::induction_heads(tr::InductionMetrics{}).off.size(), 0u);
}

TEST(InductionView, OffEffectBoundaries) {
  using app::induction::OffEffect;
  tr::InductionMetrics on, off;
  on.loss_first_half = 4.0, on.loss_second_half = 0.5;
  off.loss_first_half = 4.0;
  const auto effect = [&](double second) {
    off.loss_second_half = second;
    return app::induction::off_effect(on, off);
  };
  EXPECT_EQ(effect(3.0), OffEffect::BackUp);  // exactly 3/4 of the first half's
  EXPECT_EQ(effect(3.5), OffEffect::BackUp);
  EXPECT_EQ(effect(2.999), OffEffect::Rises);
  EXPECT_EQ(effect(0.75), OffEffect::Rises);  // exactly 1.5 times the loss with every head on
  EXPECT_EQ(effect(0.7499), OffEffect::Stays);
  EXPECT_EQ(effect(0.25), OffEffect::Stays);
  const std::string a = app::induction::off_effect_text(OffEffect::BackUp),
                    b = app::induction::off_effect_text(OffEffect::Rises),
                    c = app::induction::off_effect_text(OffEffect::Stays);
  EXPECT_FALSE(a.empty() || b.empty() || c.empty());
  EXPECT_TRUE(a != b && b != c && a != c);
}

}  // namespace
