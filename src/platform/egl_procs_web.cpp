// The browser build's eglGetProcAddress: SDL2's Emscripten video driver looks GL functions up through EGL,
// and Emscripten's own eglGetProcAddress holds a table of every GL and WebGL entry point, which keeps all
// of them (about 300 functions of JavaScript glue and their wasm thunks) in the page although the app
// calls GL directly. This one answers exactly the names SDL2 2.26 itself asks for (SDL_video.c:
// SDL_GL_ExtensionSupported, SDL_GL_GetAttribute) and NULL for anything else, as Emscripten's does for
// names it does not know (SDL then reports the attribute or extension as unavailable).
#include <GLES3/gl3.h>

#include <cstring>

extern "C" void* eglGetProcAddress(const char* name) {
  struct Entry {
    const char* name;
    void* fn;
  };
  static const Entry entries[] = {
      {"glGetString", reinterpret_cast<void*>(&glGetString)},
      {"glGetStringi", reinterpret_cast<void*>(&glGetStringi)},
      {"glGetIntegerv", reinterpret_cast<void*>(&glGetIntegerv)},
      {"glGetError", reinterpret_cast<void*>(&glGetError)},
      {"glBindFramebuffer", reinterpret_cast<void*>(&glBindFramebuffer)},
      {"glGetFramebufferAttachmentParameteriv",
       reinterpret_cast<void*>(&glGetFramebufferAttachmentParameteriv)},
  };
  if (!name) return nullptr;
  for (const Entry& e : entries) {
    if (std::strcmp(e.name, name) == 0) return e.fn;
  }
  return nullptr;
}
