// Browser exports: the clipboard API, downloads through a Blob (PNG encoded by a canvas), the model file
// picker (web/index.html's hidden <input type=file>; web/shell.js hands its bytes to attn_load_model_bytes),
// model files named by a link (fetched) and the tab's remembered trained model (sessionStorage).
#include <emscripten.h>

#include <cstdlib>

#include "app/logic/settings.hpp"
#include "app/logic/trained_model.hpp"
#include "app/platform_io.hpp"

namespace {

// EM_JS bodies are JavaScript: clang-format would break them (it turns === into == =).
// clang-format off
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

// Module.attentionOpenModelFile (web/index.html) clicks the hidden file input; the page's change handler
// reads the chosen file and calls attn_load_model with its text.
EM_JS(void, js_open_model_file, (), {
  if (typeof Module.attentionOpenModelFile === 'function') Module.attentionOpenModelFile();
  else console.warn('attention demo: this page has no model file picker');
});

// Fetches a file from the page's own site (another site's is refused without a request): a model file is
// downloaded by web/shell.js (Module.attentionFetchModel: its bytes streamed to the app with progress, refused
// past the reader's limit), a lesson's steps file's text goes to _attn_load_steps. A failure arrives as an
// empty file with the reason in the name (model) or as the error (steps).
EM_JS(void, js_fetch_same_origin, (const char* path_utf8, int steps), {
  var path = UTF8ToString(path_utf8);
  var load = function(text, why) {
    if (!steps) {
      Module.attentionLoadModelBytes(null, 0, why ? path + " (" + why + ")" : path);
      return;
    }
    var a = lengthBytesUTF8(text) + 1, b = lengthBytesUTF8(path) + 1, c = lengthBytesUTF8(why) + 1;
    var pa = _malloc(a), pb = _malloc(b), pc = _malloc(c);
    if (pa && pb && pc) {
      stringToUTF8(text, pa, a);
      stringToUTF8(path, pb, b);
      stringToUTF8(why, pc, c);
      _attn_load_steps(pb, pa, pc);
    }
    _free(pa);
    _free(pb);
    _free(pc);
  };
  var url = null;
  try { url = new URL(path, location.href); } catch (e) {}
  if (!url || url.origin !== location.origin) {
    load("", "not fetched: a linked " + (steps ? "lesson" : "model") + " must come from this page's own site");
    return;
  }
  if (!steps) {
    Module.attentionFetchModel(url.href, path);
    return;
  }
  fetch(url.href, {credentials: "same-origin"}).then(function(r) {
    if (!r.ok) throw new Error("HTTP " + r.status);
    return r.text();
  }).then(function(text) { load(text, ""); }, function(e) {
    load("", "could not be fetched: " + e.message);
  });
});

EM_JS(void, js_remember_model, (const char* text), {
  try { sessionStorage.setItem("attention-demo:trained-model", UTF8ToString(text)); } catch (e) {}
});

// The remembered model's text (malloc'ed UTF-8, the caller frees it), or 0.
EM_JS(char*, js_recall_model, (), {
  var s = null;
  try { s = sessionStorage.getItem("attention-demo:trained-model"); } catch (e) {}
  if (!s) return 0;
  var n = lengthBytesUTF8(s) + 1, p = _malloc(n);
  if (p) stringToUTF8(s, p, n);
  return p;
});

// clang-format on

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
  js_copy_text(text.c_str());
}

std::string save_text_file(const std::string& name, const std::string& text) {
  js_download(name.c_str(), text.c_str(), mime_of(name));
  return "download";
}

std::string save_png_file(const std::string& name, int width, int height,
                          const std::vector<std::uint8_t>& rgba) {
  js_download_png(name.c_str(), width, height, rgba.data());
  return "download";
}

bool files_are_picked() {
  return true;
}

OpenedFile open_model_file(const std::string&) {
  js_open_model_file();
  OpenedFile f;
  f.pending = true;
  return f;
}

void open_linked_model(const std::string& model) {
  if (is_model_path(model)) {
    js_fetch_same_origin(model.c_str(), 0);
    return;
  }
  if (model != "trained" || trained_model()) return;
  char* text = js_recall_model();
  if (!text) return;
  load_trained_model(text, "the model trained in this tab before the page was reloaded");
  std::free(text);
}

OpenedFile fetch_lesson_steps(const std::string& path) {
  js_fetch_same_origin(path.c_str(), 1);
  OpenedFile f;
  f.pending = true;
  return f;
}

void remember_trained_model(const std::string& file_text) {
  if (!file_text.empty()) js_remember_model(file_text.c_str());
}

}  // namespace app
