// What the app asks of the platform for exports: the clipboard and saving files (download or disk).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace app {

// Puts text on the system clipboard (the browser's, or SDL's on the desktop).
void copy_text(const std::string& text);
// Saves bytes as a file: a download in the browser, a file in the working directory on the desktop.
// Returns where it went (a file path or "download"), or "" on failure.
std::string save_text_file(const std::string& name, const std::string& text);
// Saves an RGBA image (width x height, row 0 on top) as a PNG file, like save_text_file.
std::string save_png_file(const std::string& name, int width, int height, const std::vector<std::uint8_t>& rgba);

}  // namespace app
