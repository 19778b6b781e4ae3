// Desktop exports: SDL's clipboard and files written next to the working directory.
#include <SDL.h>

#include <fstream>

#include "app/platform_io.hpp"
#include "png.hpp"

namespace app {

void copy_text(const std::string& text) { SDL_SetClipboardText(text.c_str()); }

std::string save_text_file(const std::string& name, const std::string& text) {
  std::ofstream out(name, std::ios::binary);
  out << text;
  return out ? name : "";
}

std::string save_png_file(const std::string& name, int width, int height, const std::vector<std::uint8_t>& rgba) {
  return platform::write_png_rgba(name, width, height, rgba, nullptr) ? name : "";
}

}  // namespace app
