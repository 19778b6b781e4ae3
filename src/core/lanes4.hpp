// 4-lane float vectors for the core's FAST files (gemm.cpp, lanes4.cpp), with GCC/Clang vector extensions:
// SSE natively, SIMD128 in wasm (-msimd128). Internal to src/core.
#pragma once

#include <cstdint>
#include <cstring>

namespace attn::gemm::lanes {

typedef float v4f __attribute__((vector_size(16)));
typedef double v2d __attribute__((vector_size(16)));
typedef std::int32_t v4i __attribute__((vector_size(16)));
typedef std::uint32_t v4u __attribute__((vector_size(16)));

inline v4f load4(const float* p) {
  v4f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, v4f v) {
  std::memcpy(p, &v, sizeof v);
}
// s in every lane (written out: a loop over the lanes compiled to stack stores in wasm, 50x slower)
inline v4f splat4(float s) {
  return v4f{s, s, s, s};
}

}  // namespace attn::gemm::lanes
