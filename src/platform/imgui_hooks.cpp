// ImGui's item hooks (IMGUI_ENABLE_TEST_ENGINE): remember the label of the keyboard-focused item as widgets
// report it, so the app can say which control has the focus, and the frame's tab stops in order, so Tab can
// leave the canvas after the last one (and Shift+Tab before the first) as it leaves a web form's control.
#include "imgui_hooks.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

namespace {

// An item Tab can land on, in the order the frame submitted them.
struct Stop {
  ImGuiID id = 0;
  ImGuiWindow* window = nullptr;  // the item's window
  ImGuiWindow* root = nullptr;    // the window tabbing moves in (RootWindowForNav)
  ImGuiID scope = 0;              // its focus scope: tabbing stays in one
  ImRect rect;                    // its navigation rectangle, screen pixels
};

// The hooks' state, one per ImGui context: made on first use (enable_item_hooks), held by the context's
// TestEngine pointer (ImGui's place for the item hooks' own data) and freed with the context (a shutdown
// hook).
struct ItemHooks {
  // the keyboard-focused item as its widget last reported it
  ImGuiID seen_id = 0;
  int seen_frame = -1;
  std::string seen_label;
  ImGuiItemStatusFlags seen_flags = 0;
  std::string focused_value;  // app::focused_value()
  // the frame's tab stops
  std::vector<Stop> stops;
  int stops_frame = -1;
  size_t scene_first = 0;  // the first stop of the scene's own panel
};

// The hooks' state of `ctx`, made on first use.
ItemHooks& hooks(ImGuiContext* ctx) {
  if (ctx->TestEngine == nullptr) {
    ctx->TestEngine = IM_NEW(ItemHooks)();
    ImGuiContextHook shutdown;
    shutdown.Type = ImGuiContextHookType_Shutdown;
    shutdown.Callback = [](ImGuiContext* c, ImGuiContextHook*) {
      IM_DELETE(static_cast<ItemHooks*>(c->TestEngine));
      c->TestEngine = nullptr;
    };
    ImGui::AddContextHook(ctx, &shutdown);
  }
  return *static_cast<ItemHooks*>(ctx->TestEngine);
}

// The state of a context whose hooks exist (has_hooks).
const ItemHooks& hooks(const ImGuiContext* ctx) {
  return *static_cast<const ItemHooks*>(ctx->TestEngine);
}

bool has_hooks(const ImGuiContext* ctx) {
  return ctx != nullptr && ctx->TestEngine != nullptr;
}

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
  if (!has_hooks(ctx) || hooks(ctx).stops.empty()) return out;
  const std::vector<Stop>& stops = hooks(ctx).stops;
  const Stop* ref = &stops.front();
  for (const Stop& s : stops) {
    if (s.id == ctx->NavId) ref = &s;
  }
  for (const Stop& s : stops) {
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
  ItemHooks& h = hooks(ctx);
  if (ctx->FrameCount != h.stops_frame) {
    h.stops.clear();
    h.stops_frame = ctx->FrameCount;
    h.scene_first = 0;
  }
  ImGuiWindow* w = ctx->CurrentWindow;
  const ImGuiItemFlags skip = ImGuiItemFlags_NoTabStop | ImGuiItemFlags_NoNav | ImGuiItemFlags_Disabled;
  if (id == 0 || item == nullptr || w == nullptr || w->IsFallbackWindow || (item->InFlags & skip) != 0 ||
      w->DC.NavLayerCurrent != ImGuiNavLayer_Main)
    return;
  h.stops.push_back({id, w, w->RootWindowForNav, ctx->CurrentFocusScopeId, bb});
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label,
                                  ImGuiItemStatusFlags flags) {
  if (id == 0 || id != ctx->NavId || label == nullptr) return;
  ItemHooks& h = hooks(ctx);
  h.seen_id = id;
  h.seen_frame = ctx->FrameCount;
  h.seen_label = spoken_label(label);
  h.seen_flags = flags;
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) {
  return nullptr;
}

namespace app {

std::string& focused_value() {
  return hooks(ImGui::GetCurrentContext()).focused_value;
}

void mark_scene_tab_stops() {
  ItemHooks& h = hooks(ImGui::GetCurrentContext());
  h.scene_first = h.stops_frame == GImGui->FrameCount ? h.stops.size() : 0;
}

FocusedItem focused_item() {
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  FocusedItem f;
  if (!has_hooks(ctx)) return f;
  const ItemHooks& h = hooks(ctx);
  if (ctx->NavId == 0 || ctx->NavDisableHighlight || h.seen_id != ctx->NavId ||
      h.seen_frame < ctx->FrameCount - 1)
    return f;
  f.present = true;
  f.label = h.seen_label;
  f.checkable = (h.seen_flags & ImGuiItemStatusFlags_Checkable) != 0;
  f.checked = (h.seen_flags & ImGuiItemStatusFlags_Checked) != 0;
  return f;
}

}  // namespace app

namespace platform {

void enable_item_hooks() {
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  hooks(ctx);
  ctx->TestEngineHookItems = true;
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
  if (!has_hooks(ctx) || hooks(ctx).stops.empty()) return false;
  const ItemHooks& h = hooks(ctx);
  const std::vector<Stop>& stops = h.stops;
  if (which == TabStop::Scene) {
    focus_stop(stops[h.scene_first < stops.size() ? h.scene_first : 0]);
    return true;
  }
  if (which == TabStop::First || which == TabStop::Last) {
    const Stop& first = stops.front();  // the app's window, before any popup or tooltip
    const Stop* s = &first;
    for (const Stop& t : stops) {
      if (which == TabStop::Last && t.root == first.root && t.scope == first.scope) s = &t;
    }
    focus_stop(*s);
    return true;
  }
  // the stop after (or before) the item `from`, in its own tab order
  for (size_t i = 0; i < stops.size(); ++i) {
    if (stops[i].id != from) continue;
    const Stop& at = stops[i];
    if (which == TabStop::After) {
      for (size_t j = i + 1; j < stops.size(); ++j) {
        if (stops[j].root == at.root && stops[j].scope == at.scope) return focus_stop(stops[j]), true;
      }
    } else {
      for (size_t j = i; j-- > 0;) {
        if (stops[j].root == at.root && stops[j].scope == at.scope) return focus_stop(stops[j]), true;
      }
    }
    return false;
  }
  return false;
}

void hide_keyboard_focus() {
  if (ImGuiContext* ctx = ImGui::GetCurrentContext()) ctx->NavDisableHighlight = true;
}

}  // namespace platform
