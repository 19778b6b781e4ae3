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

#include "app/widgets/ui_state.hpp"
#include "app/widgets/widgets.hpp"

namespace app {
namespace {

TableState& tables() {
  return ui_state().tables;
}
TableDraw& cur() {
  return tables().current;
}
constexpr int kCells = 1, kPinBack = 2, kPinCells = 3;

ImVec2 pad() {
  return ImGui::GetStyle().CellPadding;
}

// Ends the cell being drawn: its width and height count for its column and row.
void close_cell() {
  if (cur().cell < 0) return;
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  const ImVec2 size = ImGui::GetItemRectSize();
  float& widest = cur().w->content[static_cast<size_t>(cur().cell)];
  if (size.x > widest + 0.5f) {
    widest = size.x;
    request_next_frame();  // the columns are laid out again with the new width
  }
  cur().row_h = std::max(cur().row_h, size.y + 2.0f * pad().y);
  if (cur().pin >= 0.0f) tables().split.SetCurrentChannel(ImGui::GetWindowDrawList(), kCells);
  cur().cell = -1;
}

// The pinned key column's background from y, h high: opaque (the columns scrolled under it are hidden),
// with a strong line at its right edge that shows the rest scrolls.
void pin_back(float y, float h, ImGuiCol color) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  tables().split.SetCurrentChannel(dl, kPinBack);
  const float left = cur().origin.x + cur().pin, right = left + cur().x[1];
  dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + h), ImGui::GetColorU32(ImGuiCol_WindowBg));
  dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + h), ImGui::GetColorU32(color));
  dl->AddLine(ImVec2(right, y), ImVec2(right, y + h), ImGui::GetColorU32(ImGuiCol_TableBorderStrong), 2.0f);
}

// Ends the row: its background behind its cells, the line under it, the cursor below it.
void close_row() {
  if (!cur().in_row) return;
  close_cell();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float right = cur().origin.x + cur().x.back();
  tables().split.SetCurrentChannel(dl, 0);
  dl->AddRectFilled(ImVec2(cur().origin.x, cur().row_y), ImVec2(right, cur().row_y + cur().row_h),
                    ImGui::GetColorU32(cur().row % 2 ? ImGuiCol_TableRowBgAlt : ImGuiCol_TableRowBg));
  dl->AddLine(ImVec2(cur().origin.x, cur().row_y + cur().row_h), ImVec2(right, cur().row_y + cur().row_h),
              ImGui::GetColorU32(ImGuiCol_TableBorderLight));
  if (cur().pin >= 0.0f)
    pin_back(cur().row_y, cur().row_h, cur().row % 2 ? ImGuiCol_TableRowBgAlt : ImGuiCol_TableRowBg);
  tables().split.SetCurrentChannel(dl, kCells);
  ImGui::SetCursorScreenPos(ImVec2(cur().origin.x, cur().row_y + cur().row_h));
  cur().in_row = false;
}

// The header: column names on the header colour, from the cursor.
void draw_header(std::initializer_list<TableColumn> columns) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float h = table_row_height();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + cur().x.back(), at.y + h), ImGui::GetColorU32(ImGuiCol_TableHeaderBg));
  size_t c = 0;
  for (const TableColumn& col : columns) {
    dl->AddText(ImVec2(at.x + cur().x[c] + pad().x, at.y + pad().y), ImGui::GetColorU32(ImGuiCol_Text),
                col.name);
    ++c;
  }
  ImGui::Dummy(ImVec2(cur().x.back(), h - ImGui::GetStyle().ItemSpacing.y));
}

}  // namespace

float table_row_height() {
  return ImGui::GetTextLineHeight() + 2.0f * pad().y;
}

