// Dear ImGui on OpenGL, shared by the desktop and the browser: set-up, one frame, shut-down.
#include "imgui_host.hpp"

#include <cfloat>
#include <cstdio>
#include <exception>

#include "app/app.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "font.hpp"
#include "gfx/gl.hpp"
#include "gfx/heatmap_renderer.hpp"
#include "imgui.h"
#include "imgui_hooks.hpp"
#include "imgui_internal.h"  // ImGui::ErrorCheckEndFrameRecover
#include "imgui_renderer.hpp"

namespace platform {

std::string start_imgui(float pixel_ratio, gfx::HeatmapRenderer& heatmaps) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  enable_item_hooks();  // the focused control's label, for the screen-reader mirror
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  // 16 px text and 4 px above and below: every control is at least 24 CSS px tall (WCAG 2.5.8's target)
  ImGui::GetStyle().FramePadding.y = 4.0f;
  load_font(pixel_ratio);
  imgui_renderer_init();
  gfx::use_renderer(&heatmaps);
  std::string error = imgui_renderer_create_objects();  // "" or the shader log
  return error.empty() ? gfx::init_renderer() : error;
}

void build_frame(app::App& app, bool hide_pointer, bool& error_logged) {
  if (hide_pointer) ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
  try {
    app.frame();
  } catch (const std::exception& e) {
    // The app reports bad input itself; anything reaching here is a bug. Keep the window alive.
    if (!error_logged) std::fprintf(stderr, "error: frame failed: %s\n", e.what());
    error_logged = true;
    ImGui::ErrorCheckEndFrameRecover(nullptr);
  }
  ImGui::Render();
}

bool imgui_has_pending_input() {
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  return ctx != nullptr && ctx->InputEventsQueue.Size > 0;
}

void draw_frame(int fb_w, int fb_h) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // the look's (dark or light)
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  imgui_renderer_draw(ImGui::GetDrawData(), fb_w, fb_h);
}

void stop_imgui() {
  app::shutdown_heatmaps();
  gfx::use_renderer(nullptr);
  imgui_renderer_shutdown();
  ImGui::DestroyContext();
}

}  // namespace platform
