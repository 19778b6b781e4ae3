// A minimal PNG writer: signature, IHDR, one zlib-compressed IDAT (filter 0 per row), IEND.
#include "png.hpp"

#include <zlib.h>

#include <cstdio>

namespace platform {
namespace {

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 24));
  out.push_back(static_cast<std::uint8_t>(v >> 16));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

// Appends one chunk: length, type, data, CRC of type + data.
void put_chunk(std::vector<std::uint8_t>& out, const char type[4], const std::vector<std::uint8_t>& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t type_at = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  const uLong crc = crc32(0L, out.data() + type_at, static_cast<uInt>(4 + data.size()));
  put_u32(out, static_cast<std::uint32_t>(crc));
}

}  // namespace

bool write_png_rgba(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
                    std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  if (width <= 0 || height <= 0) return fail("empty image");
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  if (rgba.size() != row * static_cast<std::size_t>(height)) return fail("pixel buffer has the wrong size");

  // 1. raw scanlines: a filter byte (0: none) before each row
  std::vector<std::uint8_t> raw;
  raw.reserve((row + 1) * static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);
    const auto* p = rgba.data() + row * static_cast<std::size_t>(y);
    raw.insert(raw.end(), p, p + row);
  }
  // 2. zlib stream
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> packed(packed_size);
  if (compress2(packed.data(), &packed_size, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK)
    return fail("zlib compression failed");
  packed.resize(packed_size);
  // 3. chunks
  std::vector<std::uint8_t> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<std::uint8_t> ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(width));
  put_u32(ihdr, static_cast<std::uint32_t>(height));
  ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, filter set 0, no interlace
  put_chunk(file, "IHDR", ihdr);
  put_chunk(file, "IDAT", packed);
  put_chunk(file, "IEND", {});
  // 4. write
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return fail("cannot open " + path + " for writing");
  const bool written = std::fwrite(file.data(), 1, file.size(), f) == file.size();
  if (std::fclose(f) != 0 || !written) return fail("cannot write " + path);
  return true;
}

}  // namespace platform
