// Interface pass, vertex stage: Dear ImGui's vertices (position in window pixels, uv, colour) to clip space.
// The platform prepends "#version 300 es" + "precision highp float;" (WebGL2) or "#version 330 core".

uniform mat4 u_projection;  // window pixels (origin top left) -> clip space
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_colour;  // 0..1 (unsigned bytes, normalised)
out vec2 v_uv;
out vec4 v_colour;

void main() {
  v_uv = a_uv;
  v_colour = a_colour;
  gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
}
