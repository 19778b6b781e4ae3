// exp, max, scale and the finite check over float arrays, 4 lanes at a time (lanes4.hpp): the softmax's
// inner loops, declared in gemm.hpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#include "gemm.hpp"
#include "lanes4.hpp"

namespace attn::gemm {

using namespace lanes;

namespace {

#ifndef __wasm_simd128__
// Per lane m ? x : y, for a mask m of all-ones or all-zeros lanes.
v4f select(v4i m, v4f x, v4f y) {
  return reinterpret_cast<v4f>((m & reinterpret_cast<v4i>(x)) | (~m & reinterpret_cast<v4i>(y)));
}
#endif

// Per lane a < b ? b : a (a NaN in b is ignored, a NaN in a kept): wasm's f32x4.pmax, one instruction in
// V8 (clang turns a compare-and-select into f32x4.max, which V8 expands to 8 instructions for NaNs).
v4f pmax(v4f a, v4f b) {
#ifdef __wasm_simd128__
  return reinterpret_cast<v4f>(wasm_f32x4_pmax(reinterpret_cast<v128_t>(a), reinterpret_cast<v128_t>(b)));
#else
  return select(a < b, b, a);
#endif
}
// Per lane b < a ? b : a: wasm's f32x4.pmin.
v4f pmin(v4f a, v4f b) {
#ifdef __wasm_simd128__
  return reinterpret_cast<v4f>(wasm_f32x4_pmin(reinterpret_cast<v128_t>(a), reinterpret_cast<v128_t>(b)));
#else
  return select(b < a, b, a);
#endif
}

// The exp's constants, read once per call through a volatile pointer so that the compiler keeps them in
// variables: V8 rebuilds a wasm v128.const from immediates at every use inside a loop (no hoisting), which
// made the softmax's exp loop spend more instructions on its 14 constants than on the arithmetic.
struct ExpConstants {
  v4f lo, hi, log2e, magic, ln2_hi, ln2_lo, c7, c6, c5, c4, c3, c2, one;
  v4i bias;
};
const ExpConstants kExpConstants = {
    splat4(-110.0f), splat4(89.0f),  // exp is 0 below -104 and +inf above 88.73
    splat4(1.44269504088896341f), splat4(12582912.0f),
    // ln 2 = 0.693145751953125 (15 significant bits: n times it is exact) + 1.42860682030941723e-6
    splat4(0.693145751953125f), splat4(1.42860682030941723e-6f), splat4(1.0f / 5040.0f),
    splat4(1.0f / 720.0f), splat4(1.0f / 120.0f), splat4(1.0f / 24.0f), splat4(1.0f / 6.0f), splat4(0.5f),
    splat4(1.0f), v4i{127, 127, 127, 127}};
const ExpConstants* volatile exp_constants = &kExpConstants;

// exp(x) on 4 lanes. x = n ln2 + r with n = round(x / ln2), |r| <= ln2/2 (ln2 in two parts, the first
// exact in a product with n); exp(r) by its Taylor series to r^7 (error below 6e-9 relative); times 2^n
// as 2^(n/2) 2^(n - n/2) so that results below FLT_MIN round once, like std::exp. k: *exp_constants.
v4f exp4(v4f x, const ExpConstants& k) {
  x = pmin(pmax(x, k.lo), k.hi);  // NaN compares false: stays NaN
  // n = round-to-nearest(x log2 e) by adding 1.5 * 2^23 (|x log2 e| < 2^22)
  const v4f t = x * k.log2e + k.magic;
  const v4f n = t - k.magic;
  const v4i ni = reinterpret_cast<v4i>(t) - reinterpret_cast<v4i>(k.magic);
  const v4f r = (x - n * k.ln2_hi) - n * k.ln2_lo;
  v4f p = k.c7;  // Horner: ((r/7! + 1/6!) r + ...) r + 1
  p = p * r + k.c6;
  p = p * r + k.c5;
  p = p * r + k.c4;
  p = p * r + k.c3;
  p = p * r + k.c2;
  p = p * r + k.one;
  p = p * r + k.one;
  const v4i n1 = ni >> 1, n2 = ni - n1;
  const v4f s1 = reinterpret_cast<v4f>(reinterpret_cast<v4u>(n1 + k.bias) << 23);  // 2^n1
  const v4f s2 = reinterpret_cast<v4f>(reinterpret_cast<v4u>(n2 + k.bias) << 23);  // 2^n2
  return p * s1 * s2;
}

}  // namespace

void exp(const float* x, float* y, int n) {
  const ExpConstants k = *exp_constants;
  int i = 0;
  for (; i + 4 <= n; i += 4) store4(y + i, exp4(load4(x + i), k));
  if (i < n) {
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    std::memcpy(t, x + i, sizeof(float) * (n - i));
    store4(t, exp4(load4(t), k));
    std::memcpy(y + i, t, sizeof(float) * (n - i));
  }
}

double exp_shifted_sum(const float* x, float shift, float* y, int n) {
  const ExpConstants k = *exp_constants;
  const v4f sv = splat4(shift);
  v2d s01 = {0.0, 0.0}, s23 = {0.0, 0.0};  // entry c adds to lane c % 4 of (s01, s23), c ascending
  const auto add = [&](v4f e) {            // lanes 0, 1 and 2, 3 widened to double (f64x2.promote_low_f32x4)
    s01 += __builtin_convertvector(__builtin_shufflevector(e, e, 0, 1), v2d);
    s23 += __builtin_convertvector(__builtin_shufflevector(e, e, 2, 3), v2d);
  };
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const v4f e = exp4(load4(x + i) - sv, k);
    store4(y + i, e);
    add(e);
  }
  if (i < n) {
    const float ninf = -std::numeric_limits<float>::infinity();
    float t[4] = {ninf, ninf, ninf, ninf};  // padding: exp(-inf) = 0 adds nothing
    std::memcpy(t, x + i, sizeof(float) * (n - i));
    const v4f e = exp4(load4(t) - sv, k);
    store4(t, e);
    std::memcpy(y + i, t, sizeof(float) * (n - i));
    add(e);
  }
  return (s01[0] + s01[1]) + (s23[0] + s23[1]);
}

float max(const float* x, int n) {
  const float ninf = -std::numeric_limits<float>::infinity();
  v4f m = splat4(ninf);
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const v4f v = load4(x + i);
    m = pmax(m, v);
  }
  float best = ninf;
  for (int l = 0; l < 4; ++l) best = m[l] > best ? m[l] : best;
  for (; i < n; ++i) best = x[i] > best ? x[i] : best;
  return best;
}

void scale(float* y, int n, float s) {
  const v4f sv = splat4(s);
  int i = 0;
  for (; i + 4 <= n; i += 4) store4(y + i, load4(y + i) * sv);
  for (; i < n; ++i) y[i] *= s;
}

bool all_finite(const float* x, long long n) {
  const v4i exponent = {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000};
  v4i bad = {0, 0, 0, 0};  // lanes of all ones where an entry had every exponent bit set
  long long i = 0;
  for (; i + 4 <= n; i += 4) {
    v4i bits;
    std::memcpy(&bits, x + i, sizeof bits);
    bad |= (bits & exponent) == exponent;
  }
  std::int32_t any = bad[0] | bad[1] | bad[2] | bad[3];
  for (; i < n; ++i) {
    std::int32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    any |= (bits & exponent[0]) == exponent[0];
  }
  return any == 0;
}

}  // namespace attn::gemm
