// The Train scene's head measures (app/logic/head_measure): measured an email at a time, the roles are the
// core's router_head_roles; a head switched off gives the held-out measures and predictions of the same
// model with that head's rows of W_o zeroed by hand; mean ablation uses each head's mean output over the
// training emails, summed here from the forward passes; an email the model cannot read stops it in words.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "allclose.hpp"
#include "app/logic/head_measure.hpp"
#include "app/logic/train_session.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/trainer.hpp"

namespace {

namespace tr = attn::train;
using app::HeadMeasure;

const std::vector<tr::Example>& held_out() {
  return app::train_ui::refund_data().test;
}

// A part-trained router on the app's data: 2 layers of 4 heads (d_k 4), so a head's switch has a place.
const tr::Trainer& trained() {
  static const tr::Trainer t = [] {
    tr::ModelConfig c;
    c.d_model = 16, c.heads = 4, c.layers = 2, c.positions = attn::Scheme::Sinusoidal, c.seed = 3;
    tr::Trainer tt(c, {}, app::train_ui::refund_data());
    tt.train(150);
    return tt;
  }();
  return t;
}

// work() until it says it is done, at most `limit` calls; returns the number of calls.
int run(HeadMeasure& hm, const tr::Model& model, const attn::HeadSwitch& off, bool mean, double budget_ms,
        int limit = 100000) {
  int calls = 0;
  while (calls < limit) {
    ++calls;
    if (hm.work(model, trained().vocab(), off, mean, budget_ms)) break;
  }
  return calls;
}

// The model with head (layer, head) switched off by hand: its d_k rows of W_o zeroed, so its output adds
// nothing to concat W_o.
tr::Model zeroed(const tr::Model& model, int layer, int head) {
  tr::Model m = model;
  const int dk = model.config.d_model / model.config.heads;
  m.params.layers[static_cast<size_t>(layer)].w_o.middleRows(head * dk, dk).setZero();
  return m;
}

double largest_role_difference(const std::vector<tr::HeadRole>& a, const std::vector<tr::HeadRole>& b) {
  double worst = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    for (size_t k = 0; k < std::min(a[i].scores.size(), b[i].scores.size()); ++k)
      worst = std::max(worst, std::fabs(a[i].scores[k].value - b[i].scores[k].value));
  }
  return worst;
}

TEST(HeadMeasure, OneEmailAtATimeGivesTheCoresRolesAndMeasures) {
  const tr::Model& model = trained().model();
  const tr::Vocab& vocab = trained().vocab();
  HeadMeasure hm(2, 4);
  const attn::HeadSwitch none = tr::parse_heads_off("", 2, 4);
  // a budget of 0: one email per call, the roles' pass and the all-on pass
  const int calls = run(hm, model, none, false, 0.0);
  EXPECT_EQ(calls, static_cast<int>(2 * held_out().size()));
  const app::HeadMeasures& got = hm.measures();
  ASSERT_TRUE(got.roles_done && got.all_on_done && got.ablated_done) << got.error;
  EXPECT_EQ(got.error, "");
  EXPECT_FLOAT_EQ(got.fraction, 1.0f);

  const std::vector<tr::HeadRole> want =
      tr::router_head_roles(model, vocab, app::train_ui::refund_data().items, held_out());
  ASSERT_EQ(got.roles.size(), want.size());
  const double worst = largest_role_difference(got.roles, want);
  EXPECT_LE(worst, 1e-12) << "largest role score difference " << worst;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got.roles[i].layer, want[i].layer);
    EXPECT_EQ(got.roles[i].head, want[i].head);
    EXPECT_EQ(got.roles[i].role, want[i].role) << "head " << want[i].layer << "." << want[i].head;
  }
  const tr::SetMetrics all = tr::evaluate_set(model, vocab, held_out());
  EXPECT_EQ(got.all_on.accuracy, all.accuracy);
  EXPECT_EQ(got.all_on.pair_accuracy, all.pair_accuracy);
  EXPECT_NEAR(got.all_on.loss, all.loss, 1e-6);
}

