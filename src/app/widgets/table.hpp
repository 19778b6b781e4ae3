// A table laid out with ImGui's plain widgets: a header row, then rows of cells the caller draws with any
// widgets, each column as wide as its widest cell (or a given width), borders and alternating row colours.
// Wider than its panel it scrolls sideways; with scroll_rows it shows that many rows under a fixed header
// and scrolls the rest. Usage mirrors ImGui's tables:
//   if (begin_table("id", {{"a"}, {"b", 300}})) { table_row(); table_cell(); ImGui::Text(...); ...
//   end_table(); }
#pragma once

#include <initializer_list>

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
void end_table();
// The height of one line of cells (for an ImGuiListClipper over the rows).
float table_row_height();

}  // namespace app
