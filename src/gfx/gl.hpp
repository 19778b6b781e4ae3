// Includes OpenGL: GLES 3.0 (WebGL2) under Emscripten, desktop GL 3.3 core prototypes natively (link libGL).
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif
