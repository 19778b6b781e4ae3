// ImGui's item hooks (IMGUI_ENABLE_TEST_ENGINE): remember the label of the keyboard-focused item as widgets
// report it, so the app can say which control has the focus.
#include "imgui_hooks.hpp"

#include <imgui.h>
#include <imgui_internal.h>

namespace {

struct Seen {
  ImGuiID id = 0;
  int frame = -1;
  std::string label;
  ImGuiItemStatusFlags flags = 0;
};
Seen g_seen;

}  // namespace

void ImGuiTestEngineHook_ItemAdd(ImGuiContext*, ImGuiID, const ImRect&, const ImGuiLastItemData*) {}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label,
                                  ImGuiItemStatusFlags flags) {
  if (id == 0 || id != ctx->NavId || label == nullptr) return;
  g_seen.id = id;
  g_seen.frame = ctx->FrameCount;
  g_seen.label.assign(label, ImGui::FindRenderedTextEnd(label));
  g_seen.flags = flags;
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) {
  return nullptr;
}

namespace platform {

std::string& focused_value() {
  static std::string value;
  return value;
}

void enable_item_hooks() {
  ImGui::GetCurrentContext()->TestEngineHookItems = true;
}

FocusedItem focused_item() {
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  FocusedItem f;
  if (ctx == nullptr || ctx->NavId == 0 || ctx->NavDisableHighlight || g_seen.id != ctx->NavId ||
      g_seen.frame < ctx->FrameCount - 1)
    return f;
  f.present = true;
  f.label = g_seen.label;
  f.checkable = (g_seen.flags & ImGuiItemStatusFlags_Checkable) != 0;
  f.checked = (g_seen.flags & ImGuiItemStatusFlags_Checked) != 0;
  return f;
}

}  // namespace platform
