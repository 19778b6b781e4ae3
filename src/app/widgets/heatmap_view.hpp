// The heatmap widget: one GPU-drawn matrix with axis labels, colour bar and hover tooltip.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "gfx/colormap.hpp"

namespace app {

struct HeatmapSpec {
  std::string id;                     // unique in the frame, e.g. "mha/head0"
  std::string title;                  // its spoken name ("head 0 of 4"); empty: made from the id
  const attn::Mat* values = nullptr;  // (rows, cols)
  // Which values these are: the version of the cache that computed them (Memo::version(),
  // CachedPipeline::version). The texture, the colour range and the fitted labels are rebuilt only when
  // it (or the size, font or colours) changes; 0 rebuilds them every frame.
  std::uint64_t version = 0;
  // Token text or positions, read while heatmap_view runs (copied when the version changes); nullptr or
  // empty: indices.
  const std::vector<std::string>* row_labels = nullptr;
  const std::vector<std::string>* col_labels = nullptr;
  std::string row_title = "row";     // e.g. "query", "position"
  std::string col_title = "column";  // e.g. "key", "dimension"
  gfx::Colormap colormap = gfx::Colormap::Viridis;
  bool auto_range = true;                 // range from the values (diverging: symmetric around 0)
  float lo = 0.0f, hi = 1.0f;             // used when auto_range is false
  float width = 300.0f, height = 300.0f;  // size of the matrix image in CSS pixels
  bool show_colorbar = true;
  // Extra tooltip lines for a hovered cell (row, col), e.g. raw score and clock hands.
  std::function<std::vector<std::string>(int row, int col)> extra_tooltip;
  // A file name stem for exports ("mha_head0" -> mha_head0.csv / .png); empty: made from the id.
  std::string export_name;
  // The part drawn (a token window): rows row0 .. row0 + shown_rows - 1, columns col0 .. col0 + shown_cols
  // - 1; 0 shown rows or columns: to the end. The colour range stays the whole matrix's.
  int row0 = 0, col0 = 0, shown_rows = 0, shown_cols = 0;
  // The row labels' column is at least this wide: a grid whose window moves keeps its place (the labels of
  // the whole matrix decide it). Depends on the labels, so the version covers it.
  float row_label_w = 0.0f;

  // Colours over [lo, hi] instead of the values' own range.
  void fix_range(float low, float high) {
    auto_range = false;
    lo = low;
    hi = high;
  }
};

// One side of a heatmap: its labels (nullptr: indices) and its title.
struct HeatmapAxis {
  const std::vector<std::string>* labels = nullptr;
  const char* title = "";
};

// What most heatmaps set: `values` (rows, cols) as the cache at `version` computed them, under `id`, with
// its row and column sides and colormap; the size and the extras keep their defaults.
HeatmapSpec heatmap_spec(std::string id, const attn::Mat& values, std::uint64_t version, HeatmapAxis rows,
                         HeatmapAxis cols, gfx::Colormap colormap);

// Column labels longer than this (CSS pixels) are cut with ".."; turned upright, the band above the image
// is as tall as the longest one.
inline constexpr float kMaxColLabelW = 70.0f;

struct HeatmapHover {
  int row = -1, col = -1;  // the hovered cell of the whole matrix, or -1
  bool clicked = false;    // the image was clicked (pressed and released without a drag) this frame
  float zoom = 0.0f;       // Ctrl + mouse wheel over the image this frame (> 0: zoom in)
  bool dragging = false;   // a drag that started on the image goes on (a pan)
  float drag_rows = 0.0f, drag_cols = 0.0f;  // how far since it started, in cells
};

// Draws the heatmap (one texture upload when the values change, one draw). Records it for heatmaps().
HeatmapHover heatmap_view(const HeatmapSpec& spec);

// What was drawn in the current frame, for window.attentionDemo.heatmaps() and the tests.
struct DrawnHeatmap {
  std::string id;
  float x, y, w, h;                        // the matrix image on the canvas, CSS pixels
  int rows, cols;                          // the whole matrix
  int row0, col0, shown_rows, shown_cols;  // the part drawn in the image
  float lo, hi;                            // the value range mapped to the colormap's ends
  gfx::Colormap colormap;
  const attn::Mat* values;  // the scene's matrix, valid until the next frame's scene draw
  std::shared_ptr<const std::vector<std::string>> row_labels, col_labels;  // never null
  std::string row_title, col_title;
  bool visible = true;  // false when scrolled out of its window (ImGui clipped it away)
  std::vector<std::array<float, 4>> label_rects;  // every row and column label drawn: x, y, w, h
};
// Starts a new frame's list (called by the app at the start of each frame).
void begin_heatmap_frame();
const std::vector<DrawnHeatmap>& drawn_heatmaps();

// The tooltip shown this frame (empty id when none), for window.attentionDemo.state() and the tests.
struct HoverReport {
  std::string id;
  int row = -1, col = -1;
  std::vector<std::string> lines;
  bool keyboard = false;  // the keyboard's cell in a focused grid, not the pointer's
  std::string spoken;  // the cell as the screen reader says it: "head 0 of 4, query 'my', key 'cake': 0.79"
};
const HoverReport& hovered_heatmap();

// The CSV of a heatmap: a header row of column labels, then one row per matrix row led by its label.
std::string heatmap_csv(const DrawnHeatmap& h);

// Releases GPU resources (textures, framebuffers, program) before the GL context goes away.
void shutdown_heatmaps();

}  // namespace app
