// gemm.hpp: the packed float product against a float64 reference and against a plain loop in the same k
// order (bit for bit), on odd shapes, blocks of larger matrices, A B, A B^T and A B in a given k order (also
// with b packed once, gemm::PackedB, and a in row blocks); row independence under permutations; the
// 4-lane exp against std::exp; softmax rows summing to 1 at every width.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/gemm.hpp"
#include "core/ops.hpp"
#include "core/rng.hpp"

namespace {

using attn::Mat;
namespace gemm = attn::gemm;

Mat random(int rows, int cols, std::uint64_t seed, float scale = 1.0f) {
  attn::Rng rng(seed);
  return rng.normal_matrix(rows, cols, scale);
}

// b's entry (k, j): b(k, j) for A B, b(j, k) for A B^T.
float b_at(const gemm::In& b, bool bt, int k, int j) {
  return bt ? b.data[j * b.stride + k] : b.data[k * b.stride + j];
}

// The float64 product of the float operands, and for each entry a bound on float32 rounding:
// |got - want| <= (K + 2) * 2^-24 * sum_k |a_ik b_kj| (plus the scaling of a).
struct Reference {
  Eigen::MatrixXd want, bound;
};
Reference reference(gemm::In a, gemm::In b, bool bt, float scale) {
  const int n = bt ? b.rows : b.cols;
  Reference r{Eigen::MatrixXd::Zero(a.rows, n), Eigen::MatrixXd::Zero(a.rows, n)};
  for (int i = 0; i < a.rows; ++i) {
    for (int j = 0; j < n; ++j) {
      double s = 0, m = 0;
      for (int k = 0; k < a.cols; ++k) {
        const double p = static_cast<double>(a.data[i * a.stride + k]) * scale * b_at(b, bt, k, j);
        s += p;
        m += std::abs(p);
      }
      r.want(i, j) = s;
      r.bound(i, j) = (a.cols + 2) * std::ldexp(m, -24) + 1e-30;
    }
  }
  return r;
}

// The plain loop the kernel must equal bit for bit: c_ij = ((0 + a'_i k0 b_k0 j) + a'_i k1 b_k1 j) + ...,
// a' = a * scale rounded to float, one multiply and one add per step, k0, k1, ... = order (or 0, 1, ...).
Mat plain_loop(gemm::In a, gemm::In b, bool bt, float scale, const std::vector<int>* order) {
  const int n = bt ? b.rows : b.cols;
  Mat c(a.rows, n);
  for (int i = 0; i < a.rows; ++i) {
    for (int j = 0; j < n; ++j) {
      float s = 0.0f;
      for (int kn = 0; kn < a.cols; ++kn) {
        const int k = order ? (*order)[static_cast<size_t>(kn)] : kn;
        const float ak = scale == 1.0f ? a.data[i * a.stride + k] : a.data[i * a.stride + k] * scale;
        const float p = ak * b_at(b, bt, k, j);
        s = s + p;
      }
      c(i, j) = s;
    }
  }
  return c;
}

enum class Op { kAB, kABt, kOrdered };  // multiply, multiply_bt, multiply_in_order (a reversed, rotated k)

// Runs the kernel on (M, K) x (K, N) (or (N, K)^T), all three operands blocks of wider matrices (a pad of
// `pad` columns on each side), and checks it against the reference and the plain loop; the pad of c
// must stay untouched. packed: through gemm::PackedB, b packed once and a taken in blocks of 7 rows.
void check(int m, int n, int k, Op op, float scale, int pad, std::uint64_t seed, bool packed = false) {
  const bool bt = op == Op::kABt, ordered = op == Op::kOrdered;
  if (ordered) scale = 1.0f;
  std::vector<int> order(static_cast<size_t>(k));
  for (int i = 0; i < k; ++i) order[static_cast<size_t>(i)] = (k - 1 - i + k / 3) % k;
  const std::string what = std::string(bt        ? "A B^T"
                                       : ordered ? "A B (k order)"
                                                 : "A B") +
                           " M=" + std::to_string(m) + " N=" + std::to_string(n) + " K=" + std::to_string(k) +
                           " pad=" + std::to_string(pad) + " scale=" + std::to_string(scale) +
                           (packed ? " packed" : "");
  const Mat a_full = random(m, k + 2 * pad, seed);
  const Mat b_full = bt ? random(n, k + 2 * pad, seed + 1) : random(k, n + 2 * pad, seed + 1);
  Mat c_full = Mat::Constant(m, n + 2 * pad, 7.0f);
  const gemm::In a = gemm::in(a_full.middleCols(pad, k));
  const gemm::In b = gemm::in(bt ? b_full.middleCols(pad, k) : b_full.middleCols(pad, n));
  auto c_block = c_full.middleCols(pad, n);
  const gemm::Out c = gemm::out(c_block);
  if (packed) {
    gemm::PackedB p;
    p.pack(b, bt, ordered ? order.data() : nullptr);
    for (int r0 = 0; r0 < m; r0 += 7) {
      const int rows = std::min(7, m - r0);
      p.multiply({a.data + r0 * a.stride, rows, a.cols, a.stride},
                 {c.data + r0 * c.stride, rows, c.cols, c.stride}, scale);
    }
  } else if (bt) {
    gemm::multiply_bt(a, b, c, scale);
  } else if (ordered) {
    gemm::multiply_in_order(a, b, c, order.data());
  } else {
    gemm::multiply(a, b, c, scale);
  }
  const Mat got = c_full.middleCols(pad, n);
  // 1. the float64 reference, within float32 rounding
  const Reference ref = reference(a, b, bt, scale);
  double worst = 0, worst_excess = -1;
  int wi = 0, wj = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const double d = std::abs(got(i, j) - ref.want(i, j));
      const double excess = d - ref.bound(i, j);
      if (excess > worst_excess) {
        worst_excess = excess;
        wi = i;
        wj = j;
      }
      worst = std::max(worst, d);
    }
  }
  EXPECT_LE(worst_excess, 0.0) << what << ": largest difference " << worst << "; worst entry (" << wi << ", "
                               << wj << "): got " << got(wi, wj) << ", float64 " << ref.want(wi, wj)
                               << ", allowed " << ref.bound(wi, wj);
  // 2. the same sums as a plain loop in k order, bit for bit
  const Mat loop = plain_loop(a, b, bt, scale, ordered ? &order : nullptr);
  int differ = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) differ += got(i, j) != loop(i, j);
  }
  EXPECT_EQ(differ, 0) << what << ": entries that differ from the plain k-order loop";
  // 3. the pad around c untouched
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < pad; ++j) {
      ASSERT_EQ(c_full(i, j), 7.0f) << what;
      ASSERT_EQ(c_full(i, n + pad + j), 7.0f) << what;
    }
  }
}

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// Distance in units in the last place between two finite non-negative floats.
std::int64_t ulps(float a, float b) {
  return std::abs(static_cast<std::int64_t>(bits(a)) - static_cast<std::int64_t>(bits(b)));
}

}  // namespace

