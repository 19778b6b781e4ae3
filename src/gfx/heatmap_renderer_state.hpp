// The heatmap renderer's state (heatmap_renderer.cpp): the program, one framebuffer, one R32F scratch
// texture and the cache of RGBA8 textures. The main loop owns one (main_web.cpp, main_desktop.cpp) and hands
// it to gfx::use_renderer; nothing outside src/gfx reads its fields.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gfx/colormap.hpp"
#include "gfx/gl.hpp"

namespace gfx {

struct HeatmapRenderer {
  // One cached heatmap: its RGBA8 texture and what it was drawn from.
  struct Entry {
    GLuint texture = 0;  // RGBA8, (cols, rows) texels
    int rows = 0, cols = 0;
    std::uint64_t version = 0;  // 0: redraw on every call
    float lo = 0.0f, hi = 0.0f;
    Colormap colormap = Colormap::Viridis;
    long last_frame = 0;
  };

  GLuint program = 0, vao = 0, fbo = 0;
  bool fbo_checked = false;  // a texture attached to fbo was found complete (draw_into)
  GLuint values_tex = 0;     // R32F scratch texture, shared: the values are uploaded, drawn, then not needed
  int values_rows = 0, values_cols = 0;
  GLint u_values = -1, u_lo = -1, u_hi = -1, u_diverging = -1, u_keys = -1, u_key_count = -1,
        u_nonfinite = -1;
  int max_side = 0;
  long frame = 0, uploads = 0;
  long frame_texels = 0;  // values uploaded in this frame (kFrameTexels)
  std::map<std::string, Entry> cache;
  std::vector<float> staging;  // a copy of the values with non-finite ones replaced (only when needed)
};

}  // namespace gfx
