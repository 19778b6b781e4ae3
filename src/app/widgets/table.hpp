// A table laid out with ImGui's plain widgets: a header row, then rows of cells the caller draws with any
// widgets, each column as wide as its widest cell (or a given width), borders and alternating row colours.
// Wider than its panel it scrolls sideways; with scroll_rows it shows that many rows under a fixed header
// and scrolls the rest. Usage mirrors ImGui's tables:
//   if (begin_table("id", {{"a"}, {"b", 300}})) { table_row(); table_cell(); ImGui::Text(...); ...
//   end_table(); }
#pragma once

#include <imgui.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace app {

struct TableColumn {
  const char* name;
  float width = 0.0f;  // at least this wide (CSS pixels); 0: as wide as its content
};

// Starts a table; false when nothing is to be drawn (then do not call end_table). scroll_rows > 0: the rows
// scroll under the header in a box that many rows high (draw only the rows an ImGuiListClipper gives, with
// table_row(index)).
bool begin_table(const char* id, std::initializer_list<TableColumn> columns, int scroll_rows = 0);
// Starts a row: row `index` (placed by its index, one line high: for an ImGuiListClipper), or the next one.
void table_row(int index = -1);
// Moves to the row's next cell: what follows is drawn in it.
void table_cell();
// The next cell holding `text`.
void table_text(const std::string& text);
void end_table();
// The height of one line of cells (for an ImGuiListClipper over the rows).
float table_row_height();

// What the tables keep (held by the UiState): each table's measured columns, the table being drawn (tables
// do not nest) and the draw-list splitter they share.
struct TableWidths {
  ImGuiID id;
  std::vector<float> content;  // (columns,) the widest cell content seen so far
  float height = 0.0f;         // the rows' height last frame (for a sideways-scrolling box)
};
struct TableDraw {
  TableWidths* w = nullptr;
  std::vector<float> x;     // (columns + 1,) column edges from the table's left
  std::vector<char> fixed;  // (columns,) given a width: its text wraps inside it
  ImVec2 origin;            // the rows' top left
  float rows_top = 0.0f;
  float row_y = 0.0f, row_h = 0.0f;
  int row = -1, cell = -1, next_cell = 0;
  bool in_row = false, child = false, scroll = false;
  float pin = -1.0f;     // a sideways-scrolling table: how far it has scrolled (its key column stays put)
  bool indexed = false;  // rows placed by index (an ImGuiListClipper skips some)
};
struct TableState {
  std::vector<TableWidths> widths;  // by table id
  TableDraw current;
  // Channels: 0 row backgrounds and lines, 1 the cells, 2 the pinned key column's background, 3 its cells
  // (reused by every table).
  ImDrawListSplitter split;
};

}  // namespace app
