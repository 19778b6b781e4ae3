// A minimal PNG writer (8-bit RGBA, zlib from the system) for the desktop app's --screenshot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace platform {

// rgba: width x height pixels, 4 bytes each, top row first. Returns false and fills `error` on failure.
bool write_png_rgba(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
                    std::string* error);

}  // namespace platform
