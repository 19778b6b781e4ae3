// Tests of the captions whose wording depends on the core's numbers, of the text helpers, and of the learned
// table presets: each sentence is checked against what the core computes, so it can only say what holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/logic/captions.hpp"
#include "app/logic/settings.hpp"
#include "app/logic/text.hpp"
#include "core/analysis.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/seeded_router.hpp"
#include "layer_norm_caption.hpp"

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

float offset_error(int d_model) {
  return attn::offset_dependence_error(
      attn::similarity(attn::PositionClock(d_model).table(attn::range_positions(100))));
}

// Independent float64: the largest |S(i, i + k) - S(0, k)| over positions 0..n-1, where S is the dot
// product of two sinusoidal readings (even dimensions sin, odd cos, hand i at 10000^(-2i/d)).
double exact_offset_deviation(int d, int n) {
  auto dot = [d](int a, int b) {
    double sum = 0.0;
    for (int dim = 0; dim < d; ++dim) {
      const double w = std::pow(10000.0, -2.0 * (dim / 2) / d);
      sum += dim % 2 == 0 ? std::sin(a * w) * std::sin(b * w) : std::cos(a * w) * std::cos(b * w);
    }
    return sum;
  };
  double worst = 0.0;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i + k < n; ++i) worst = std::max(worst, std::fabs(dot(i, i + k) - dot(0, k)));
  }
  return worst;
}

TEST(Captions, SimilarityDiagonalsClaimedOnlyWhenTheyHold) {
  for (int d : {2, 4, 16, 64, 512}) {
    EXPECT_LT(exact_offset_deviation(d, 100), 1e-9) << "d_model " << d << ": the diagonals are constant";
    const std::string c = app::similarity_caption(d, 100, offset_error(d));
    EXPECT_TRUE(has(c, "Every diagonal has one value")) << c;
  }
  for (int d : {3, 5, 17, 63, 513}) {
    EXPECT_GT(exact_offset_deviation(d, 100), 1e-6) << "d_model " << d << ": the unpaired sine breaks them";
    const float err = offset_error(d);
    const std::string c = app::similarity_caption(d, 100, err);
    EXPECT_FALSE(has(c, "Every diagonal has one value")) << c;
    EXPECT_TRUE(has(c, "is odd")) << c;
    EXPECT_TRUE(has(c, "not constant")) << c;
    EXPECT_TRUE(has(c, app::format("%.2g", static_cast<double>(err)))) << c;
  }
}

TEST(Captions, AnExactZeroIsNotCalledRounding) {
  const std::string zero = app::similarity_caption(4, 2, 0.0f);
  EXPECT_TRUE(has(zero, "0, exact")) << zero;
  EXPECT_FALSE(has(zero, "rounding")) << zero;
  EXPECT_TRUE(has(app::similarity_caption(4, 100, 3e-7f), "3e-07, float rounding"));
}

TEST(Captions, OnePositionHasNoDiagonalToDescribe) {
  const std::string c = app::similarity_caption(5, 1, 0.0f);
  EXPECT_FALSE(has(c, "not constant")) << c;
  EXPECT_FALSE(has(c, "Every diagonal")) << c;
}

TEST(Captions, ZeroDifferenceIsIdenticalNotRounding) {
  const std::string zero = app::order_difference(0.0);
  EXPECT_TRUE(has(zero, "identical")) << zero;
  EXPECT_FALSE(has(zero, "rounding")) << zero;
  const std::string tiny = app::order_difference(5.96e-8);
  EXPECT_TRUE(has(tiny, "5.96e-08")) << tiny;
  EXPECT_TRUE(has(tiny, "float rounding")) << tiny;
  EXPECT_FALSE(has(tiny, "identical")) << tiny;
  const std::string big = app::order_difference(0.0481);
  EXPECT_EQ(big, "different by 0.0481");  // not float rounding
}

TEST(Captions, EvenWeightsMatchAnIndependentCount) {
  for (int t : {1, 2, 9, 100}) {
    for (bool causal : {false, true}) {
      const attn::Mat w = attn::even_weights(t, causal);  // (T, T)
      double entropy = 0.0, first = 0.0;
      for (int i = 0; i < t; ++i) {
        const int keys = causal ? i + 1 : t;
        EXPECT_NEAR(w.row(i).sum(), 1.0f, 1e-5f);
        for (int j = keys; j < t; ++j) EXPECT_EQ(w(i, j), 0.0f) << "row " << i << " key " << j;
        entropy += std::log(static_cast<double>(keys));
        first += 1.0 / keys;
      }
      const attn::HeadStats st = attn::head_stats(w);
      EXPECT_NEAR(st.entropy, entropy / t, 1e-5 + 1e-5 * entropy / t) << "T " << t << " causal " << causal;
      EXPECT_NEAR(st.first_token_mass, first / t, 1e-6) << "T " << t << " causal " << causal;
    }
  }
  EXPECT_THROW(attn::even_weights(0, false), attn::InputError);
}

