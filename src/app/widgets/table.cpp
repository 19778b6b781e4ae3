// The table widget (table.hpp): columns measured from what their cells drew (widths kept per table and
// grown; a frame follows when one grows), row backgrounds behind the cells through a draw-list splitter, and
// in a table that scrolls sideways its key (first) column pinned at the left edge, over the others.
#include "app/widgets/table.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "app/scenes/scenes.hpp"
#include "app/widgets/widgets.hpp"

namespace app {
namespace {

struct Widths {
  ImGuiID id;
  std::vector<float> content;  // (columns,) the widest cell content seen so far
  float height = 0.0f;         // the rows' height last frame (for a sideways-scrolling box)
};
std::vector<Widths> g_widths;  // by table id

// The table being drawn (tables do not nest).
struct Current {
  Widths* w = nullptr;
  std::vector<float> x;     // (columns + 1,) column edges from the table's left
  std::vector<bool> fixed;  // (columns,) given a width: its text wraps inside it
  ImVec2 origin;            // the rows' top left
  float rows_top = 0.0f;
  float row_y = 0.0f, row_h = 0.0f;
  int row = -1, cell = -1, next_cell = 0;
  bool in_row = false, child = false, scroll = false;
  float pin = -1.0f;     // a sideways-scrolling table: how far it has scrolled (its key column stays put)
  bool indexed = false;  // rows placed by index (an ImGuiListClipper skips some)
};
Current g;
// Channels: 0 row backgrounds and lines, 1 the cells, 2 the pinned key column's background, 3 its cells
// (reused by every table).
ImDrawListSplitter g_split;
constexpr int kCells = 1, kPinBack = 2, kPinCells = 3;

ImVec2 pad() {
  return ImGui::GetStyle().CellPadding;
}

// Ends the cell being drawn: its width and height count for its column and row.
void close_cell() {
  if (g.cell < 0) return;
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  const ImVec2 size = ImGui::GetItemRectSize();
  float& widest = g.w->content[static_cast<size_t>(g.cell)];
  if (size.x > widest + 0.5f) {
    widest = size.x;
    request_next_frame();  // the columns are laid out again with the new width
  }
  g.row_h = std::max(g.row_h, size.y + 2.0f * pad().y);
  if (g.pin >= 0.0f) g_split.SetCurrentChannel(ImGui::GetWindowDrawList(), kCells);
  g.cell = -1;
}

// The pinned key column's background from y, h high: opaque (the columns scrolled under it are hidden),
// with a strong line at its right edge that shows the rest scrolls.
void pin_back(float y, float h, ImGuiCol color) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  g_split.SetCurrentChannel(dl, kPinBack);
  const float left = g.origin.x + g.pin, right = left + g.x[1];
  dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + h), ImGui::GetColorU32(ImGuiCol_WindowBg));
  dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + h), ImGui::GetColorU32(color));
  dl->AddLine(ImVec2(right, y), ImVec2(right, y + h), ImGui::GetColorU32(ImGuiCol_TableBorderStrong), 2.0f);
}

// Ends the row: its background behind its cells, the line under it, the cursor below it.
void close_row() {
  if (!g.in_row) return;
  close_cell();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float right = g.origin.x + g.x.back();
  g_split.SetCurrentChannel(dl, 0);
  dl->AddRectFilled(ImVec2(g.origin.x, g.row_y), ImVec2(right, g.row_y + g.row_h),
                    ImGui::GetColorU32(g.row % 2 ? ImGuiCol_TableRowBgAlt : ImGuiCol_TableRowBg));
  dl->AddLine(ImVec2(g.origin.x, g.row_y + g.row_h), ImVec2(right, g.row_y + g.row_h),
              ImGui::GetColorU32(ImGuiCol_TableBorderLight));
  if (g.pin >= 0.0f) pin_back(g.row_y, g.row_h, g.row % 2 ? ImGuiCol_TableRowBgAlt : ImGuiCol_TableRowBg);
  g_split.SetCurrentChannel(dl, kCells);
  ImGui::SetCursorScreenPos(ImVec2(g.origin.x, g.row_y + g.row_h));
  g.in_row = false;
}

// The header: column names on the header colour, from the cursor.
void draw_header(std::initializer_list<TableColumn> columns) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float h = table_row_height();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + g.x.back(), at.y + h), ImGui::GetColorU32(ImGuiCol_TableHeaderBg));
  size_t c = 0;
  for (const TableColumn& col : columns) {
    dl->AddText(ImVec2(at.x + g.x[c] + pad().x, at.y + pad().y), ImGui::GetColorU32(ImGuiCol_Text), col.name);
    ++c;
  }
  ImGui::Dummy(ImVec2(g.x.back(), h - ImGui::GetStyle().ItemSpacing.y));
}

}  // namespace

float table_row_height() {
  return ImGui::GetTextLineHeight() + 2.0f * pad().y;
}

