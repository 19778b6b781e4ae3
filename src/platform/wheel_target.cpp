// Which wheel events the app scrolls itself: ImGui's window under the point, or an ancestor, that can still
// move in the wheel's direction (ImGui's own routing, and the scrolling regions' chaining at their ends).
#include "wheel_target.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>

namespace platform {

bool wheel_wanted(float x, float y, float dx, float dy) {
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (ctx == nullptr) return false;
  if (ctx->IO.KeyCtrl) return true;  // Ctrl + wheel zooms a grid
  const ImVec2 at(x, y);
  ImGuiWindow* w = nullptr;
  for (int i = ctx->Windows.Size - 1; i >= 0 && w == nullptr; --i) {  // front to back
    ImGuiWindow* c = ctx->Windows[i];
    if (c->WasActive && !c->Hidden && !(c->Flags & ImGuiWindowFlags_NoMouseInputs) &&
        c->OuterRectClipped.Contains(at))
      w = c;
  }
  if (std::fabs(dx) > std::fabs(dy)) {  // sideways: the first window that scrolls that way
    while (w != nullptr && (w->Flags & ImGuiWindowFlags_ChildWindow) && w->ScrollMax.x <= 0.0f)
      w = w->ParentWindow;
    if (w == nullptr || w->ScrollMax.x <= 0.0f) return false;
    return dx > 0.0f ? w->Scroll.x < w->ScrollMax.x - 0.5f : w->Scroll.x > 0.5f;
  }
  // like ImGui: a child that cannot scroll (or ignores the wheel) hands it to its parent; and as the app's
  // scrolling regions chain (chain_wheel_at_end), one at its end in that direction hands it on too
  for (; w != nullptr; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr) {
    if (w->ScrollMax.y <= 0.0f || (w->Flags & ImGuiWindowFlags_NoScrollWithMouse)) continue;
    if (dy > 0.0f ? w->Scroll.y < w->ScrollMax.y - 0.5f : dy < 0.0f && w->Scroll.y > 0.5f) return true;
  }
  return false;
}

}  // namespace platform
