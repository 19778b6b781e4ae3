// The lesson's shuffle test: attention alone is permutation equivariant; slot positions break it.
#include <gtest/gtest.h>

#include <vector>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "core/positions.hpp"
#include "reference.hpp"

namespace {

const std::vector<int> kPerm = {2, 0, 1, 4, 3};

attn::Mat run(const ref::MatD& x, const attn::AttentionOptions& opt) {
  static const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 0);
  return attn::multi_head(ref::to_float(x), w, opt).output;
}

}  // namespace

TEST(Equivariance, WithoutPositionsShufflingTokensShufflesTheOutputs) {
  const ref::MatD x = ref::random_matrix(5, 8, 1);
  const attn::AttentionOptions opt;
  const ref::MatD out = ref::to_double(run(x, opt));
  const attn::Mat out_shuffled = run(ref::permute_rows(x, kPerm), opt);
  EXPECT_TRUE(ref::allclose(out_shuffled, ref::permute_rows(out, kPerm)));
}

TEST(Equivariance, AddingTheSameSinusoidalTableAfterShufflingBreaksIt) {
  const ref::MatD x = ref::random_matrix(5, 8, 1);
  const attn::AttentionOptions opt;
  const ref::MatD pos = ref::to_double(attn::PositionClock(8).table(attn::range_positions(5)));
  const ref::MatD out = ref::to_double(run(x + pos, opt));
  const ref::MatD out_shuffled = ref::to_double(run(ref::permute_rows(x, kPerm) + pos, opt));
  const ref::MatD expected_if_bag = ref::permute_rows(out, kPerm);
  EXPECT_FALSE(ref::allclose(out_shuffled, expected_if_bag));
  EXPECT_GT(ref::max_abs_diff(out_shuffled, expected_if_bag), 1e-3);
}

TEST(Equivariance, RopeAndAlibiAlsoMakeOrderVisible) {
  const ref::MatD x = ref::random_matrix(5, 8, 1);
  for (attn::Scheme s : {attn::Scheme::Rope, attn::Scheme::Alibi}) {
    attn::AttentionOptions opt;
    opt.positions = s;
    const ref::MatD out = ref::to_double(run(x, opt));
    const ref::MatD out_shuffled = ref::to_double(run(ref::permute_rows(x, kPerm), opt));
    EXPECT_GT(ref::max_abs_diff(out_shuffled, ref::permute_rows(out, kPerm)), 1e-3) << attn::scheme_name(s);
  }
}
