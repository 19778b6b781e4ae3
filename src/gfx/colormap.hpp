// Colormaps shared by the GPU shader and the CPU (colour bars, PNG export, tests): viridis, cividis,
// diverging.
#pragma once

#include <array>
#include <cmath>
#include <string>

namespace gfx {

enum class Colormap { Viridis, Cividis, Diverging };

// "viridis|cividis|diverging" <-> Colormap; parse returns false for an unknown name.
bool parse_colormap(const std::string& name, Colormap& out);
const char* colormap_name(Colormap c);

// The colour of t in [0, 1] (clamped) as RGB in [0, 1]; the exact same formula as shaders/heatmap.frag.
std::array<float, 3> colormap_rgb(Colormap c, float t);

// Where value v falls in the range: (v - lo) / (hi - lo) for sequential maps; the diverging map is
// centred on 0: t = 0.5 + 0.5 * v / max(|lo|, |hi|).
float colormap_t(Colormap c, float v, float lo, float hi);

// ---- additions -------------------------------------------------------------------------------------

// The key colours of a map, evenly spaced in t: key i sits at t = i / (count - 1), rgb[i] = {r, g, b}.
// colormap_rgb() interpolates them linearly; the renderer hands the very same keys to the shader as a
// uniform array (so CPU and GPU share one table, and the interpolation code is mirrored line by line).
struct ColormapKeys {
  const float (*rgb)[3];
  int count;
};
ColormapKeys colormap_keys(Colormap c);
inline constexpr int kMaxColormapKeys = 64;  // size of the shader's u_keys[] array

// Values the colormap shows: |v| < 3e38. NaN, +-inf (a causal mask's -inf scores) and overflowed values
// are drawn in kNonFiniteRgb instead; the shader uses the same test.
inline constexpr float kMaxShownValue = 3.0e38f;
inline bool is_shown_value(float v) {
  return std::fabs(v) < kMaxShownValue;
}
inline constexpr std::array<float, 3> kNonFiniteRgb = {0.5f, 0.5f, 0.5f};  // neutral grey

// The colour of value v for the range [lo, hi]: colormap_rgb(c, colormap_t(c, v, lo, hi)), or grey when
// v is not shown (see above). This is what the GPU writes for a cell, within 8-bit rounding.
std::array<float, 3> value_rgb(Colormap c, float v, float lo, float hi);

}  // namespace gfx
