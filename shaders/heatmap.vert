// Heatmap pass, vertex stage: one triangle covering the viewport, no vertex buffers (gl_VertexID only).
// The platform prepends "#version 300 es" + "precision highp float;" (WebGL2) or "#version 330 core".

void main() {
  // vertex 0, 1, 2 -> clip (-1, -1), (3, -1), (-1, 3): the viewport (cols x rows texels) is inside it.
  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));
  gl_Position = vec4(p, 0.0, 1.0);
}
