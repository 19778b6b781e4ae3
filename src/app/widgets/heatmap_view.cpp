// The heatmap widget: a GPU-drawn matrix with row/column labels, a colour bar and a hover tooltip.
#include "app/widgets/heatmap_view.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>

#include "app/logic/text.hpp"
#include "app/widgets/heatmap_export.hpp"
#include "app/widgets/heatmap_fit.hpp"
#include "app/widgets/heatmap_keys.hpp"
#include "app/widgets/heatmap_labels.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/ui_state.hpp"
#include "app/widgets/widgets.hpp"
#include "gfx/heatmap_renderer.hpp"

namespace app {
namespace {

constexpr float kPad = 4.0f;  // between labels and the image
constexpr float kBarGap = 8.0f, kBarW = 12.0f;

// "query 'cake' (3)" with token labels, "position 3" without (or when the label is just the index).
std::string axis_line(const std::string& title, const std::vector<std::string>& labels, int i) {
  if (i < static_cast<int>(labels.size()) && labels[static_cast<size_t>(i)] != std::to_string(i)) {
    return title + " '" + labels[static_cast<size_t>(i)] + "' (" + std::to_string(i) + ")";
  }
  return title + " " + std::to_string(i);
}

// One axis of a cell as said aloud: "query 'my'", or "position 4" where the label is the index.
std::string spoken_axis(const std::string& title, const std::vector<std::string>& labels, int i) {
  if (i < static_cast<int>(labels.size()) && labels[static_cast<size_t>(i)] != std::to_string(i))
    return title + " '" + labels[static_cast<size_t>(i)] + "'";
  return title + " " + std::to_string(i);
}

// The heatmap's name as said aloud: its title, or its id in words ("positions/table": "positions table").
std::string spoken_name(const HeatmapSpec& spec) {
  if (!spec.title.empty()) return spec.title;
  std::string name;
  for (const char c : spec.id) name += c == '/' || c == '_' ? ' ' : c;
  return name;
}

std::string spoken_cell(const HeatmapSpec& spec, const std::vector<std::string>& row_labels,
                        const std::vector<std::string>& col_labels, int row, int col, float value) {
  return spoken_name(spec) + ", " + spoken_axis(spec.row_title, row_labels, row) + ", " +
         spoken_axis(spec.col_title, col_labels, col) + ": " + spoken_number(static_cast<double>(value));
}

}  // namespace

HeatmapSpec heatmap_spec(std::string id, const attn::Mat& values, std::uint64_t version, HeatmapAxis rows,
                         HeatmapAxis cols, gfx::Colormap colormap) {
  HeatmapSpec spec;
  spec.id = std::move(id);
  spec.values = &values;
  spec.version = version;
  spec.row_labels = rows.labels;
  spec.row_title = rows.title;
  spec.col_labels = cols.labels;
  spec.col_title = cols.title;
  spec.colormap = colormap;
  return spec;
}

HeatmapHover heatmap_view(const HeatmapSpec& spec) {
  HeatmapHover hover;
  if (spec.values == nullptr || spec.values->size() == 0) {
    ImGui::TextDisabled("(no values)");
    return hover;
  }
  const attn::Mat& values = *spec.values;  // (all_rows, all_cols), row-major
  const int all_rows = static_cast<int>(values.rows()), all_cols = static_cast<int>(values.cols());
  // the part drawn: rows (row0, rows), columns (col0, cols)
  const int row0 = std::clamp(spec.row0, 0, all_rows - 1), col0 = std::clamp(spec.col0, 0, all_cols - 1);
  const int rows = spec.shown_rows > 0 ? std::min(spec.shown_rows, all_rows - row0) : all_rows - row0;
  const int cols = spec.shown_cols > 0 ? std::min(spec.shown_cols, all_cols - col0) : all_cols - col0;
  const float w = std::max(spec.width, 1.0f), h = std::max(spec.height, 1.0f);
  const float line_h = ImGui::GetTextLineHeight();
  const float cell_w = w / static_cast<float>(cols), cell_h = h / static_cast<float>(rows);
  const HeatmapFit& fit = fitted_heatmap(spec, row0, col0, rows, cols, w, h, line_h);
  const HeatmapRange range = fit.range;
  const gfx::HeatmapImage img = gfx::render_heatmap(spec.id, spec.version, values.data(), all_rows, all_cols,
                                                    spec.colormap, range.lo, range.hi);
  if (img.deferred) {  // its place, empty, for a frame or two
    ImGui::Dummy(ImVec2(fit.left_w + kPad + w, line_h + fit.header_h + 2.0f + h));
    request_next_frame();
    return hover;
  }
  if (img.texture == 0) {
    ImGui::TextColored(ink(Ink::Error), "Cannot draw this matrix: %s", img.error.c_str());
    return hover;
  }
  const std::vector<std::string>& row_labels = *fit.row_labels;
  const std::vector<std::string>& col_labels = *fit.col_labels;
  const float left_w = fit.left_w, tick_w = fit.tick_w;

  // 1. layout: label column | image | colour bar + tick values; the column title and labels above.
  ImGui::BeginGroup();  // one item for the parent layout (SameLine works), whatever is placed inside
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 img_min(std::floor(origin.x + left_w + kPad),
                       std::floor(origin.y + line_h + fit.header_h + 2.0f));
  const ImVec2 img_max(img_min.x + w, img_min.y + h);
  const float total_w = img_max.x - origin.x + (spec.show_colorbar ? kBarGap + kBarW + kPad + tick_w : 0.0f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text),
              dim_col = ImGui::GetColorU32(ImGuiCol_TextDisabled);

  // 2. the image: row 0 at the top, column 0 on the left (texture row 0 = matrix row 0).
  ImGui::SetCursorScreenPos(img_min);
  const ImVec2 uv0(static_cast<float>(col0) / static_cast<float>(all_cols),
                   static_cast<float>(row0) / static_cast<float>(all_rows));
  const ImVec2 uv1(static_cast<float>(col0 + cols) / static_cast<float>(all_cols),
                   static_cast<float>(row0 + rows) / static_cast<float>(all_rows));
  // one item over the image: the pointer hovers and drags it, Tab focuses it (heatmap_keys.hpp)
  // the keyboard focus names it as said aloud ("###": its ImGui id is the spec id alone)
  const bool activated = ImGui::InvisibleButton((spoken_name(spec) + "###" + spec.id).c_str(), ImVec2(w, h));
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(img.texture)), img_min, img_max, uv0, uv1);
  const bool hovered = ImGui::IsItemHovered(ImGuiHoveredFlags_NoNavOverride);  // the pointer, not the keys
  int key_row = -1, key_col = -1;
  const bool keyed = !hovered && keyboard_cell(ImGui::GetItemID(), row0, col0, rows, cols, key_row, key_col);
  const bool hot = hovered || keyed;  // a cell is shown: the pointer's or the keyboard's
  ImGui::RenderNavHighlight(ImRect(img_min, img_max), ImGui::GetItemID());  // the keyboard focus, visible
  // a tap on a touch screen shows the cell (hover) and selects nothing: clicks are the mouse's
  const ImGuiIO& io = ImGui::GetIO();
  const bool touch = io.MouseSource == ImGuiMouseSource_TouchScreen;
  const bool dragged = io.MouseDragMaxDistanceSqr[0] > io.MouseDragThreshold * io.MouseDragThreshold;
  hover.clicked = (hovered && !touch && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !dragged) ||
                  (keyed && activated);  // Enter or Space on the keyboard's cell
  if (hovered && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const ImVec2 moved = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left);
    hover.dragging = true;
    hover.drag_cols = moved.x / cell_w;
    hover.drag_rows = moved.y / cell_h;
  }
  if (hovered && io.KeyCtrl) hover.zoom = io.MouseWheel;
  const ImVec2 rmin = ImGui::GetItemRectMin(), rsize = ImGui::GetItemRectSize();

  // 3. axis titles (line 0) and labels: rows right-aligned left of the image, columns above it (across, or
  // upwards when that fits more of them); the hovered cell's row and column labels stand out.
  const float title_w = ImGui::CalcTextSize(spec.col_title.c_str()).x;
  dl->AddText(ImVec2(std::max(img_min.x, img_min.x + 0.5f * (w - title_w)), origin.y), dim_col,
              spec.col_title.c_str());
  dl->AddText(ImVec2(img_min.x - kPad - ImGui::CalcTextSize(spec.row_title.c_str()).x, origin.y), dim_col,
              spec.row_title.c_str());
  if (hovered) {
    hover.col =
        col0 + std::clamp(static_cast<int>(std::floor((io.MousePos.x - img_min.x) / cell_w)), 0, cols - 1);
    hover.row =
        row0 + std::clamp(static_cast<int>(std::floor((io.MousePos.y - img_min.y) / cell_h)), 0, rows - 1);
  } else if (keyed) {
    hover.row = key_row;
    hover.col = key_col;
  }
  // a label's rect beside row r / above column c (index into the part drawn), kept beside the image
  auto row_rect = [&](int r, float tw) {
    const float cy = img_min.y + (static_cast<float>(r) + 0.5f) * cell_h;
    return LabelRect{img_min.x - kPad - tw, std::clamp(cy - 0.5f * line_h, img_min.y, img_max.y - line_h), tw,
                     line_h};
  };
  auto col_rect = [&](int c, float tw) {
    const float cx = img_min.x + (static_cast<float>(c) + 0.5f) * cell_w;
    if (fit.rotated) return LabelRect{cx - 0.5f * line_h, img_min.y - 2.0f - tw, line_h, tw};
    return LabelRect{std::clamp(cx - 0.5f * tw, img_min.x, std::max(img_min.x, img_max.x - tw)),
                     img_min.y - line_h - 1.0f, tw, line_h};
  };
  std::vector<LabelRect> drawn, rects;
  std::string hot_text;
  LabelRect hot_rect{};
  for (size_t k = 0; k < fit.row_text.size(); ++k)
    rects.push_back(row_rect(static_cast<int>(k) * fit.row_step, fit.row_text_w[k]));
  if (hot) {
    hot_text = fit_text(label_text(row_labels, hover.row), kMaxRowLabelW);
    hot_rect = row_rect(hover.row - row0, ImGui::CalcTextSize(hot_text.c_str()).x);
  }
  draw_axis_labels(dl, rects, fit.row_text, false, hot ? &hot_rect : nullptr, hot_text, drawn);
  rects.clear();
  std::vector<std::string> col_text;
  for (int c = 0; c < cols; c += fit.col_step) {
    rects.push_back(col_rect(c, fit.col_text_w[static_cast<size_t>(c)]));
    col_text.push_back(fit.col_text[static_cast<size_t>(c)]);
  }
  if (hot) {
    const auto k = static_cast<size_t>(hover.col - col0);
    hot_text = fit.col_text[k];
    hot_rect = col_rect(hover.col - col0, fit.col_text_w[k]);
  }
  draw_axis_labels(dl, rects, col_text, fit.rotated, hot ? &hot_rect : nullptr, hot_text, drawn);

  // 4. the colour bar with the range's values (and 0 for the diverging map).
  if (spec.show_colorbar) {
    const gfx::HeatmapImage bar = gfx::colorbar_image(spec.colormap);
    const ImVec2 bar_min(img_max.x + kBarGap, img_min.y), bar_max(bar_min.x + kBarW, img_max.y);
    if (bar.texture != 0) {
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(bar.texture)), bar_min, bar_max);
    }
    for (const auto& t : fit.ticks) {
      const float y = std::min(bar_min.y + t.first * h, bar_max.y - 1.0f);
      const float ty = std::min(std::max(y - 0.5f * line_h, bar_min.y), bar_max.y - line_h);
      dl->AddLine(ImVec2(bar_max.x, y), ImVec2(bar_max.x + 3.0f, y), text_col);
      dl->AddText(ImVec2(bar_max.x + kPad, ty), text_col, t.second.c_str());
    }
  }

  // 5. the pointer's or the keyboard's cell: outlined; a tooltip with titles, labels and the exact value.
  if (hot) {
    const ImVec2 cell_min(img_min.x + static_cast<float>(hover.col - col0) * cell_w,
                          img_min.y + static_cast<float>(hover.row - row0) * cell_h);
    dl->AddRect(cell_min, ImVec2(cell_min.x + cell_w, cell_min.y + cell_h), IM_COL32(255, 255, 255, 255));
    char value[64];
    std::snprintf(value, sizeof value, "value %.6g", static_cast<double>(values(hover.row, hover.col)));
    ui_state().out.hover = {
        spec.id,
        hover.row,
        hover.col,
        {axis_line(spec.row_title, row_labels, hover.row), axis_line(spec.col_title, col_labels, hover.col),
         value},
        keyed,
        spoken_cell(spec, row_labels, col_labels, hover.row, hover.col, values(hover.row, hover.col))};
    if (spec.extra_tooltip) {
      for (std::string& line : spec.extra_tooltip(hover.row, hover.col))
        ui_state().out.hover.lines.push_back(std::move(line));
    }
    if (!touch) ui_state().out.hover.lines.push_back("right-click: copy or save as CSV or PNG");
    ImGui::BeginTooltip();
    // lines wrap at spaces (never inside a number): the tooltip stays on a phone's screen
    const float wrap = tooltip_wrap_width();
    for (size_t i = 0; i < ui_state().out.hover.lines.size(); ++i) {
      if (!touch && i + 1 == ui_state().out.hover.lines.size()) {  // the right-click hint
        ImGui::TextDisabled("%s", ui_state().out.hover.lines[i].c_str());
      } else {
        ImGui::TextUnformatted(wrap_label(ui_state().out.hover.lines[i], wrap).c_str());
      }
    }
    mark_window("tooltip/heatmap");
    ImGui::EndTooltip();
  }

  // 6. record what was drawn (screen = CSS pixels in the browser), offer the exports, reserve the space.
  ui_state().out.heatmaps.push_back(
      DrawnHeatmap{spec.id,
                   rmin.x,
                   rmin.y,
                   rsize.x,
                   rsize.y,
                   all_rows,
                   all_cols,
                   row0,
                   col0,
                   rows,
                   cols,
                   range.lo,
                   range.hi,
                   spec.colormap,
                   &values,
                   fit.row_labels,
                   fit.col_labels,
                   spec.row_title,
                   spec.col_title,
                   ImGui::IsRectVisible(rmin, ImVec2(rmin.x + rsize.x, rmin.y + rsize.y)),
                   std::move(drawn)});
  export_menu(ui_state().out.heatmaps.back(), spec.export_name);
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(total_w, img_max.y - origin.y));
  ImGui::EndGroup();
  return hover;
}

void begin_heatmap_frame() {
  ui_state().out.heatmaps.clear();
  ui_state().out.hover = HoverReport{};
  gfx::renderer_begin_frame();
}

const HoverReport& hovered_heatmap() {
  return ui_state().out.hover;
}

const std::vector<DrawnHeatmap>& drawn_heatmaps() {
  return ui_state().out.heatmaps;
}

void shutdown_heatmaps() {
  ui_state().out.heatmaps.clear();
  ui_state().heatmaps.fitted.clear();
  gfx::shutdown_renderer();
}

}  // namespace app
