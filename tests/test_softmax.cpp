// ops::softmax_forward: rows sum to 1, huge logits stay finite, -inf entries get weight exactly 0.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "allclose.hpp"
#include "core/ops.hpp"
#include "reference.hpp"

namespace {

// Row softmax of s (T, N) in float.
attn::Mat softmax(const attn::Mat& s) {
  attn::Mat w;
  attn::ops::softmax_forward(s, w);
  return w;
}

}  // namespace

TEST(Softmax, RowsSumToOneAndMatchTheReference) {
  const ref::MatD s = ref::random_matrix(7, 9, 31, 6.0);
  const attn::Mat w = softmax(ref::to_float(s));
  EXPECT_ALLCLOSE(w, ref::softmax_rows(s));
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(w.row(i).cast<double>().sum(), 1.0, 1e-5);
  // the float64 instance of the same op
  attn::MatT<double> wd;
  attn::ops::softmax_forward<double>(s, wd);
  EXPECT_ALLCLOSE_TOL(wd, ref::softmax_rows(s), 1e-14, 1e-12);
}

TEST(Softmax, HugeLogitsStayFinite) {
  attn::Mat s(3, 3);
  s << 1e4f, -1e4f, 0.0f,   //
      1e4f, 1e4f, 1e4f,     //
      -1e4f, -1e4f, -1e4f;  //
  const attn::Mat w = softmax(s);
  EXPECT_TRUE(w.allFinite());
  EXPECT_NEAR(w(0, 0), 1.0f, 1e-6f);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(w(1, j), 1.0f / 3.0f, 1e-6f);
    EXPECT_NEAR(w(2, j), 1.0f / 3.0f, 1e-6f);
  }
}

TEST(Softmax, MinusInfinityGetsExactlyZero) {
  const float inf = std::numeric_limits<float>::infinity();
  attn::Mat s(3, 4);
  s << 0.5f, -inf, 2.0f, -inf,  //
      -inf, -inf, -inf, 3.0f,   //
      -inf, -inf, -inf, -inf;
  const attn::Mat w = softmax(s);
  EXPECT_EQ(w(0, 1), 0.0f);
  EXPECT_EQ(w(0, 3), 0.0f);
  EXPECT_EQ(w(1, 0), 0.0f);
  EXPECT_EQ(w(1, 3), 1.0f);
  EXPECT_NEAR(w(0, 0) + w(0, 2), 1.0f, 1e-6f);
  EXPECT_NEAR(w(0, 2) / w(0, 0), std::exp(1.5f), 1e-4f);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(w(2, j), 0.0f) << "a fully masked row attends nowhere";
}