TEST(Captions, EvenStatsInClosedFormAreTheMatrixsStats) {
  for (int t : {1, 2, 3, 9, 100, 511, 1024}) {
    for (bool causal : {false, true}) {
      const attn::HeadStats a = attn::even_stats(t, causal),
                            b = attn::head_stats(attn::even_weights(t, causal));
      const std::string where = "T " + std::to_string(t) + (causal ? " causal" : "");
      EXPECT_NEAR(a.entropy, b.entropy, 1e-6 + 1e-6 * b.entropy) << where;
      EXPECT_NEAR(a.mean_distance, b.mean_distance, 1e-6 + 1e-6 * b.mean_distance) << where;
      EXPECT_NEAR(a.first_token_mass, b.first_token_mass, 1e-7 + 1e-6 * b.first_token_mass) << where;
    }
  }
  EXPECT_THROW(attn::even_stats(0, false), attn::InputError);
}

TEST(Captions, CausalBaselinesReplaceLnTAndOneOverT) {
  const int t = 9;
  const attn::HeadStats plain = attn::head_stats(attn::even_weights(t, false));
  const attn::HeadStats causal = attn::head_stats(attn::even_weights(t, true));
  const std::string a = app::stats_legend(t, false, plain);
  EXPECT_TRUE(has(a, app::format("ln 9 = %.2f", std::log(9.0)))) << a;
  EXPECT_TRUE(has(a, app::format("1 / 9 = %.3f", 1.0 / 9))) << a;
  // causal: row i has i + 1 keys; the mean of ln(i + 1) and of 1 / (i + 1) over the rows
  double ln = 0.0, inv = 0.0;
  for (int i = 0; i < t; ++i) ln += std::log(i + 1.0), inv += 1.0 / (i + 1.0);
  const std::string b = app::stats_legend(t, true, causal);
  EXPECT_TRUE(has(b, app::format("%.2f and %.3f averaged", ln / t, inv / t))) << b;
  EXPECT_TRUE(has(b, "i + 1 keys")) << b;
  EXPECT_FALSE(has(b, "ln 9 =")) << b;
  const std::string e = app::entropy_baseline(t, true, causal);
  EXPECT_TRUE(has(e, app::format("%.3f", ln / t))) << e;
  EXPECT_FALSE(has(e, "over all keys")) << e;
  EXPECT_TRUE(has(app::entropy_baseline(t, false, plain), app::format("%.3f = ln 9", std::log(9.0))));
  EXPECT_EQ(app::even_entropy(t, false, plain), app::format("ln 9 = %.3f", std::log(9.0)));
  const std::string ec = app::even_entropy(t, true, causal);
  EXPECT_TRUE(has(ec, app::format("%.3f", ln / t))) << ec;
  EXPECT_FALSE(has(ec, "ln 9")) << ec;
  EXPECT_TRUE(has(app::first_token_baseline(true, causal), app::format("%.3f", inv / t)));
  EXPECT_TRUE(has(app::first_token_baseline(false, plain), app::format("%.3f", 1.0 / t)));
}

TEST(Captions, EveryHeadHasItsOwnValueProjection) {
  for (bool trained : {false, true}) {
    const std::string c = app::heads_intro(trained);
    EXPECT_TRUE(has(c, "its own query, key and value projections")) << c;
    EXPECT_TRUE(has(c, "W_O")) << c;
  }
}

TEST(Captions, LessonConfidenceIsNamedAsAnIllustration) {
  // the seeded router without positions, as the order scene runs it (d_model 16, 4 heads, seed 7)
  attn::SeededRouterConfig c;
  c.d_model = 16, c.heads = 4, c.seed = 7, c.positions = attn::Scheme::None;
  const attn::SeededRouter router(c);
  const float a = router.classify("Refund the delivery fee, not the cake.").confidence;
  const float b = router.classify("Refund the cake, not the delivery fee.").confidence;
  EXPECT_NEAR(a, b, 1e-6f) << "order-blind: one confidence for both";
  const std::string without = app::lesson_confidence_note({a, b}, 7, {-1.0f, -1.0f});
  EXPECT_TRUE(has(without, "0.87")) << without;
  EXPECT_TRUE(has(without, "illustration")) << without;
  EXPECT_TRUE(has(without, "(seed 7) gives both " + app::format("%.3f", static_cast<double>(a)))) << without;
  EXPECT_TRUE(has(without, "Train scene")) << without;
  EXPECT_TRUE(has(without, "from a router with other weights")) << without;
  EXPECT_EQ(has(without, ", not 0.87"), app::format("%.3f", static_cast<double>(a)) != "0.870") << without;
  EXPECT_TRUE(
      has(app::lesson_confidence_note({0.8704f, 0.8704f}, 7, {-1.0f, -1.0f}), "both 0.870, the lesson"));
  EXPECT_TRUE(has(app::lesson_confidence_note({a, b}, 7, {0.5123f, 0.5123f}), "gives both 0.512"));
  const std::string differ = app::lesson_confidence_note({a, b}, 7, {0.5f, 0.6f});
  EXPECT_TRUE(has(differ, "gives 0.500 and 0.600")) << differ;
}

