// Builds a GL program from two embedded shader sources, with the platform's GLSL version prefix.
#pragma once

#include <string>

#include "gfx/gl.hpp"

namespace gfx {

// Prepended to every shader: "#version 300 es" + "precision highp float;" (WebGL2) or "#version 330 core".
#ifdef __EMSCRIPTEN__
inline constexpr const char* kShaderPrefix = "#version 300 es\nprecision highp float;\n";
#else
inline constexpr const char* kShaderPrefix = "#version 330 core\n";
#endif

// Compiles shaders/<vert_name> and shaders/<frag_name> (their sources given) and links them into `out`.
// Returns "" or what failed with the compile/link log (also printed to stderr); `out` is 0 on failure.
std::string build_program(const char* vert_name, const char* vert_source, const char* frag_name,
                          const char* frag_source, GLuint& out);

}  // namespace gfx
