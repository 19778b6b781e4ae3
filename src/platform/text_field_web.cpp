// Browser free-text fields: ImGui lays out and draws each field's frame (with its text, seen while the
// <input> is hidden); a real <input> lies over it, so the browser does the editing (paste, IME, dictation,
// phone keyboards, emoji, right-to-left text). The input's text comes back through attn_field_input.
#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/widgets.hpp"
#include "bridge_web.hpp"
#include "font.hpp"
#include "frames_web.hpp"
#include "text_fields.hpp"
#include "web_layer.hpp"

namespace {

// Whether a tooltip or popup (drawn this frame so far, or the last) covers part of r (the <input> would hide
// it).
bool covered(const ImRect& r) {
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    const bool above = (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) != 0;
    if (above && (w->Active || w->WasActive) && w->Rect().Overlaps(r)) return true;
  }
  return false;
}

}  // namespace

namespace app {

bool text_field(const char* label, const char* hint, std::string& value, bool* entered) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImGuiID id = window->GetID(label);
  bool changed = false;
  if (entered) *entered = false;
  for (platform::TypedText& t : platform::web_layer().fields.typed) {
    if (t.id != id) continue;
    changed = t.value != value;
    value = std::move(t.value);
    if (entered) *entered = t.entered;
    t = platform::TypedText{};
  }
  // The layout of ImGui::InputTextWithHint: the frame, then the label; on a narrow screen the label on its
  // own line above a full-width frame.
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* label_end = ImGui::FindRenderedTextEnd(label);
  ImVec2 label_size = ImGui::CalcTextSize(label, label_end, true);
  float width = ImGui::CalcItemWidth();
  if (app::narrow_screen()) {
    if (label_size.x > 0.0f) ImGui::TextUnformatted(label, label_end);
    label_size = ImVec2(0.0f, 0.0f);
    width = ImGui::GetContentRegionAvail().x;
  }
  const ImVec2 pos = window->DC.CursorPos;
  const ImRect frame(pos, ImVec2(pos.x + width, pos.y + ImGui::GetFrameHeight()));
  const ImRect total(
      frame.Min, ImVec2(frame.Max.x + (label_size.x > 0.0f ? style.ItemInnerSpacing.x + label_size.x : 0.0f),
                        frame.Max.y));
  ImGui::ItemSize(total, style.FramePadding.y);
  // Inputable: Tab on it goes on into its <input>, as into a form's text box
  if (!ImGui::ItemAdd(total, id, &frame, ImGuiItemFlags_Inputable))
    return changed;  // scrolled out of sight: no <input>
  ImGui::RenderFrame(frame.Min, frame.Max, ImGui::GetColorU32(ImGuiCol_FrameBg), true, style.FrameRounding);
  const bool empty = value.empty();
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::GetStyleColorVec4(empty ? ImGuiCol_TextDisabled : ImGuiCol_Text));
  const std::string& shown_text = empty ? std::string(hint) : value;
  ImGui::RenderTextClipped(ImVec2(frame.Min.x + style.FramePadding.x, frame.Min.y + style.FramePadding.y),
                           ImVec2(frame.Max.x - style.FramePadding.x, frame.Max.y), shown_text.c_str(),
                           shown_text.c_str() + shown_text.size(), nullptr, ImVec2(0.0f, 0.0f), &frame);
  ImGui::PopStyleColor();
  if (label_size.x > 0.0f) {
    ImGui::RenderText(ImVec2(frame.Max.x + style.ItemInnerSpacing.x, frame.Min.y + style.FramePadding.y),
                      label, label_end);
  }
  const std::string name = label_end > label ? std::string(label, label_end) : std::string(hint);
  const bool inside = window->ClipRect.Contains(frame) && !covered(frame);
  const bool read_only = (ImGui::GetItemFlags() & ImGuiItemFlags_Disabled) != 0;
  platform::web_layer().fields.drawn.push_back({id, name, hint, value, frame.Min.x, frame.Min.y,
                                                frame.GetWidth(), frame.GetHeight(), inside, read_only});
  // the keyboard: the screen-reader mirror names the field, and Enter on it moves the focus into its <input>
  ImGuiTestEngineHook_ItemInfo(GImGui, id, name.c_str(), ImGuiItemStatusFlags_Inputable);
  if (ImGui::IsItemFocused()) {
    focused_value() = value;
    if (GImGui->NavActivateId == id) attn_js_focus_field(id);
  }
  return changed;
}

}  // namespace app

namespace platform {

void sync_text_fields() {
  TextFieldsState& fields = web_layer().fields;
  if (fields.drawn != fields.synced) {
    const ImGuiStyle& style = ImGui::GetStyle();
    attn_js_fields_begin(ImGui::GetFontSize(), style.FramePadding.x, style.FrameRounding);
    for (const TextFieldBox& f : fields.drawn) {
      attn_js_field(f.id, f.label.c_str(), f.hint.c_str(), f.value.c_str(), f.x, f.y, f.w, f.h,
                    (f.shown ? 1 : 0) | (f.read_only ? 2 : 0));
    }
    attn_js_fields_end();
    fields.synced = fields.drawn;
  }
  fields.drawn.clear();
}

}  // namespace platform

extern "C" {

// The page's <input> for field `id` now holds `text` (UTF-8), and Enter was pressed in it when `enter` is
// not 0: the field takes both in the next frame.
EMSCRIPTEN_KEEPALIVE void attn_field_input(unsigned id, const char* text, int enter) {
  std::string value = app::utf8_prefix(text ? text : "", app::kMaxTextBytes);
  platform::font_want_text(value);
  platform::TypedText* typed = platform::web_layer().fields.typed;
  platform::TypedText* slot = nullptr;  // this field's slot, else a free one, else the oldest
  for (platform::TypedText* t = typed; t != typed + 4; ++t) {
    if (t->id == id || (!slot && t->id == 0)) slot = t;
  }
  if (!slot) {
    std::move(typed + 1, typed + 4, typed);
    slot = &typed[3];
    *slot = platform::TypedText{};
  }
  slot->id = id;
  slot->value = std::move(value);
  slot->entered = slot->entered || enter != 0;
  platform::wake_for_input();
}

}  // extern "C"