TEST(Captions, LayerNormStandardisesEachRow) {
  // the encoder scene's defaults through the core; the caption carries its moments
  const fx::LayerNormCaption lc = fx::encoder_layer_norm_caption();
  const attn::Mat& mo = lc.moments;  // (T, 2)
  EXPECT_NEAR(mo(0, 1), 1.0f, 1e-4f) << "LayerNorm gives each row variance 1 (minus epsilon)";
  const std::string& caption = lc.text;
  EXPECT_TRUE(has(caption, "standardises each row")) << caption;
  EXPECT_TRUE(has(caption, app::format("variance %.6f", static_cast<double>(mo(0, 1))))) << caption;
  EXPECT_TRUE(has(caption, app::format("all %d rows", static_cast<int>(mo.rows())))) << caption;
}

TEST(TextHelpers, GroupedOrdinalAndFormat) {
  EXPECT_EQ(app::grouped(1048576), "1,048,576");
  EXPECT_EQ(app::grouped(-1234), "-1,234");
  EXPECT_EQ(app::grouped(999), "999");
  EXPECT_EQ(app::grouped(0), "0");
  EXPECT_EQ(app::ordinal(1), "1st");
  EXPECT_EQ(app::ordinal(2), "2nd");
  EXPECT_EQ(app::ordinal(3), "3rd");
  EXPECT_EQ(app::ordinal(11), "11th");
  EXPECT_EQ(app::ordinal(22), "22nd");
  EXPECT_EQ(app::ordinal(37), "37th");
  EXPECT_EQ(app::format("%s-%d", std::string(3000, 'x').c_str(), 7).size(), 3002u);  // no fixed buffer
}

TEST(TextHelpers, WrapBreaksOnlyAtSpaces) {
  const app::TextMeasure chars = [](std::string_view t) { return static_cast<float>(t.size()); };
  const std::string text = "one layer has 1,048,576 weights and a variance of 0.999996 here";
  for (int width = 1; width <= 70; ++width) {
    const std::vector<std::string> lines = app::wrap_lines(text, static_cast<float>(width), chars);
    std::string joined;
    for (const std::string& l : lines) {
      joined += (joined.empty() ? "" : " ") + l;
      EXPECT_TRUE(l.size() <= static_cast<size_t>(width) || l.find(' ') == std::string::npos)
          << width << ": " << l;
    }
    EXPECT_EQ(joined, text) << "width " << width;
  }
  EXPECT_EQ(app::wrap_lines("a\nb c", 100, chars), (std::vector<std::string>{"a", "b c"}));
  EXPECT_TRUE(app::splits_number("1,", "048"));
  EXPECT_TRUE(app::splits_number("0.", "999996"));
  EXPECT_TRUE(app::splits_number("104", "8576"));
  EXPECT_FALSE(app::splits_number("weights.", "5"));
  EXPECT_FALSE(app::splits_number("1,", "and"));
}

TEST(LearnedPresets, EachGivesTheErrorForTheFirstSlotPastTheEnd) {
  std::vector<int> sizes;
  for (const app::SlotPreset& p : app::learned_slot_presets()) {
    sizes.push_back(p.slots);
    app::Settings s = app::defaults_for("schemes");
    app::apply_slot_preset(s, p);
    EXPECT_EQ(s.slots, p.slots);
    EXPECT_EQ(s.length, p.slots + 1);
    const attn::Learned table(s.slots, 8, 1);
    EXPECT_NO_THROW(table.table({s.slots - 1}));
    try {
      table.table({s.slots});
      ADD_FAILURE() << "no error for position " << s.slots << " of a " << s.slots << "-slot table";
    } catch (const attn::InputError& e) {
      EXPECT_TRUE(has(e.what(), std::to_string(s.slots))) << e.what();
    }
  }
  EXPECT_NE(std::find(sizes.begin(), sizes.end(), 512), sizes.end()) << "BERT's 512 slots";
  EXPECT_NE(std::find(sizes.begin(), sizes.end(), 1024), sizes.end()) << "GPT-2's 1,024 slots";
}

}  // namespace