TEST(Gemm, MatchesFloat64AndThePlainLoopOnOddShapes) {
  // 1x1, sizes below, at and past the 4 x 8 tile, the 256-step k block, the 64-row a block, the
  // 2048-column b block
  const int shapes[][3] = {{1, 1, 1},   {1, 7, 3},     {5, 3, 1},   {7, 9, 13},   {4, 8, 16},
                           {13, 17, 5}, {33, 31, 129}, {5, 9, 256}, {6, 10, 257}, {3, 5, 600},
                           {130, 9, 7}, {65, 40, 70},  {3, 2051, 5}};
  std::uint64_t seed = 1;
  for (const auto& s : shapes) {
    for (Op op : {Op::kAB, Op::kABt, Op::kOrdered}) {
      for (bool packed : {false, true}) {
        check(s[0], s[1], s[2], op, 1.0f, 0, seed++, packed);
        check(s[0], s[1], s[2], op, 0.125f, 3, seed++, packed);
        check(s[0], s[1], s[2], op, 0.3f, 1, seed++, packed);
      }
    }
  }
}

TEST(Gemm, HeadWidthsFrom1To128) {
  // q k^T and weights v at every head width d_k, T = 19 (not a multiple of the tile), as blocks of a
  // wider (T, 3 d_k + 2) matrix like a head's columns of the fused qkv
  for (int d = 1; d <= 128; ++d) {
    for (bool packed : {false, true}) {
      check(19, 19, d, Op::kABt, 1.0f / std::sqrt(static_cast<float>(d)), 2, 1000 + d, packed);
      check(19, d, 19, Op::kAB, 1.0f, 2, 2000 + d, packed);
      check(19, d, 19, Op::kOrdered, 1.0f, 2, 3000 + d, packed);
    }
  }
}

