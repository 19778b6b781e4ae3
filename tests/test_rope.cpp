// RoPE: scores depend only on the gap between query and key, rotations keep lengths, and the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "allclose.hpp"
#include "core/positions.hpp"
#include "reference.hpp"

namespace {

// q at position pq, k at position pk, both rotated by the core, then their dot product.
double rotated_dot(const attn::Rope& rope, const attn::Mat& q, const attn::Mat& k, int pq, int pk) {
  const attn::Mat rq = rope.rotate(q, {pq});
  const attn::Mat rk = rope.rotate(k, {pk});
  double dot = 0.0;
  for (Eigen::Index c = 0; c < q.cols(); ++c) dot += static_cast<double>(rq(0, c)) * rk(0, c);
  return dot;
}

}  // namespace

TEST(Rope, QueryAt10KeyAt7ScoresLikeAnyOtherGapOf3) {
  const attn::Rope rope{};
  const ref::MatD qd = ref::random_matrix(1, 16, 1);
  const attn::Mat q = ref::to_float(qd);
  const attn::Mat k = ref::to_float(qd + 0.3 * ref::random_matrix(1, 16, 2));  // mostly aligned with q
  const double d10_7 = rotated_dot(rope, q, k, 10, 7);
  ASSERT_GT(std::abs(d10_7), 0.5);
  for (auto [pq, pk] : std::vector<std::pair<int, int>>{{5, 2}, {3, 0}, {100, 97}, {503, 500}}) {
    EXPECT_NEAR(rotated_dot(rope, q, k, pq, pk), d10_7, 1e-4 * std::abs(d10_7))
        << "query at " << pq << ", key at " << pk;
  }
  // A different gap gives a different score: the rotation is not a no-op.
  EXPECT_GT(std::abs(rotated_dot(rope, q, k, 10, 9) - d10_7), 1e-3);
}

TEST(Rope, GapInvarianceHoldsForACustomBaseAndOddWidth) {
  const attn::Rope rope{500.0};
  const ref::MatD qd = ref::random_matrix(1, 7, 3);
  const attn::Mat q = ref::to_float(qd);
  const attn::Mat k = ref::to_float(qd + 0.3 * ref::random_matrix(1, 7, 4));
  const double base_dot = rotated_dot(rope, q, k, 4, 0);
  ASSERT_GT(std::abs(base_dot), 0.3);
  for (int p : {9, 40, 777})
    EXPECT_NEAR(rotated_dot(rope, q, k, p + 4, p), base_dot, 1e-4 * std::abs(base_dot));
}

TEST(Rope, RotationPreservesEveryRowsLength) {
  const attn::Rope rope{};
  for (int d : {2, 8, 9, 64}) {
    const attn::Mat m = ref::to_float(ref::random_matrix(6, d, 10u + static_cast<unsigned>(d), 2.0));
    const attn::Mat r = rope.rotate(m, {0, 1, 7, 99, 512, 1023});
    ASSERT_EQ(r.rows(), 6);
    ASSERT_EQ(r.cols(), d);
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(r.row(i).norm(), m.row(i).norm(), 1e-5 * m.row(i).norm()) << "d " << d;
  }
}

TEST(Rope, PositionZeroIsTheIdentity) {
  const attn::Mat m = ref::to_float(ref::random_matrix(3, 10, 5));
  EXPECT_ALLCLOSE(attn::Rope{}.rotate(m, {0, 0, 0}), m);
}

TEST(Rope, MatchesTheFloat64Reference) {
  ref::SplitMix64 g{77};
  for (int trial = 0; trial < 10; ++trial) {
    const auto [d, t, pos] = ref::random_positions(g, 33, 12);
    const double base = trial % 2 ? 10000.0 : 1000.0;
    const ref::MatD m = ref::random_matrix(t, d, g.next());
    SCOPED_TRACE("d " + std::to_string(d) + ", T " + std::to_string(t) + ", base " + std::to_string(base));
    EXPECT_ALLCLOSE(attn::Rope{base}.rotate(ref::to_float(m), pos), ref::rope_rotate(m, pos, base));
  }
}

TEST(Rope, OddWidthLeavesTheLastDimensionAlone) {
  const attn::Mat m = ref::to_float(ref::random_matrix(4, 5, 6));
  const attn::Mat r = attn::Rope{}.rotate(m, {1, 2, 3, 50});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r(i, 4), m(i, 4));
}
