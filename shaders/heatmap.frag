// Heatmap pass, fragment stage: one fragment per matrix cell -> value -> colormap -> RGBA8 texel.
// colormap_t() and colormap_rgb() mirror src/gfx/colormap.cpp line by line; u_keys[] is its key table.

uniform highp sampler2D u_values;  // R32F, width = cols, height = rows: texel (col, row) = value(row, col)
uniform float u_lo;                // the range mapped to the colormap's ends
uniform float u_hi;
uniform int u_diverging;           // 1: centred on 0, t = 0.5 + 0.5 * v / max(|lo|, |hi|)
uniform vec3 u_keys[64];           // gfx::colormap_keys(): key i at t = i / (u_key_count - 1)
uniform int u_key_count;
uniform vec3 u_nonfinite;          // colour of NaN, +-inf and |v| >= 3e38 (gfx::kNonFiniteRgb)

out vec4 o_color;

float colormap_t(float v) {
  if (u_diverging != 0) {
    float m = max(abs(u_lo), abs(u_hi));
    return m > 0.0 ? 0.5 + 0.5 * v / m : 0.5;
  }
  float d = u_hi - u_lo;
  return d > 0.0 ? (v - u_lo) / d : 0.5;
}

vec3 colormap_rgb(float t) {
  t = clamp(t, 0.0, 1.0);
  float x = t * float(u_key_count - 1);
  int i = min(int(floor(x)), u_key_count - 2);
  float f = x - float(i);
  return mix(u_keys[i], u_keys[i + 1], f);
}

void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy);  // (col, row): the framebuffer is cols x rows texels
  float v = texelFetch(u_values, cell, 0).r;
  // The CPU replaces non-finite values by -3.4e38 before upload, so this test never depends on NaN rules.
  vec3 rgb = abs(v) < 3.0e38 ? colormap_rgb(colormap_t(v)) : u_nonfinite;
  o_color = vec4(rgb, 1.0);
}