TEST(HeadMeasure, ASwitchedOffHeadIsTheModelWithItsRowsOfWoZeroed) {
  const tr::Model& model = trained().model();
  const tr::Vocab& vocab = trained().vocab();
  HeadMeasure hm(2, 4);
  run(hm, model, tr::parse_heads_off("", 2, 4), false, 1e9);
  // then head 0.1 off: only the ablated pass is measured, an email per call
  const attn::HeadSwitch off = tr::parse_heads_off("0.1", 2, 4);
  EXPECT_EQ(run(hm, model, off, false, 0.0), static_cast<int>(held_out().size()));
  const app::HeadMeasures& got = hm.measures();
  ASSERT_TRUE(got.ablated_done) << got.error;

  const tr::Model by_hand = zeroed(model, 0, 1);
  const tr::SetMetrics want = tr::evaluate_set(by_hand, vocab, held_out());
  EXPECT_EQ(got.ablated.accuracy, want.accuracy);
  EXPECT_EQ(got.ablated.pair_accuracy, want.pair_accuracy);
  EXPECT_NEAR(got.ablated.loss, want.loss, 1e-5)
      << "measured " << got.ablated.loss << ", by hand " << want.loss;
  // the switch does something: the loss moves
  EXPECT_GT(std::fabs(got.ablated.loss - got.all_on.loss), 1e-4);

  // the typed email with the head off, as the panel predicts it
  const attn::HeadSwitch* applied = hm.applied();
  ASSERT_NE(applied, nullptr);
  const std::string text = "Please refund the balloons, not the cake.";
  const tr::TextPrediction p = tr::predict_text(model, vocab, text, applied);
  const tr::TextPrediction q = tr::predict_text(by_hand, vocab, text);
  EXPECT_EQ(p.prediction.label, q.prediction.label);
  const auto& pp = p.prediction.probabilities;
  const auto& qp = q.prediction.probabilities;
  ASSERT_EQ(pp.size(), qp.size());
  using Row = Eigen::Map<const Eigen::RowVectorXf>;
  EXPECT_ALLCLOSE_TOL(Row(pp.data(), static_cast<Eigen::Index>(pp.size())),
                      Row(qp.data(), static_cast<Eigen::Index>(qp.size())), 1e-6, 1e-5);

  // every head on again: nothing left to measure
  EXPECT_EQ(run(hm, model, tr::parse_heads_off("", 2, 4), false, 0.0), 1);
  EXPECT_TRUE(hm.measures().ablated_done);
}

TEST(HeadMeasure, MeanAblationUsesEachHeadsMeanOutputOverTheTrainingEmails) {
  const tr::Model& model = trained().model();
  const tr::Vocab& vocab = trained().vocab();
  const int layers = 2, heads = 4, dk = 4;
  // each head's output summed over every position of every training email, from the forward passes
  std::vector<double> sum(static_cast<size_t>(layers * heads * dk), 0.0);
  long long rows = 0;
  tr::Forward f;
  for (const std::vector<int>& ids : tr::encode_set(vocab, app::train_ui::refund_data().train)) {
    model.forward(ids, f);
    rows += static_cast<long long>(ids.size());
    for (int l = 0; l < layers; ++l) {
      const attn::Mat& concat = f.layers[static_cast<size_t>(l)].concat;  // (T, D)
      for (Eigen::Index i = 0; i < concat.rows(); ++i) {
        for (int c = 0; c < heads * dk; ++c) sum[static_cast<size_t>(l * heads * dk + c)] += concat(i, c);
      }
    }
  }

  HeadMeasure hm(2, 4);
  const attn::HeadSwitch off = tr::parse_heads_off("1.2,0.0", 2, 4);
  run(hm, model, off, true, 1e9);
  const app::HeadMeasures& got = hm.measures();
  ASSERT_TRUE(got.ablated_done) << got.error;
  const attn::HeadSwitch* applied = hm.applied();
  ASSERT_NE(applied, nullptr);
  ASSERT_EQ(applied->mean.size(), 2u);
  double worst = 0;
  for (int l = 0; l < layers; ++l) {
    for (int h = 0; h < heads; ++h) {
      for (int j = 0; j < dk; ++j) {
        const double want = sum[static_cast<size_t>(l * heads * dk + h * dk + j)] / static_cast<double>(rows);
        worst = std::max(
            worst,
            std::fabs(applied->mean[static_cast<size_t>(l)][static_cast<size_t>(h)][static_cast<size_t>(j)] -
                      want));
      }
    }
  }
  EXPECT_LE(worst, 1e-9) << "largest difference from the mean outputs summed here: " << worst;

  attn::HeadSwitch with_means = off;
  with_means.mean = applied->mean;
  const tr::SetMetrics want = tr::evaluate_set(model, vocab, held_out(), nullptr, &with_means);
  EXPECT_EQ(got.ablated.accuracy, want.accuracy);
  EXPECT_EQ(got.ablated.pair_accuracy, want.pair_accuracy);
  EXPECT_NEAR(got.ablated.loss, want.loss, 1e-6);
  // not the zero ablation's measures
  const tr::SetMetrics zeros = tr::evaluate_set(model, vocab, held_out(), nullptr, &off);
  EXPECT_GT(std::fabs(got.ablated.loss - zeros.loss), 1e-5)
      << "mean " << got.ablated.loss << " vs zeros " << zeros.loss;
}

TEST(HeadMeasure, AnEmailTheModelCannotReadStopsItInWords) {
  tr::ModelConfig c;
  c.d_model = 8, c.heads = 2, c.positions = attn::Scheme::Learned, c.max_len = 4, c.seed = 1;
  tr::Trainer t(c, {}, app::train_ui::refund_data());
  HeadMeasure hm(1, 2);
  EXPECT_TRUE(hm.work(t.model(), t.vocab(), tr::parse_heads_off("", 1, 2), false, 1e9));
  EXPECT_NE(hm.measures().error.find("position"), std::string::npos) << hm.measures().error;
  EXPECT_FALSE(hm.measures().roles_done);
}

TEST(HeadMeasure, HeadsOffAsTheUrlWritesThem) {
  EXPECT_EQ(app::heads_off_text(tr::parse_heads_off("1.2,0.3", 2, 4)), "0.3,1.2");
  EXPECT_EQ(app::heads_off_text(tr::parse_heads_off("", 2, 4)), "");
}

}  // namespace
