// Compiles and links the GL programs of the heatmaps and of the interface, once each at start-up.
#include "gfx/gl_program.hpp"

#include <cstdio>
#include <cstring>

namespace gfx {
namespace {

// Compiles one stage; "" or "shaders/<name> failed to compile: <log>".
std::string compile(GLenum stage, const char* name, const char* source, GLuint& out) {
  out = glCreateShader(stage);
  const char* parts[2] = {kShaderPrefix, source};
  glShaderSource(out, 2, parts, nullptr);
  glCompileShader(out);
  GLint ok = GL_FALSE, len = 0;
  glGetShaderiv(out, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return "";
  glGetShaderiv(out, GL_INFO_LOG_LENGTH, &len);
  std::string log(static_cast<size_t>(len > 1 ? len : 1), '\0');
  if (len > 1) glGetShaderInfoLog(out, len, nullptr, &log[0]);
  log.resize(std::strlen(log.c_str()));
  std::fprintf(stderr, "[gl] shaders/%s failed to compile:\n%s\n", name, log.c_str());
  return std::string("shaders/") + name + " failed to compile: " + log;
}

}  // namespace

std::string build_program(const char* vert_name, const char* vert_source, const char* frag_name,
                          const char* frag_source, GLuint& out) {
  out = 0;
  GLuint vs = 0, fs = 0;
  std::string err = compile(GL_VERTEX_SHADER, vert_name, vert_source, vs);
  if (err.empty()) err = compile(GL_FRAGMENT_SHADER, frag_name, frag_source, fs);
  if (err.empty()) {
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    GLint ok = GL_FALSE, len = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (ok == GL_TRUE) {
      out = prog;
    } else {
      glGetProgramiv(prog, GL_INFO_LOG_LENGTH, &len);
      std::string log(static_cast<size_t>(len > 1 ? len : 1), '\0');
      if (len > 1) glGetProgramInfoLog(prog, len, nullptr, &log[0]);
      log.resize(std::strlen(log.c_str()));
      std::fprintf(stderr, "[gl] %s + %s failed to link:\n%s\n", vert_name, frag_name, log.c_str());
      err = std::string(vert_name) + " + " + frag_name + " failed to link: " + log;
      glDeleteProgram(prog);
    }
  }
  if (vs != 0) glDeleteShader(vs);
  if (fs != 0) glDeleteShader(fs);
  return err;
}

}  // namespace gfx
