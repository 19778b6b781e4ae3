// ImGui's item hooks (IMGUI_ENABLE_TEST_ENGINE): remember the label of the keyboard-focused item as widgets
// report it, so the app can say which control has the focus, and the frame's tab stops in order, so Tab can
// leave the canvas after the last one (and Shift+Tab before the first) as it leaves a web form's control.
#include "imgui_hooks.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

namespace {

struct Seen {
  ImGuiID id = 0;
  int frame = -1;
  std::string label;
  ImGuiItemStatusFlags flags = 0;
};
Seen g_seen;

// An item Tab can land on, in the order the frame submitted them.
struct Stop {
  ImGuiID id = 0;
  ImGuiWindow* window = nullptr;  // the item's window
  ImGuiWindow* root = nullptr;    // the window tabbing moves in (RootWindowForNav)
  ImGuiID scope = 0;              // its focus scope: tabbing stays in one
  ImRect rect;                    // its navigation rectangle, screen pixels
};
std::vector<Stop> g_stops;
int g_stops_frame = -1;
size_t g_scene_first = 0;  // the first stop of the scene's own panel

// What the spoken name of an item is: its label up to "##"; for a stepper ("-##decrease position") or an
// item whose label is drawn apart ("##position"), the words after "##" up to the next "##".
std::string spoken_label(const char* label) {
  const char* end = ImGui::FindRenderedTextEnd(label);
  std::string shown(label, end);
  if ((shown.empty() || shown == "-" || shown == "+") && end[0] == '#' && end[1] == '#') {
    const std::string rest(end + 2);
    return rest.substr(0, rest.find("##"));
  }
  return shown;
}

// The stops of the last frame in the window and focus scope tabbing would move in: the keyboard focus's, or
// the first stop's when nothing has it.
std::vector<const Stop*> tab_order(const ImGuiContext* ctx) {
  std::vector<const Stop*> out;
  if (g_stops.empty()) return out;
  const Stop* ref = &g_stops.front();
  for (const Stop& s : g_stops) {
    if (s.id == ctx->NavId) ref = &s;
  }
  for (const Stop& s : g_stops) {
    if (s.root == ref->root && s.scope == ref->scope) out.push_back(&s);
  }
  return out;
}

void focus_stop(const Stop& s) {
  ImGuiContext& g = *GImGui;
  ImGui::FocusWindow(s.window);
  ImGui::SetNavID(s.id, ImGuiNavLayer_Main, s.scope, ImGui::WindowRectAbsToRel(s.window, s.rect));
  g.NavDisableHighlight = false;
  g.NavDisableMouseHover = g.NavMousePosDirty = true;
  ImGui::ScrollToRectEx(s.window, s.rect, ImGuiScrollFlags_KeepVisibleEdgeY);
}

}  // namespace

void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, ImGuiID id, const ImRect& bb,
                                 const ImGuiLastItemData* item) {
  if (ctx->FrameCount != g_stops_frame) {
    g_stops.clear();
    g_stops_frame = ctx->FrameCount;
    g_scene_first = 0;
  }
  ImGuiWindow* w = ctx->CurrentWindow;
  const ImGuiItemFlags skip = ImGuiItemFlags_NoTabStop | ImGuiItemFlags_NoNav | ImGuiItemFlags_Disabled;
  if (id == 0 || item == nullptr || w == nullptr || w->IsFallbackWindow || (item->InFlags & skip) != 0 ||
      w->DC.NavLayerCurrent != ImGuiNavLayer_Main)
    return;
  g_stops.push_back({id, w, w->RootWindowForNav, ctx->CurrentFocusScopeId, bb});
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label,
                                  ImGuiItemStatusFlags flags) {
  if (id == 0 || id != ctx->NavId || label == nullptr) return;
  g_seen.id = id;
  g_seen.frame = ctx->FrameCount;
  g_seen.label = spoken_label(label);
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

void mark_scene_tab_stops() {
  g_scene_first = g_stops_frame == GImGui->FrameCount ? g_stops.size() : 0;
}

bool tab_leaves(bool backward) {
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (ctx == nullptr) return true;
  if (ctx->NavWindow != nullptr &&
      (ctx->NavWindow->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Modal)))
    return false;  // an open combo or menu: Tab stays in it
  const std::vector<const Stop*> order = tab_order(ctx);
  if (order.empty()) return true;
  const Stop* end = backward ? order.front() : order.back();
  if (ctx->NavDisableHighlight) return backward && end->id == ctx->NavId;  // Tab first shows the focus
  bool found = false;
  for (const Stop* s : order) found = found || s->id == ctx->NavId;
  return !found ? backward : end->id == ctx->NavId;
}

bool focus_tab_stop(TabStop which, unsigned from) {
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (ctx == nullptr || g_stops.empty()) return false;
  if (which == TabStop::Scene) {
    focus_stop(g_stops[g_scene_first < g_stops.size() ? g_scene_first : 0]);
    return true;
  }
  if (which == TabStop::First || which == TabStop::Last) {
    const Stop& first = g_stops.front();  // the app's window, before any popup or tooltip
    const Stop* s = &first;
    for (const Stop& t : g_stops) {
      if (which == TabStop::Last && t.root == first.root && t.scope == first.scope) s = &t;
    }
    focus_stop(*s);
    return true;
  }
  // the stop after (or before) the item `from`, in its own tab order
  for (size_t i = 0; i < g_stops.size(); ++i) {
    if (g_stops[i].id != from) continue;
    const Stop& at = g_stops[i];
    if (which == TabStop::After) {
      for (size_t j = i + 1; j < g_stops.size(); ++j) {
        if (g_stops[j].root == at.root && g_stops[j].scope == at.scope) return focus_stop(g_stops[j]), true;
      }
    } else {
      for (size_t j = i; j-- > 0;) {
        if (g_stops[j].root == at.root && g_stops[j].scope == at.scope) return focus_stop(g_stops[j]), true;
      }
    }
    return false;
  }
  return false;
}

void hide_keyboard_focus() {
  if (ImGuiContext* ctx = ImGui::GetCurrentContext()) ctx->NavDisableHighlight = true;
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
