// The packed, register-blocked float matrix product, written once with GCC/Clang vector extensions
// (lanes4.hpp): SSE natively, SIMD128 in wasm (-msimd128). Loops of the product, outermost first (Goto's
// scheme):
//   jc: blocks of kNC columns of c   pc: blocks of kKC steps of k (pack b's (kc, nc) block into panels)
//   ic: blocks of kMC rows of c (pack a's (mc, kc) block into slivers, scaled)   jr, ir: one kMR x kNR tile
// A tile continues the sum its previous k block left in c (stored and reloaded exactly), so splitting k
// changes no rounding. PackedB keeps every k block of a b packed for products with many blocks of a.
#include "gemm.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#include "error.hpp"
#include "lanes4.hpp"

namespace attn::gemm {
namespace {

using namespace lanes;

// 4 x 8 tiles (4 rows, 2 vectors of 4): 8 accumulators + 2 of b + 1 of a fit the 16 vector registers of
// x86-64 (V8 keeps one as scratch); 6 x 8 and 4 x 12 spilled in node, 8 x 4 and 2 x 16 measured slower.
constexpr int kMR = 4;         // rows of a tile: a sliver of a
constexpr int kNV = 2;         // 4-lane vectors across a tile
constexpr int kNR = 4 * kNV;   // columns of a tile: a panel of b
constexpr int kKC = 256;       // k steps per packed block
constexpr int kMC = 16 * kMR;  // rows of a per packed block (64 x 256 floats: 64 KB)
constexpr int kNC = 2048;      // columns of b per packed block (256 x 2048 floats: 2 MB)

// n rounded up to a multiple of `step`: the rows or columns of a packing with its padding.
int round_up(int n, int step) {
  return (n + step - 1) / step * step;
}

// The packing buffers of this thread (0: b, 1: a); they only grow.
float* room(int which, size_t n) {
  thread_local std::vector<float> buf[2];
  std::vector<float>& b = buf[which];
  if (b.size() < n) b.resize(n);
  return b.data();
}

// b (kc, nc) block, entry (k, j) at b[row(k) * rs + j * cs] with row(k) = order ? order[k] : k, ->
// panels of kNR columns: panel p holds columns p*kNR .. p*kNR + kNR - 1, step k at
// dst[p * kc * kNR + k * kNR + jj]; columns past nc are 0.
void pack_b(const float* b, int rs, int cs, int kc, int nc, const int* order, float* dst) {
  for (int j0 = 0; j0 < nc; j0 += kNR) {
    const int w = std::min(kNR, nc - j0);
    for (int k = 0; k < kc; ++k, dst += kNR) {
      const std::ptrdiff_t row = order ? order[k] : k;
      const float* src = b + row * rs + static_cast<std::ptrdiff_t>(j0) * cs;
      if (cs == 1 && w == kNR) {
        std::memcpy(dst, src, sizeof(float) * kNR);
        continue;
      }
      int jj = 0;
      for (; jj < w; ++jj) dst[jj] = src[static_cast<std::ptrdiff_t>(jj) * cs];
      for (; jj < kNR; ++jj) dst[jj] = 0.0f;
    }
  }
}

// a (mc, kc) block, entry (i, k) at a[i * stride + col(k)] with col(k) = order ? order[k] : k, ->
// slivers of kMR rows, each entry first multiplied by `s`: sliver q holds rows q*kMR .. q*kMR + kMR - 1,
// step k at dst[q * kc * kMR + k * kMR + ii]; rows past mc repeat the last row (the tiles' rows are
// independent and edge tiles drop the padding rows). Four rows at once: one 4-lane store per step, and
// without an order 4 x 4 blocks transposed in registers.
void pack_a(const float* a, int stride, int mc, int kc, float s, const int* order, float* dst) {
  static_assert(kMR == 4, "pack_a interleaves 4 rows");
  const v4f sv = splat4(s);  // x * 1.0f == x: no special case for s == 1
  for (int i0 = 0; i0 < mc; i0 += kMR, dst += kc * kMR) {
    const int h = std::min(kMR, mc - i0);
    const float* r[kMR];
    for (int ii = 0; ii < kMR; ++ii)
      r[ii] = a + static_cast<std::ptrdiff_t>(i0 + std::min(ii, h - 1)) * stride;
    int k = 0;
    if (order) {
      for (; k < kc; ++k) {
        const std::ptrdiff_t c = order[k];
        store4(dst + k * kMR, v4f{r[0][c], r[1][c], r[2][c], r[3][c]} * sv);
      }
      continue;
    }
    for (; k + 4 <= kc; k += 4) {
      const v4f x0 = load4(r[0] + k) * sv, x1 = load4(r[1] + k) * sv;
      const v4f x2 = load4(r[2] + k) * sv, x3 = load4(r[3] + k) * sv;
      const v4f t0 = __builtin_shufflevector(x0, x1, 0, 4, 1, 5),
                t1 = __builtin_shufflevector(x0, x1, 2, 6, 3, 7);
      const v4f t2 = __builtin_shufflevector(x2, x3, 0, 4, 1, 5),
                t3 = __builtin_shufflevector(x2, x3, 2, 6, 3, 7);
      store4(dst + k * kMR, __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
      store4(dst + (k + 1) * kMR, __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
      store4(dst + (k + 2) * kMR, __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
      store4(dst + (k + 3) * kMR, __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
    }
    for (; k < kc; ++k) store4(dst + k * kMR, v4f{r[0][k], r[1][k], r[2][k], r[3][k]} * sv);
  }
}

// One tile: c (kMR, kNR) at c[i * ldc + j] = (first ? 0 : c) + sum over k of ap[k*kMR + i] * bp[k*kNR + j],
// k ascending, one multiply then one add per step, lanes independent.
void tile(int kc, const float* ap, const float* bp, float* c, int ldc, bool first) {
  v4f acc[kMR][kNV];
  for (int i = 0; i < kMR; ++i) {
    for (int v = 0; v < kNV; ++v) acc[i][v] = first ? splat4(0.0f) : load4(c + i * ldc + 4 * v);
  }
  for (int k = 0; k < kc; ++k, ap += kMR, bp += kNR) {
    v4f b[kNV];
    for (int v = 0; v < kNV; ++v) b[v] = load4(bp + 4 * v);
    for (int i = 0; i < kMR; ++i) {
      const v4f a = splat4(ap[i]);
      for (int v = 0; v < kNV; ++v) acc[i][v] = acc[i][v] + a * b[v];
    }
  }
  for (int i = 0; i < kMR; ++i) {
    for (int v = 0; v < kNV; ++v) store4(c + i * ldc + 4 * v, acc[i][v]);
  }
}

// A tile at the bottom or right edge: c (h, w) with h <= kMR, w <= kNR, through a full-size scratch tile so
// the edge uses the same kernel (the padding rows and columns are zeros and are not written back). The
// first block of k does not read the scratch tile, so it is filled only for the later ones.
void edge_tile(int kc, const float* ap, const float* bp, float* c, int ldc, int h, int w, bool first) {
  float t[kMR * kNR];
  if (!first) {
    std::fill_n(t, kMR * kNR, 0.0f);
    for (int i = 0; i < h; ++i) std::memcpy(t + i * kNR, c + i * ldc, sizeof(float) * w);
  }
  tile(kc, ap, bp, t, kNR, first);
  for (int i = 0; i < h; ++i) std::memcpy(c + i * ldc, t + i * kNR, sizeof(float) * w);
}

// The packed (kc, nc) block of b at k offset pc (bbuf, as pack_b leaves it) times every row of a into
// columns jc .. jc + nc - 1 of c: pack a's (mc, kc) blocks (abuf), then the tiles. order: as in run.
void macro(In a, const float* bbuf, int pc, int kc, int jc, int nc, Out c, float s, const int* order,
           float* abuf) {
  const bool first = pc == 0;
  // with an order, the packer reads columns order[pc ..] of the whole of a
  const int* block_order = order ? order + pc : nullptr;
  const std::ptrdiff_t k0 = order ? 0 : pc;
  for (int ic = 0; ic < a.rows; ic += kMC) {
    const int mc = std::min(kMC, a.rows - ic);
    pack_a(a.data + static_cast<std::ptrdiff_t>(ic) * a.stride + k0, a.stride, mc, kc, s, block_order, abuf);
    for (int jr = 0; jr < nc; jr += kNR) {
      const int w = std::min(kNR, nc - jr);
      const float* bp = bbuf + static_cast<std::ptrdiff_t>(jr) * kc;
      for (int ir = 0; ir < mc; ir += kMR) {
        const int h = std::min(kMR, mc - ir);
        const float* ap = abuf + static_cast<std::ptrdiff_t>(ir) * kc;
        float* ct = c.data + static_cast<std::ptrdiff_t>(ic + ir) * c.stride + jc + jr;
        if (h == kMR && w == kNR) {
          tile(kc, ap, bp, ct, c.stride, first);
        } else {
          edge_tile(kc, ap, bp, ct, c.stride, h, w, first);
        }
      }
    }
  }
}

// c (M, N) = 0 when K = 0. Returns whether there is nothing (more) to do.
bool trivial(Out c, int k) {
  if (c.rows > 0 && c.cols > 0 && k == 0) {
    for (int i = 0; i < c.rows; ++i)
      std::fill_n(c.data + static_cast<std::ptrdiff_t>(i) * c.stride, c.cols, 0.0f);
  }
  return c.rows == 0 || c.cols == 0 || k == 0;
}

// c (M, N) = (s * a (M, K)) b for M < kMR rows (one token's vector, as in a generation step), without
// packing: each entry the tile's sum, (0 + x_0 b_0) + x_1 b_1 + ..., k ascending, x_k = a_k * s, one
// multiply then one add per step, so the same bits as a product with more rows. b's entry (k, j) at
// b[k * rs + j * cs]: rows of b read straight along j (cs == 1), or 16 columns of b at a time (a transposed
// b, as in logits = x embedding^T).
void few_rows(In a, const float* b, int rs, int cs, int n, Out c, float s) {
  constexpr int kCols = 16;  // columns of a transposed b per pass: 4 vectors of sums
  for (int i = 0; i < a.rows; ++i) {
    const float* x = a.data + static_cast<std::ptrdiff_t>(i) * a.stride;
    float* ci = c.data + static_cast<std::ptrdiff_t>(i) * c.stride;
    std::fill_n(ci, n, 0.0f);
    if (cs == 1) {
      for (int k = 0; k < a.cols; ++k) {
        const float xk = x[k] * s;
        const v4f xv = splat4(xk);
        const float* bk = b + static_cast<std::ptrdiff_t>(k) * rs;
        int j = 0;
        for (; j + 4 <= n; j += 4) store4(ci + j, load4(ci + j) + xv * load4(bk + j));
        for (; j < n; ++j) ci[j] = ci[j] + xk * bk[j];
      }
      continue;
    }
    for (int j0 = 0; j0 < n; j0 += kCols) {
      const int w = std::min(kCols, n - j0);
      const float* col[kCols];  // column j0 + jj of b, entry k at col[jj][k * rs]
      for (int jj = 0; jj < kCols; ++jj)
        col[jj] = b + static_cast<std::ptrdiff_t>(j0 + std::min(jj, w - 1)) * cs;
      v4f acc[kCols / 4] = {};
      for (int k = 0; k < a.cols; ++k) {
        const v4f xv = splat4(x[k] * s);
        const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(k) * rs;
        for (int v = 0; v < kCols / 4; ++v) {
          const v4f bv{col[4 * v][at], col[4 * v + 1][at], col[4 * v + 2][at], col[4 * v + 3][at]};
          acc[v] = acc[v] + xv * bv;
        }
      }
      float sums[kCols];
      for (int v = 0; v < kCols / 4; ++v) store4(sums + 4 * v, acc[v]);
      std::copy_n(sums, w, ci + j0);
    }
  }
}

float* a_room(int m, int kk) {
  return room(1,
              static_cast<size_t>(std::min(kKC, kk)) * static_cast<size_t>(round_up(std::min(kMC, m), kMR)));
}

// c (M, N) = (s * a (M, K)) b, b's entry (k, j) at b[k * rs + j * cs], summed over k = 0, 1, ..., or over
// k = order[0], order[1], ... when order is given (a permutation of 0 .. K-1).
void run(In a, const float* b, int rs, int cs, int n, Out c, float s, const int* order) {
  const int kk = a.cols;
  if (trivial(c, kk)) return;
  if (a.rows < kMR && !order) {
    few_rows(a, b, rs, cs, n, c, s);
    return;
  }
  float* bbuf =
      room(0, static_cast<size_t>(std::min(kKC, kk)) * static_cast<size_t>(round_up(std::min(kNC, n), kNR)));
  float* abuf = a_room(a.rows, kk);
  for (int jc = 0; jc < n; jc += kNC) {
    const int nc = std::min(kNC, n - jc);
    for (int pc = 0; pc < kk; pc += kKC) {
      const int kc = std::min(kKC, kk - pc);
      const std::ptrdiff_t k0 = order ? 0 : pc;  // with an order, pack_b reads rows order[pc ..] of b
      pack_b(b + k0 * rs + static_cast<std::ptrdiff_t>(jc) * cs, rs, cs, kc, nc, order ? order + pc : nullptr,
             bbuf);
      macro(a, bbuf, pc, kc, jc, nc, c, s, order, abuf);
    }
  }
}

void require(bool ok, const char* what, In a, In b, Out c) {
  if (!ok) {
    throw std::invalid_argument(join_message({what, ": a (", a.rows, ", ", a.cols, "), b (", b.rows, ", ",
                                              b.cols, "), c (", c.rows, ", ", c.cols, ") do not fit"}));
  }
}

}  // namespace

void multiply(In a, In b, Out c, float scale) {
  require(a.cols == b.rows && c.rows == a.rows && c.cols == b.cols, "gemm::multiply", a, b, c);
  run(a, b.data, b.stride, 1, b.cols, c, scale, nullptr);
}

void multiply_bt(In a, In b, Out c, float scale) {
  require(a.cols == b.cols && c.rows == a.rows && c.cols == b.rows, "gemm::multiply_bt", a, b, c);
  run(a, b.data, 1, b.stride, b.rows, c, scale, nullptr);
}

void multiply_in_order(In a, In b, Out c, const int* k_order) {
  require(a.cols == b.rows && c.rows == a.rows && c.cols == b.cols, "gemm::multiply_in_order", a, b, c);
  run(a, b.data, b.stride, 1, b.cols, c, 1.0f, k_order);
}

void PackedB::pack(In b, bool transposed, const int* k_order) {
  k_ = transposed ? b.cols : b.rows;
  n_ = transposed ? b.rows : b.cols;
  order_ = k_order;
  const int rs = transposed ? 1 : b.stride, cs = transposed ? b.stride : 1;
  const size_t npad = static_cast<size_t>(round_up(n_, kNR));
  if (panels_.size() < npad * static_cast<size_t>(k_)) panels_.resize(npad * static_cast<size_t>(k_));
  for (int pc = 0; pc < k_; pc += kKC) {  // block pc: panels of (kc, kNR) from panels_[pc * npad]
    const std::ptrdiff_t k0 = k_order ? 0 : pc;
    pack_b(b.data + k0 * rs, rs, cs, std::min(kKC, k_ - pc), n_, k_order ? k_order + pc : nullptr,
           panels_.data() + static_cast<size_t>(pc) * npad);
  }
}

void PackedB::multiply(In a, Out c, float scale) const {
  require(a.cols == k_ && c.rows == a.rows && c.cols == n_, "gemm::PackedB::multiply", a,
          {nullptr, k_, n_, n_}, c);
  if (trivial(c, k_)) return;
  float* abuf = a_room(a.rows, k_);
  const size_t npad = static_cast<size_t>(round_up(n_, kNR));
  for (int pc = 0; pc < k_; pc += kKC) {
    macro(a, panels_.data() + static_cast<size_t>(pc) * npad, pc, std::min(kKC, k_ - pc), 0, n_, c, scale,
          order_, abuf);
  }
}

}  // namespace attn::gemm