TEST(Gemm, EmptyAndZeroDepth) {
  Mat a(3, 0), b(0, 5), c = Mat::Constant(3, 5, 9.0f);
  gemm::multiply(gemm::in(a), gemm::in(b), gemm::out(c));
  EXPECT_TRUE(c.isZero()) << "a sum over no k is 0";
  Mat e(0, 4), f(4, 2), g(0, 2);
  gemm::multiply(gemm::in(e), gemm::in(f), gemm::out(g));  // nothing to do, no crash
  Mat wrong(3, 4);
  EXPECT_THROW(gemm::multiply(gemm::in(f), gemm::in(f), gemm::out(wrong)), std::invalid_argument);
}

TEST(Gemm, PermutingRowsOfAPermutesRowsOfTheProductBitForBit) {
  // 70 rows (past one 64-row block, not a multiple of 4), rows 3, 40 and 69 equal: equal rows give equal
  // results wherever they sit (block, tile row or edge tile)
  const int m = 70, k = 300, n = 37;
  Mat a = random(m, k, 5);
  a.row(40) = a.row(3);
  a.row(69) = a.row(3);
  const Mat b = random(k, n, 6);
  std::vector<int> perm(m);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.end());
  std::rotate(perm.begin(), perm.begin() + 11, perm.end());
  Mat pa(m, k);
  for (int i = 0; i < m; ++i) pa.row(i) = a.row(perm[i]);

  Mat c(m, n), pc(m, n);
  gemm::multiply(gemm::in(a), gemm::in(b), gemm::out(c));
  gemm::multiply(gemm::in(pa), gemm::in(b), gemm::out(pc));
  for (int i = 0; i < m; ++i) EXPECT_TRUE(pc.row(i) == c.row(perm[i])) << "A B, row " << i;
  EXPECT_TRUE(c.row(40) == c.row(3) && c.row(69) == c.row(3));

  // q k^T with the tokens shuffled: rows and columns of the scores shuffle exactly
  Mat s(m, m), ps(m, m);
  Mat pbt(m, k);
  const Mat keys = random(m, k, 8);
  for (int i = 0; i < m; ++i) pbt.row(i) = keys.row(perm[i]);
  gemm::multiply_bt(gemm::in(a), gemm::in(keys), gemm::out(s), 0.125f);
  gemm::multiply_bt(gemm::in(pa), gemm::in(pbt), gemm::out(ps), 0.125f);
  int differ = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) differ += ps(i, j) != s(perm[i], perm[j]);
  }
  EXPECT_EQ(differ, 0) << "A B^T, entries not equal to the shuffled scores";

  // weights v with the keys permuted (columns of the weights, rows of v) and the k order permuted with
  // them: the same sums, bit for bit
  Mat w = random(m, m, 9).cwiseAbs(), pw(m, m), v = random(m, 24, 10), pv(m, 24);
  std::vector<int> inv(m);
  for (int i = 0; i < m; ++i) {
    inv[perm[i]] = i;
    pv.row(i) = v.row(perm[i]);
    for (int j = 0; j < m; ++j) pw(i, j) = w(i, perm[j]);
  }
  std::vector<int> identity(m);
  std::iota(identity.begin(), identity.end(), 0);
  Mat blend(m, 24), pblend(m, 24);
  gemm::multiply_in_order(gemm::in(w), gemm::in(v), gemm::out(blend), identity.data());
  gemm::multiply_in_order(gemm::in(pw), gemm::in(pv), gemm::out(pblend), inv.data());
  EXPECT_TRUE(blend == pblend) << "largest difference " << (blend - pblend).cwiseAbs().maxCoeff();
}

