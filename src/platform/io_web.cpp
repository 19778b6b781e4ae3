// Browser exports: the clipboard API, downloads through a Blob (PNG encoded by a canvas), the model file
// picker (web/index.html's hidden <input type=file>; web/shell.js hands its bytes to attn_load_model_bytes),
// model files named by a link (fetched) and the tab's remembered trained model (sessionStorage).
#include <emscripten.h>

#include <cstdlib>

#include "app/logic/settings.hpp"
#include "app/logic/trained_model.hpp"
#include "app/platform_io.hpp"
#include "bridge_web.hpp"

namespace {

// "application/json" for .json files, else CSV (the heatmap exports).
const char* mime_of(const std::string& name) {
  const std::string json = ".json";
  const bool is_json =
      name.size() >= json.size() && name.compare(name.size() - json.size(), json.size(), json) == 0;
  return is_json ? "application/json" : "text/csv";
}

}  // namespace

namespace app {

void copy_text(const std::string& text) {
  attn_js_copy_text(text.c_str());
}

std::string save_text_file(const std::string& name, const std::string& text) {
  attn_js_download(name.c_str(), text.c_str(), mime_of(name));
  return "download";
}

std::string save_png_file(const std::string& name, int width, int height,
                          const std::vector<std::uint8_t>& rgba) {
  attn_js_download_png(name.c_str(), width, height, rgba.data());
  return "download";
}

bool files_are_picked() {
  return true;
}

OpenedFile open_model_file(const std::string&) {
  attn_js_open_model_file();
  OpenedFile f;
  f.pending = true;
  return f;
}

void open_linked_model(const std::string& model) {
  if (is_model_path(model)) {
    attn_js_fetch_same_origin(model.c_str(), 0);
    return;
  }
  if (model != "trained" || trained_model()) return;
  char* text = attn_js_recall_model();
  if (!text) return;
  load_trained_model(text, "the model trained in this tab before the page was reloaded");
  std::free(text);
}

OpenedFile fetch_lesson_steps(const std::string& path) {
  attn_js_fetch_same_origin(path.c_str(), 1);
  OpenedFile f;
  f.pending = true;
  return f;
}

void pick_checkpoint_files() {
  attn_js_pick_checkpoint();
}

void open_linked_checkpoint(const std::string& paths) {
  attn_js_fetch_checkpoint(paths.c_str());
}

void remember_trained_model(const std::string& file_text) {
  if (!file_text.empty()) attn_js_remember_model(file_text.c_str());
}

}  // namespace app
