// Exports of a drawn heatmap: CSV of the exact values with labels, PNG of the picture, via a context menu.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/widgets/heatmap_view.hpp"

namespace app {

// The picture as RGBA (row 0 on top), `scale` pixels per cell, coloured by the same formula as the shader.
std::vector<std::uint8_t> heatmap_rgba(const DrawnHeatmap& h, int scale, int& width, int& height);

// The right-click menu on the last item (the heatmap image): copy CSV, save CSV, save PNG.
void export_menu(const DrawnHeatmap& h, const std::string& name);

// "mha/head0" -> "mha_head0": a file name stem from a heatmap id.
std::string export_stem(const std::string& id);

}  // namespace app
