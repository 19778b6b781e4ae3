// The seeded refund router: a bag of words without positions, order-aware with them, and its input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "allclose.hpp"
#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/seeded_router.hpp"
#include "core/tokenizer.hpp"
#include "reference.hpp"

namespace {

const std::string kFee = "Refund the delivery fee, not the cake.";
const std::string kCake = "Refund the cake, not the delivery fee.";

attn::SeededRouterConfig config(attn::Scheme s) {
  attn::SeededRouterConfig c;
  c.positions = s;
  return c;
}

}  // namespace

TEST(SeededRouter, WithoutPositionsBothEmailsGetTheSameLabelAndConfidence) {
  const attn::SeededRouter router(config(attn::Scheme::None));
  const attn::SeededRouterResult a = router.classify(kFee), b = router.classify(kCake);
  EXPECT_EQ(a.label, b.label);
  EXPECT_NEAR(a.confidence, b.confidence, 1e-6);
  EXPECT_NEAR(a.probabilities[0], b.probabilities[0], 1e-6);
}

// The page says "identical, to the last bit": the shuffled email gives bit-equal probabilities for every
// width, head count and seed tried (attention sums keys in a canonical order, the pooling sums in double).
TEST(SeededRouter, WithoutPositionsTheProbabilitiesAreBitEqual) {
  int cases = 0;
  for (int d_model : {8, 16, 64}) {
    for (int heads : {1, 4}) {
      for (std::uint64_t seed = 0; seed < 8; ++seed) {
        attn::SeededRouterConfig c = config(attn::Scheme::None);
        c.d_model = d_model;
        c.heads = heads;
        c.seed = seed;
        const attn::SeededRouter router(c);
        const attn::SeededRouterResult a = router.classify(kFee), b = router.classify(kCake);
        ASSERT_EQ(a.probabilities[0], b.probabilities[0])
            << "d_model " << d_model << ", " << heads << " heads, seed " << seed;
        ASSERT_EQ(a.probabilities[1], b.probabilities[1]);
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 48);
}

TEST(SeededRouter, WithPositionsTheProbabilitiesDiffer) {
  for (attn::Scheme s : {attn::Scheme::Sinusoidal, attn::Scheme::Learned, attn::Scheme::Rope}) {
    const attn::SeededRouter router(config(s));
    const attn::SeededRouterResult a = router.classify(kFee), b = router.classify(kCake);
    EXPECT_GT(std::abs(a.probabilities[0] - b.probabilities[0]), 1e-4) << attn::scheme_name(s);
  }
}

TEST(SeededRouter, ResultIsConsistent) {
  const attn::SeededRouter router(config(attn::Scheme::Sinusoidal));
  const attn::SeededRouterResult r = router.classify(kFee);
  EXPECT_EQ(r.tokens, attn::tokenize(kFee));
  ASSERT_EQ(r.inputs.rows(), 9);
  ASSERT_EQ(r.inputs.cols(), 16);
  EXPECT_NEAR(r.probabilities[0] + r.probabilities[1], 1.0, 1e-6);
  ASSERT_TRUE(r.label == 0 || r.label == 1);
  EXPECT_EQ(r.confidence, r.probabilities[static_cast<size_t>(r.label)]);
  EXPECT_GE(r.confidence, r.probabilities[static_cast<size_t>(1 - r.label)]);
  EXPECT_ALLCLOSE(attn::Mat(r.pooled), attn::Mat(r.attention.output.colwise().mean()));
  ASSERT_EQ(r.attention.head.size(), 4u);
}

TEST(SeededRouter, SinusoidalInputsAreTheEmbeddingsPlusTheClockTable) {
  const attn::SeededRouterResult plain = attn::SeededRouter(config(attn::Scheme::None)).classify(kFee);
  const attn::SeededRouterResult clock = attn::SeededRouter(config(attn::Scheme::Sinusoidal)).classify(kFee);
  EXPECT_ALLCLOSE(ref::to_double(clock.inputs) - ref::to_double(plain.inputs),
                  ref::sinusoidal(ref::iota(9), 16));
}

TEST(SeededRouter, TwoDistinctLabels) {
  const auto& labels = attn::SeededRouter::labels();
  EXPECT_FALSE(labels[0].empty());
  EXPECT_FALSE(labels[1].empty());
  EXPECT_NE(labels[0], labels[1]);
}

TEST(SeededRouter, SameSeedSameResultDifferentSeedDifferent) {
  attn::SeededRouterConfig c = config(attn::Scheme::Sinusoidal);
  const attn::SeededRouterResult a = attn::SeededRouter(c).classify(kFee);
  const attn::SeededRouterResult b = attn::SeededRouter(c).classify(kFee);
  EXPECT_EQ(a.probabilities, b.probabilities);
  EXPECT_TRUE(a.inputs == b.inputs);
  c.seed = 8;
  const attn::SeededRouterResult other = attn::SeededRouter(c).classify(kFee);
  EXPECT_GT(std::abs(other.probabilities[0] - a.probabilities[0]), 1e-6);
}

TEST(SeededRouter, LearnedTableShorterThanTheTextIsAnInputError) {
  attn::SeededRouterConfig c = config(attn::Scheme::Learned);
  c.learned_slots = 4;
  const attn::SeededRouter router(c);
  EXPECT_THROW(router.classify(kFee), attn::InputError);
  EXPECT_NO_THROW(router.classify("refund the fee"));
}

TEST(SeededRouter, EmptyBlankOrTooLongTextIsAnInputError) {
  const attn::SeededRouter router(config(attn::Scheme::None));
  EXPECT_THROW(router.classify(""), attn::InputError);
  EXPECT_THROW(router.classify("   \n"), attn::InputError);
  std::string longest, too_long;
  for (int i = 0; i < attn::kMaxTokens; ++i) longest += "cake ";
  too_long = longest + "fee";
  EXPECT_NO_THROW(router.classify(longest));
  EXPECT_THROW(router.classify(too_long), attn::InputError);
}
