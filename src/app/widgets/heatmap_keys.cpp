// The keyboard's cell cursor in a focused heatmap (arrows, Home / End, Page Up / Down), kept per grid.
#include "app/widgets/heatmap_keys.hpp"

#include <imgui_internal.h>

#include <algorithm>

#include "app/widgets/ui_state.hpp"

namespace app {
namespace {

// Whether `key` was pressed (or repeats) for the grid that owns it.
bool pressed(ImGuiKey key, ImGuiID id) {
  return ImGui::IsKeyPressed(key, id, ImGuiInputFlags_Repeat);
}

}  // namespace

bool keyboard_cell(ImGuiID id, int row0, int col0, int rows, int cols, int& row, int& col) {
  const ImGuiContext& g = *GImGui;
  if (id == 0 || !ImGui::IsItemFocused() || g.NavDisableHighlight || rows < 1 || cols < 1) return false;
  HeatmapCursor& cursor = ui_state().cursor;
  if (cursor.id != id) cursor = {id, row0, col0};
  const ImGuiKey keys[] = {ImGuiKey_LeftArrow, ImGuiKey_RightArrow, ImGuiKey_UpArrow, ImGuiKey_DownArrow,
                           ImGuiKey_Home,      ImGuiKey_End,        ImGuiKey_PageUp,  ImGuiKey_PageDown};
  for (const ImGuiKey k : keys) ImGui::SetKeyOwner(k, id);  // ImGui's navigation leaves them to the grid
  const int page = std::max(1, rows / 2);
  if (pressed(ImGuiKey_LeftArrow, id)) --cursor.col;
  if (pressed(ImGuiKey_RightArrow, id)) ++cursor.col;
  if (pressed(ImGuiKey_UpArrow, id)) --cursor.row;
  if (pressed(ImGuiKey_DownArrow, id)) ++cursor.row;
  if (pressed(ImGuiKey_PageUp, id)) cursor.row -= page;
  if (pressed(ImGuiKey_PageDown, id)) cursor.row += page;
  if (pressed(ImGuiKey_Home, id)) cursor.col = col0;
  if (pressed(ImGuiKey_End, id)) cursor.col = col0 + cols - 1;
  cursor.row = std::clamp(cursor.row, row0, row0 + rows - 1);  // the window may have moved
  cursor.col = std::clamp(cursor.col, col0, col0 + cols - 1);
  row = cursor.row;
  col = cursor.col;
  return true;
}

}  // namespace app
