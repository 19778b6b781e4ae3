// CSV and PNG exports of heatmaps, and the context menu that offers them.
#include "app/widgets/heatmap_export.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "app/platform_io.hpp"
#include "app/widgets/ui_state.hpp"
#include "gfx/colormap.hpp"

namespace app {
namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string label(const std::vector<std::string>& labels, int i) {
  return i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)] : std::to_string(i);
}

}  // namespace

std::string export_stem(const std::string& id) {
  std::string s = id;
  for (char& c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) c = '_';
  }
  return s.empty() ? "heatmap" : s;
}

std::string heatmap_csv(const DrawnHeatmap& h) {
  const attn::Mat& m = *h.values;  // (rows, cols)
  std::string out = csv_field(h.row_title + " \\ " + h.col_title);
  for (int c = 0; c < h.cols; ++c) out += "," + csv_field(label(*h.col_labels, c));
  out += "\n";
  char buf[32];
  for (int r = 0; r < h.rows; ++r) {
    out += csv_field(label(*h.row_labels, r));
    for (int c = 0; c < h.cols; ++c) {
      // %.9g keeps every float32 exactly (9 significant digits round-trip)
      std::snprintf(buf, sizeof buf, ",%.9g", static_cast<double>(m(r, c)));
      out += buf;
    }
    out += "\n";
  }
  return out;
}

std::vector<std::uint8_t> heatmap_rgba(const DrawnHeatmap& h, int scale, int& width, int& height) {
  const attn::Mat& m = *h.values;
  width = h.cols * scale;
  height = h.rows * scale;
  std::vector<std::uint8_t> px(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  for (int r = 0; r < h.rows; ++r) {
    for (int c = 0; c < h.cols; ++c) {
      const std::array<float, 3> rgb = gfx::value_rgb(h.colormap, m(r, c), h.lo, h.hi);
      for (int y = r * scale; y < (r + 1) * scale; ++y) {
        for (int x = c * scale; x < (c + 1) * scale; ++x) {
          std::uint8_t* p =
              &px[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 4];
          for (int k = 0; k < 3; ++k)
            p[k] = static_cast<std::uint8_t>(
                std::lround(std::clamp(rgb[static_cast<size_t>(k)], 0.0f, 1.0f) * 255.0f));
          p[3] = 255;
        }
      }
    }
  }
  return px;
}

void export_menu(const DrawnHeatmap& h, const std::string& name) {
  const std::string popup = "export##" + h.id;
  ImGui::OpenPopupOnItemClick(popup.c_str(), ImGuiPopupFlags_MouseButtonRight);
  if (!ImGui::BeginPopup(popup.c_str())) return;
  const std::string stem = name.empty() ? export_stem(h.id) : name;
  ImGui::TextDisabled("%s (%d × %d)", h.id.c_str(), h.rows, h.cols);
  if (ImGui::MenuItem("Copy as CSV")) {
    copy_text(heatmap_csv(h));
    ui_state().last_saved = "copied " + std::to_string(h.rows) + " × " + std::to_string(h.cols) + " values";
  }
  if (ImGui::MenuItem("Save CSV")) {
    const std::string where = save_text_file(stem + ".csv", heatmap_csv(h));
    ui_state().last_saved = where.empty() ? "could not save " + stem + ".csv" : "saved " + stem + ".csv";
  }
  if (ImGui::MenuItem("Save PNG")) {
    const int scale = std::clamp(512 / std::max(h.rows, h.cols), 1, 16);
    int w = 0, hh = 0;
    const std::vector<std::uint8_t> px = heatmap_rgba(h, scale, w, hh);
    const std::string where = save_png_file(stem + ".png", w, hh, px);
    ui_state().last_saved = where.empty() ? "could not save " + stem + ".png" : "saved " + stem + ".png";
  }
  if (!ui_state().last_saved.empty()) ImGui::TextDisabled("%s", ui_state().last_saved.c_str());
  ImGui::EndPopup();
}

}  // namespace app
