// Interface pass, fragment stage: the vertex colour times the bound texture (the font atlas or a heatmap).

uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_colour;
layout(location = 0) out vec4 out_colour;

void main() {
  out_colour = v_colour * texture(u_texture, v_uv);
}
