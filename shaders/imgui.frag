// Interface pass, fragment stage: the vertex colour times the bound texture (the font atlas or a heatmap).

uniform sampler2D u_texture;
uniform float u_coverage;  // 1: the texture is the font atlas (R8, coverage in .r) -> white, alpha = coverage
in vec2 v_uv;
in vec4 v_colour;
layout(location = 0) out vec4 out_colour;

void main() {
  vec4 t = texture(u_texture, v_uv);
  out_colour = v_colour * mix(t, vec4(1.0, 1.0, 1.0, t.r), u_coverage);
}
