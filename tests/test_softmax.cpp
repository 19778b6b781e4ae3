// softmax_rows: rows sum to 1, huge logits stay finite, -inf entries get weight exactly 0.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "reference.hpp"

TEST(Softmax, RowsSumToOneAndMatchTheReference) {
  const ref::MatD s = ref::random_matrix(7, 9, 31, 6.0);
  const attn::Mat w = attn::softmax_rows(ref::to_float(s));
  EXPECT_ALLCLOSE(w, ref::softmax_rows(s));
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(w.row(i).cast<double>().sum(), 1.0, 1e-5);
}

TEST(Softmax, HugeLogitsStayFinite) {
  attn::Mat s(3, 3);
  s << 1e4f, -1e4f, 0.0f,   //
      1e4f, 1e4f, 1e4f,     //
      -1e4f, -1e4f, -1e4f;  //
  const attn::Mat w = attn::softmax_rows(s);
  EXPECT_TRUE(w.allFinite());
  EXPECT_NEAR(w(0, 0), 1.0f, 1e-6f);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(w(1, j), 1.0f / 3.0f, 1e-6f);
    EXPECT_NEAR(w(2, j), 1.0f / 3.0f, 1e-6f);
  }
}

TEST(Softmax, MinusInfinityGetsExactlyZero) {
  const float inf = std::numeric_limits<float>::infinity();
  attn::Mat s(2, 4);
  s << 0.5f, -inf, 2.0f, -inf,  //
      -inf, -inf, -inf, 3.0f;
  const attn::Mat w = attn::softmax_rows(s);
  EXPECT_EQ(w(0, 1), 0.0f);
  EXPECT_EQ(w(0, 3), 0.0f);
  EXPECT_EQ(w(1, 0), 0.0f);
  EXPECT_EQ(w(1, 3), 1.0f);
  EXPECT_NEAR(w(0, 0) + w(0, 2), 1.0f, 1e-6f);
  EXPECT_NEAR(w(0, 2) / w(0, 0), std::exp(1.5f), 1e-4f);
}