bool begin_table(const char* id, std::initializer_list<TableColumn> columns, int scroll_rows) {
  const ImGuiID tid = ImGui::GetID(id);
  auto it = std::find_if(tables().widths.begin(), tables().widths.end(),
                         [tid](const TableWidths& w) { return w.id == tid; });
  if (it == tables().widths.end())
    it = tables().widths.insert(tables().widths.end(), TableWidths{tid, {}, 0.0f});
  cur() = TableDraw();
  cur().w = &*it;
  cur().w->content.resize(columns.size(), 0.0f);
  cur().x.assign(1, 0.0f);
  size_t c = 0;
  for (const TableColumn& col : columns) {
    const float content = std::max({cur().w->content[c], ImGui::CalcTextSize(col.name).x, col.width});
    cur().x.push_back(cur().x.back() + content + 2.0f * pad().x);
    cur().fixed.push_back(col.width > 0.0f ? 1 : 0);
    ++c;
  }
  const float avail = ImGui::GetContentRegionAvail().x, bar = ImGui::GetStyle().ScrollbarSize;
  cur().scroll = scroll_rows > 0;
  ImGui::PushID(id);
  const bool wide = !cur().scroll && cur().x.back() > avail;
  bool open = true;
  if (cur().scroll) {  // the header stays; the rows scroll under it
    draw_header(columns);
    open = ImGui::BeginChild(
        "rows",
        ImVec2(std::min(cur().x.back() + bar, avail), static_cast<float>(scroll_rows) * table_row_height()),
        false, ImGuiWindowFlags_NavFlattened);
    if (open) chain_wheel_at_end();
  } else if (wide) {  // too wide: the whole table scrolls sideways
    open = ImGui::BeginChild("wide", ImVec2(avail, table_row_height() + cur().w->height + bar), false,
                             ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened);
    if (open) draw_header(columns);
  } else {
    draw_header(columns);
  }
  cur().child = cur().scroll || wide;
  if (!open) {  // the box is out of sight: nothing in it is drawn
    ImGui::EndChild();
    ImGui::PopID();
    cur() = TableDraw();
    return false;
  }
  cur().origin = ImGui::GetCursorScreenPos();
  cur().rows_top = cur().origin.y;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  tables().split.Split(dl, 4);
  if (wide) {  // the key column's header, pinned too
    cur().pin = ImGui::GetScrollX();
    const float h = table_row_height();
    pin_back(cur().origin.y - h, h, ImGuiCol_TableHeaderBg);
    tables().split.SetCurrentChannel(dl, kPinCells);
    dl->AddText(ImVec2(cur().origin.x + cur().pin + pad().x, cur().origin.y - h + pad().y),
                ImGui::GetColorU32(ImGuiCol_Text), columns.begin()->name);
  }
  tables().split.SetCurrentChannel(dl, kCells);
  return true;
}

void table_row(int index) {
  close_row();
  cur().row = index >= 0 ? index : cur().row + 1;
  cur().indexed = cur().indexed || index >= 0;
  cur().row_y = index >= 0 ? cur().rows_top + static_cast<float>(index) * table_row_height()
                           : ImGui::GetCursorScreenPos().y;
  cur().row_h = table_row_height();
  cur().next_cell = 0;
  cur().in_row = true;
}

void table_text(const std::string& text) {
  table_cell();
  ImGui::TextUnformatted(text.c_str());
}

void table_cell() {
  close_cell();
  if (cur().next_cell + 1 >= static_cast<int>(cur().x.size())) return;  // more cells than columns: ignored
  cur().cell = cur().next_cell++;
  const auto c = static_cast<size_t>(cur().cell);
  const float shift = c == 0 && cur().pin >= 0.0f ? cur().pin : 0.0f;  // the pinned key column
  if (c == 0 && cur().pin >= 0.0f) tables().split.SetCurrentChannel(ImGui::GetWindowDrawList(), kPinCells);
  ImGui::SetCursorScreenPos(ImVec2(cur().origin.x + shift + cur().x[c] + pad().x, cur().row_y + pad().y));
  ImGui::BeginGroup();
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float right = cur().origin.x + shift + cur().x[c + 1] - pad().x;
  // text wraps inside a column of a given width; elsewhere it stays on one line and the column grows
  ImGui::PushTextWrapPos(cur().fixed[c] ? right - window->Pos.x + window->Scroll.x : 1e6f);
}

void end_table() {
  const float clipper_end =
      ImGui::GetCursorScreenPos().y;  // where a clipper left the cursor: after every row
  close_row();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float bottom = std::max(ImGui::GetCursorScreenPos().y, cur().indexed ? clipper_end : 0.0f);
  tables().split.SetCurrentChannel(dl, 0);
  const ImU32 line = ImGui::GetColorU32(ImGuiCol_TableBorderStrong);
  for (size_t c = 1; c + 1 < cur().x.size(); ++c) {
    dl->AddLine(
        ImVec2(cur().origin.x + cur().x[c], cur().rows_top - (cur().scroll ? 0.0f : table_row_height())),
        ImVec2(cur().origin.x + cur().x[c], bottom), ImGui::GetColorU32(ImGuiCol_TableBorderLight));
  }
  dl->AddRect(ImVec2(cur().origin.x, cur().rows_top - (cur().scroll ? 0.0f : table_row_height())),
              ImVec2(cur().origin.x + cur().x.back(), bottom), line);
  tables().split.Merge(dl);
  if (std::fabs(cur().w->height - (bottom - cur().rows_top)) > 0.5f && !cur().scroll) {
    cur().w->height = bottom - cur().rows_top;
    if (cur().child) request_next_frame();
  }
  ImGui::SetCursorScreenPos(ImVec2(cur().origin.x, bottom));
  ImGui::Dummy(ImVec2(cur().x.back(), 0.0f));
  if (cur().child) ImGui::EndChild();
  ImGui::PopID();
  cur() = TableDraw();
}

}  // namespace app
