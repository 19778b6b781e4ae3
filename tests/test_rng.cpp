// The deterministic Rng: SplitMix64 bits checked against an independent implementation, and its uniforms and
// normals.
#include <gtest/gtest.h>

#include <cmath>

#include "core/rng.hpp"
#include "reference.hpp"

TEST(Rng, SameSeedSameSequenceDifferentSeedDifferent) {
  attn::Rng a(123), b(123), c(124);
  int same_as_c = 0;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    same_as_c += x == c.next_u64();
  }
  EXPECT_EQ(same_as_c, 0);
}

TEST(Rng, First1000ValuesOfSeed42AreSplitMix64) {
  attn::Rng rng(42);
  ref::SplitMix64 expect{42};
  std::uint64_t checksum_core = 0, checksum_ref = 0;
  int first_mismatch = -1;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t got = rng.next_u64(), want = expect.next();
    if (got != want && first_mismatch < 0) first_mismatch = i;
    checksum_core = (checksum_core ^ got) * 0x100000001b3ULL;  // FNV-style fold keeps the order
    checksum_ref = (checksum_ref ^ want) * 0x100000001b3ULL;
  }
  EXPECT_EQ(checksum_core, checksum_ref) << "first mismatch at draw " << first_mismatch;
}

TEST(Rng, UniformIsTheTop24BitsScaled) {
  attn::Rng rng(5), bits(5);
  for (int i = 0; i < 1000; ++i) {
    const float u = rng.uniform();
    EXPECT_EQ(static_cast<double>(u), static_cast<double>(bits.next_u64() >> 40) / 16777216.0);
    EXPECT_GE(u, 0.0f);
    EXPECT_LT(u, 1.0f);
  }
}

TEST(Rng, NormalIsTwelveUniformsMinusSix) {
  attn::Rng rng(9), bits(9);
  for (int i = 0; i < 200; ++i) {
    double sum = 0.0;
    for (int k = 0; k < 12; ++k) sum += static_cast<double>(bits.next_u64() >> 40) / 16777216.0;
    EXPECT_NEAR(rng.normal(), sum - 6.0, 1e-5);
  }
}

TEST(Rng, NormalHasMeanZeroAndVarianceOneOver100kDraws) {
  attn::Rng rng(2024);
  const int n = 100000;
  double sum = 0.0, sq = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.normal();
    ASSERT_GE(x, -6.0);
    ASSERT_LE(x, 6.0);
    sum += x;
    sq += x * x;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.0, 0.015);
  EXPECT_NEAR(sq / n - mean * mean, 1.0, 0.02);
}

TEST(Rng, NormalMatrixIsFilledRowByRowWithScaledNormals) {
  attn::Rng rng(77), again(77);
  const attn::Mat m = rng.normal_matrix(3, 4, 0.25f);
  ASSERT_EQ(m.rows(), 3);
  ASSERT_EQ(m.cols(), 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_NEAR(m(i, j), 0.25 * again.normal(), 1e-6) << "(" << i << ", " << j << ")";
}

TEST(Rng, MixSeedIsDeterministicAndSpreads) {
  EXPECT_EQ(attn::mix_seed(7, 1), attn::mix_seed(7, 1));
  EXPECT_NE(attn::mix_seed(7, 1), attn::mix_seed(7, 2));
  EXPECT_NE(attn::mix_seed(7, 1), attn::mix_seed(8, 1));
}
