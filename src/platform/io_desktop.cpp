// Desktop exports: SDL's clipboard, files written next to the working directory, model files read by path.
#include <SDL.h>

#include <fstream>
#include <sstream>

#include "app/logic/lm_host.hpp"
#include "app/logic/lm_store.hpp"
#include "app/logic/settings.hpp"
#include "app/logic/text.hpp"
#include "app/logic/trained_model.hpp"
#include "app/platform_io.hpp"
#include "png.hpp"

namespace app {

void copy_text(const std::string& text) {
  SDL_SetClipboardText(text.c_str());
}

std::string save_text_file(const std::string& name, const std::string& text) {
  std::ofstream out(name, std::ios::binary);
  out << text;
  return out ? name : "";
}

std::string save_png_file(const std::string& name, int width, int height,
                          const std::vector<std::uint8_t>& rgba) {
  return platform::write_png_rgba(name, width, height, rgba, nullptr) ? name : "";
}

bool files_are_picked() {
  return false;
}

OpenedFile open_model_file(const std::string& path) {
  OpenedFile f;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    f.error = "cannot open " + path + " (looked in the working directory unless the path says otherwise)";
    return f;
  }
  std::ostringstream text;
  text << in.rdbuf();
  f.text = text.str();
  return f;
}

void open_linked_model(const std::string& model) {
  if (!is_model_path(model)) return;
  const OpenedFile f = open_model_file(model);
  load_trained_model(f.error.empty() ? f.text : "", f.error.empty() ? model : model + " (" + f.error + ")");
}

OpenedFile fetch_lesson_steps(const std::string& path) {
  return open_model_file(path);  // the same: a file's text, or why it could not be read
}

void remember_trained_model(const std::string&) {}

void pick_checkpoint_files() {}

void open_linked_checkpoint(const std::string& paths) {
  std::vector<attn::model_io::NamedFile> files;
  std::string error;
  for (const std::string& path : split_list(paths, ',')) {
    const OpenedFile f = open_model_file(path);
    if (!f.error.empty()) error = f.error;
    files.push_back({path, f.text});
  }
  static LmHost host;  // the desktop app's models open in its own thread
  lm_store().answer_here = [](const LmRequest& q) { return host.answer(q); };
  const long long open = lm_open_started(paths, 0, false);
  LmInfo info;
  if (error.empty()) {
    info = host.open(open, std::move(files));
  } else {
    info.model = open;
    info.source = paths;
    info.error = error;
  }
  deliver_lm_info(info);
}

}  // namespace app