bool begin_table(const char* id, std::initializer_list<TableColumn> columns, int scroll_rows) {
  const ImGuiID tid = ImGui::GetID(id);
  auto it = std::find_if(g_widths.begin(), g_widths.end(), [tid](const Widths& w) { return w.id == tid; });
  if (it == g_widths.end()) it = g_widths.insert(g_widths.end(), Widths{tid, {}, 0.0f});
  g = Current();
  g.w = &*it;
  g.w->content.resize(columns.size(), 0.0f);
  g.x.assign(1, 0.0f);
  size_t c = 0;
  for (const TableColumn& col : columns) {
    const float content = std::max({g.w->content[c], ImGui::CalcTextSize(col.name).x, col.width});
    g.x.push_back(g.x.back() + content + 2.0f * pad().x);
    g.fixed.push_back(col.width > 0.0f);
    ++c;
  }
  const float avail = ImGui::GetContentRegionAvail().x, bar = ImGui::GetStyle().ScrollbarSize;
  g.scroll = scroll_rows > 0;
  ImGui::PushID(id);
  const bool wide = !g.scroll && g.x.back() > avail;
  bool open = true;
  if (g.scroll) {  // the header stays; the rows scroll under it
    draw_header(columns);
    open = ImGui::BeginChild(
        "rows",
        ImVec2(std::min(g.x.back() + bar, avail), static_cast<float>(scroll_rows) * table_row_height()),
        false, ImGuiWindowFlags_NavFlattened);
    if (open) chain_wheel_at_end();
  } else if (wide) {  // too wide: the whole table scrolls sideways
    open = ImGui::BeginChild("wide", ImVec2(avail, table_row_height() + g.w->height + bar), false,
                             ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened);
    if (open) draw_header(columns);
  } else {
    draw_header(columns);
  }
  g.child = g.scroll || wide;
  if (!open) {  // the box is out of sight: nothing in it is drawn
    ImGui::EndChild();
    ImGui::PopID();
    g = Current();
    return false;
  }
  g.origin = ImGui::GetCursorScreenPos();
  g.rows_top = g.origin.y;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  g_split.Split(dl, 4);
  if (wide) {  // the key column's header, pinned too
    g.pin = ImGui::GetScrollX();
    const float h = table_row_height();
    pin_back(g.origin.y - h, h, ImGuiCol_TableHeaderBg);
    g_split.SetCurrentChannel(dl, kPinCells);
    dl->AddText(ImVec2(g.origin.x + g.pin + pad().x, g.origin.y - h + pad().y),
                ImGui::GetColorU32(ImGuiCol_Text), columns.begin()->name);
  }
  g_split.SetCurrentChannel(dl, kCells);
  return true;
}

void table_row(int index) {
  close_row();
  g.row = index >= 0 ? index : g.row + 1;
  g.indexed = g.indexed || index >= 0;
  g.row_y = index >= 0 ? g.rows_top + static_cast<float>(index) * table_row_height()
                       : ImGui::GetCursorScreenPos().y;
  g.row_h = table_row_height();
  g.next_cell = 0;
  g.in_row = true;
}

void table_cell() {
  close_cell();
  if (g.next_cell + 1 >= static_cast<int>(g.x.size())) return;  // more cells than columns: ignored
  g.cell = g.next_cell++;
  const auto c = static_cast<size_t>(g.cell);
  const float shift = c == 0 && g.pin >= 0.0f ? g.pin : 0.0f;  // the pinned key column
  if (c == 0 && g.pin >= 0.0f) g_split.SetCurrentChannel(ImGui::GetWindowDrawList(), kPinCells);
  ImGui::SetCursorScreenPos(ImVec2(g.origin.x + shift + g.x[c] + pad().x, g.row_y + pad().y));
  ImGui::BeginGroup();
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float right = g.origin.x + shift + g.x[c + 1] - pad().x;
  // text wraps inside a column of a given width; elsewhere it stays on one line and the column grows
  ImGui::PushTextWrapPos(g.fixed[c] ? right - window->Pos.x + window->Scroll.x : 1e6f);
}

void end_table() {
  const float clipper_end =
      ImGui::GetCursorScreenPos().y;  // where a clipper left the cursor: after every row
  close_row();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float bottom = std::max(ImGui::GetCursorScreenPos().y, g.indexed ? clipper_end : 0.0f);
  g_split.SetCurrentChannel(dl, 0);
  const ImU32 line = ImGui::GetColorU32(ImGuiCol_TableBorderStrong);
  for (size_t c = 1; c + 1 < g.x.size(); ++c) {
    dl->AddLine(ImVec2(g.origin.x + g.x[c], g.rows_top - (g.scroll ? 0.0f : table_row_height())),
                ImVec2(g.origin.x + g.x[c], bottom), ImGui::GetColorU32(ImGuiCol_TableBorderLight));
  }
  dl->AddRect(ImVec2(g.origin.x, g.rows_top - (g.scroll ? 0.0f : table_row_height())),
              ImVec2(g.origin.x + g.x.back(), bottom), line);
  g_split.Merge(dl);
  if (std::fabs(g.w->height - (bottom - g.rows_top)) > 0.5f && !g.scroll) {
    g.w->height = bottom - g.rows_top;
    if (g.child) request_next_frame();
  }
  ImGui::SetCursorScreenPos(ImVec2(g.origin.x, bottom));
  ImGui::Dummy(ImVec2(g.x.back(), 0.0f));
  if (g.child) ImGui::EndChild();
  ImGui::PopID();
  g = Current();
}

}  // namespace app
