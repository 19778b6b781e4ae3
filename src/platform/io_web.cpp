// Browser exports: the clipboard API and downloads through a Blob (PNG encoded by a canvas).
#include <emscripten.h>

#include "app/platform_io.hpp"

namespace {

EM_JS(void, js_copy_text, (const char* text), {
  const s = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(s).catch(function(e) { console.warn('clipboard: ' + e); });
  }
  window.attentionDemoLastCopy = s;
});

EM_JS(void, js_download, (const char* name, const char* text, const char* mime), {
  const blob = new Blob([UTF8ToString(text)], {type: UTF8ToString(mime)});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = UTF8ToString(name);
  document.body.appendChild(a);
  a.click();
  setTimeout(function() { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
});

EM_JS(void, js_download_png, (const char* name, int width, int height, const unsigned char* rgba), {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(width, height);
  image.data.set(HEAPU8.subarray(rgba, rgba + width * height * 4));
  ctx.putImageData(image, 0, 0);
  const file = UTF8ToString(name);
  canvas.toBlob(function(blob) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = file;
    document.body.appendChild(a);
    a.click();
    setTimeout(function() { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }, 'image/png');
});

}  // namespace

namespace app {

void copy_text(const std::string& text) { js_copy_text(text.c_str()); }

std::string save_text_file(const std::string& name, const std::string& text) {
  js_download(name.c_str(), text.c_str(), "text/csv");
  return "download";
}

std::string save_png_file(const std::string& name, int width, int height, const std::vector<std::uint8_t>& rgba) {
  js_download_png(name.c_str(), width, height, rgba.data());
  return "download";
}

}  // namespace app
