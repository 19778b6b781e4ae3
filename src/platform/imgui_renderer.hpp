// Draws Dear ImGui's frames with OpenGL 3.3 core / GLES 3.0 (WebGL2), setting its state instead of reading
// it back: no GL query per frame (in a browser each one waits for the GPU process).
#pragma once

#include <string>

struct ImDrawData;

namespace platform {

// Registers the renderer with ImGui (the context must exist). Creates nothing on the GPU yet.
void imgui_renderer_init();

// The program, buffers, vertex array and font texture: made when missing (at the first frame, after a
// lost context, after the font changed). Returns "" or what failed.
std::string imgui_renderer_create_objects();

// Frees every GPU object of the renderer (the program, buffers, vertex array, font texture). After a lost
// context the names are simply forgotten: call it then too.
void imgui_renderer_destroy_objects();

// The font atlas changed (load_font): its texture is rebuilt before the next draw.
void imgui_renderer_font_changed();

// Draws `data` into the bound framebuffer of fb_w x fb_h pixels. The state it leaves: its program, vertex
// array, buffers and the last texture bound; blending and scissor on.
void imgui_renderer_draw(const ImDrawData* data, int fb_w, int fb_h);

// Unregisters from ImGui and frees the GPU objects (the GL context must be current).
void imgui_renderer_shutdown();

}  // namespace platform