TEST(GemmExp, WithinTwoUlpOfStdExpOverTheWholeRange) {
  // every 1/1024 from -110 to 90, and the special values
  std::vector<float> x;
  for (int i = -110 * 1024; i <= 90 * 1024; ++i) x.push_back(static_cast<float>(i) / 1024.0f);
  const float inf = std::numeric_limits<float>::infinity();
  for (float v :
       {0.0f,    -0.0f, 1e-30f, -1e-30f, 88.72f,   88.7228f, 88.73f, -87.33f, -87.34f,     -103.9f,
        -104.0f, -1e4f, -1e30f, 1e30f,   -FLT_MAX, FLT_MAX,  0.5f,   -0.5f,   0.34657359f, -0.34657359f})
    x.push_back(v);
  std::vector<float> y(x.size());
  gemm::exp(x.data(), y.data(), static_cast<int>(x.size()));
  std::int64_t worst = 0;
  float worst_x = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = std::exp(x[i]);
    if (std::isinf(want)) {
      EXPECT_TRUE(std::isinf(y[i]) && y[i] > 0) << "exp(" << x[i] << ") = " << y[i];
    } else if (want < FLT_MIN) {  // subnormal results: within two of the smallest steps
      EXPECT_LE(std::abs(y[i] - want), 2 * std::numeric_limits<float>::denorm_min())
          << "exp(" << x[i] << ") = " << y[i] << ", std::exp " << want;
    } else if (ulps(y[i], want) > worst) {
      worst = ulps(y[i], want);
      worst_x = x[i];
    }
  }
  EXPECT_LE(worst, 2) << "largest difference " << worst << " ulp at x = " << worst_x;

  // the values softmax relies on, exactly
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float special[] = {-inf, 0.0f, inf, nan, -1e30f};
  float out[5];
  gemm::exp(special, out, 5);
  EXPECT_EQ(out[0], 0.0f) << "exp(-inf) is exactly 0";
  EXPECT_EQ(bits(out[0]), 0u) << "+0, not -0";
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], inf);
  EXPECT_TRUE(std::isnan(out[3]));
  EXPECT_EQ(out[4], 0.0f);
}

TEST(GemmExp, TheTailGetsTheSameValuesAndTheSumIsTheirSum) {
  const Mat x = random(1, 11, 9, 4.0f);
  float all[11];
  gemm::exp(x.data(), all, 11);
  for (int n = 1; n <= 11; ++n) {
    float y[11];
    gemm::exp(x.data(), y, n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(y[i], all[i]) << "n " << n << ", entry " << i;
    float z[11];
    const double sum = gemm::exp_shifted_sum(x.data(), 0.5f, z, n);
    double want = 0;
    for (int i = 0; i < n; ++i) want += z[i];
    EXPECT_NEAR(sum, want, 1e-12 * want) << "n " << n;
    for (int i = 0; i < n; ++i) EXPECT_NEAR(z[i], std::exp(x(0, i) - 0.5f), 3e-7 * z[i]);
  }
  EXPECT_EQ(gemm::max(x.data(), 11), x.maxCoeff());
}

TEST(GemmSoftmax, RowsSumToOneAtEveryWidthWithMasks) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int n = 1; n <= 67; ++n) {
    Mat s = random(5, n, 100 + n, 8.0f);
    for (int j = 0; j < n; j += 3) s(1, j) = -inf;  // a masked row, its first key masked
    s(1, n - 1) = 0.0f;
    s.row(2).setConstant(-inf);  // fully masked: all zeros
    Mat w;
    attn::ops::softmax_forward(s, w);
    for (int r = 0; r < 5; ++r) {
      const double sum = w.row(r).cast<double>().sum();
      if (r == 2) {
        EXPECT_EQ(sum, 0.0) << "n " << n;
      } else {
        EXPECT_NEAR(sum, 1.0, 1e-6) << "n " << n << ", row " << r;
      }
    }
    for (int j = 0; j < n - 1; j += 3) EXPECT_EQ(w(1, j), 0.0f) << "masked key gets exactly 0";
    // against the float64 softmax of the same row
    for (int r : {0, 3, 4}) {
      const Eigen::RowVectorXd row = s.row(r).cast<double>();
      const Eigen::RowVectorXd e = (row.array() - row.maxCoeff()).exp();
      const Eigen::RowVectorXd want = e / e.sum();
      for (int j = 0; j < n; ++j) EXPECT_NEAR(w(r, j), want(j), 1e-6 + 1e-5 * want(j)) << "n " << n;
    }
  }
}

TEST(GemmFinite, FindsOneBadEntryAtAnyPlaceOfAnyLength) {
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
  const float fine[] = {0.0f, -0.0f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN, 1.0f};
  for (int n = 0; n <= 13; ++n) {
    std::vector<float> x(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) x[static_cast<size_t>(i)] = fine[i % 7];
    EXPECT_TRUE(gemm::all_finite(x.data(), n)) << "n = " << n;
    for (int at = 0; at < n; ++at) {  // every place: the 4-lane body and the scalar tail
      for (float b : bad) {
        std::vector<float> y = x;
        y[static_cast<size_t>(at)] = b;
        EXPECT_FALSE(gemm::all_finite(y.data(), n)) << "n = " << n << ", " << b << " at " << at;
        EXPECT_TRUE(gemm::all_finite(y.data(), at)) << "the first " << at << " entries are finite";
      }
    }
  }
}

TEST(Gemm, OneToThreeRowsGetTheBitsTheyGetAmongMany) {
  // a generation step multiplies one token's vector, unpacked (fewer rows than a tile): each row must be
  // what the same row gives in a product of many rows, packed, across k blocks and b's column blocks
  const int m = 9, k = 300, n = 2060;
  const Mat a = random(m, k, 21), b = random(k, n, 22), bt = random(n, k, 23);
  Mat all(m, n), all_t(m, n);
  gemm::multiply(gemm::in(a), gemm::in(b), gemm::out(all), 0.3f);
  gemm::multiply_bt(gemm::in(a), gemm::in(bt), gemm::out(all_t), 0.3f);
  for (int rows = 1; rows <= 3; ++rows) {
    for (int r0 : {0, 5}) {
      Mat part(rows, n), part_t(rows, n);
      gemm::multiply(gemm::in(a.middleRows(r0, rows)), gemm::in(b), gemm::out(part), 0.3f);
      gemm::multiply_bt(gemm::in(a.middleRows(r0, rows)), gemm::in(bt), gemm::out(part_t), 0.3f);
      EXPECT_TRUE(part == all.middleRows(r0, rows))
          << rows << " rows from " << r0 << ": largest difference "
          << (part - all.middleRows(r0, rows)).cwiseAbs().maxCoeff();
      EXPECT_TRUE(part_t == all_t.middleRows(r0, rows))
          << "B^T, " << rows << " rows from " << r0 << ": largest difference "
          << (part_t - all_t.middleRows(r0, rows)).cwiseAbs().maxCoeff();
    }
  }
}
