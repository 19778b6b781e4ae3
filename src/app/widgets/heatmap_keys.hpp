// The keyboard's cell cursor in a focused heatmap: Tab reaches the grid, the arrow keys move between cells.
#pragma once

#include <imgui.h>

namespace app {

// Call right after the heatmap's item (`id`). When the keyboard focus is on it (and shown), takes the
// arrow, Home / End and Page keys from ImGui's navigation, moves the cursor within the part drawn (rows
// row0 .. row0 + rows - 1, columns col0 .. col0 + cols - 1) and returns true with the cell in row, col.
// Tab and Shift+Tab still leave the grid.
bool keyboard_cell(ImGuiID id, int row0, int col0, int rows, int cols, int& row, int& col);

// The focused grid's cell (one grid has the focus at a time; held by the UiState).
struct HeatmapCursor {
  ImGuiID id = 0;
  int row = 0, col = 0;
};

}  // namespace app
