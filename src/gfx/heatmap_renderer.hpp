// GPU heatmaps, no ImGui: a row-major float matrix -> R32F texture -> colormap shader -> RGBA8 texture.
#pragma once

#include <cstdint>
#include <string>

#include "gfx/colormap.hpp"

namespace gfx {

struct HeatmapRenderer;  // heatmap_renderer_state.hpp

// The state every call below works on (nullptr: none; render_heatmap then reports an error): the main loop
// owns it and gives it before init_renderer.
void use_renderer(HeatmapRenderer* state);

// Compiles and links the heatmap program (shaders/heatmap.*, embedded at build time) and makes the
// framebuffer. Needs a current GL 3.3 core / GLES 3.0 (WebGL2) context: call it after the context and
// ImGui_ImplOpenGL3_Init exist. Returns "" on success, else the compile/link log (also printed to stderr).
// render_heatmap() calls it on first use; call it yourself at start-up to fail loudly and early.
std::string init_renderer();

// Frees every texture, the framebuffer, the VAO and the program. Call before the GL context goes away.
void shutdown_renderer();

// Starts a frame: textures not asked for during the last `max_idle_frames` frames are freed.
void renderer_begin_frame(int max_idle_frames = 120);

// A rendered heatmap: an RGBA8 texture, width = cols and height = rows texels, NEAREST filtered.
struct HeatmapImage {
  unsigned int texture = 0;  // GL texture name; 0 on error
  int width = 0;             // cols
  int height = 0;            // rows
  std::string error;         // why texture is 0, in words
  bool deferred = false;     // texture 0, no error: this frame uploaded enough; drawn in a later one
};

// values: rows * cols floats, row-major: value(row, col) = values[row * cols + col] (attn::Mat::data()).
// Texture layout: texel (x = col, y = row), row 0 in the first texture row, so ImGui::Image with the
// default uv (0, 0)-(1, 1) shows row 0 at the top and column 0 on the left.
// Cached by id: uploads and draws (one draw) only when `version` (which values these are: the version of
// the cache that computed them; 0 = unknown, always redraw), the shape, range or colormap changed.
// Cell colour = value_rgb(colormap, value, lo, hi) within 8-bit rounding. GL state is restored. A frame
// uploads at most kFrameTexels values (but always its first heatmap): past that a changed heatmap is
// `deferred` to a later frame, so that a dozen new 512 x 512 grids do not hold up one frame.
inline constexpr long kFrameTexels = 1L << 18;
HeatmapImage render_heatmap(const std::string& id, std::uint64_t version, const float* values, int rows,
                            int cols, Colormap colormap, float lo, float hi);

// The colour bar of a colormap: width 1, height 256; row 0 (top) is t = 1, row 255 (bottom) is t = 0.
HeatmapImage colorbar_image(Colormap colormap);

// The largest rows or cols render_heatmap accepts (GL_MAX_TEXTURE_SIZE, viewport limit); 0 before init.
int max_heatmap_side();

// Counters for tests and the frame-time panel.
struct RendererStats {
  long uploads = 0;  // R32F uploads (= draws) since init
  int cached = 0;    // heatmaps holding a texture now
};
RendererStats renderer_stats();

}  // namespace gfx
