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
#include "font.hpp"
#include "frames_web.hpp"
#include "imgui_hooks.hpp"
#include "text_fields.hpp"

// clang-format off

// The page's <input class="field"> elements follow the fields of the last frame: js_fields_begin, js_field
// for each field (its rectangle in CSS pixels; the canvas is at the page's top left), js_fields_end (which
// removes the inputs of fields no longer drawn). The learner's edits go to attn_field_input (a long text
// after a pause in typing); during an IME composition or that pause nothing is sent (the composed text
// arrives at compositionend) and the app's value does not overwrite the input.
EM_JS(void, js_fields_begin, (float px, float pad, float radius), {
  Module.attnFieldStyle = {px: px, pad: pad, radius: radius};
  Module.attnFieldsSeen = {};
});

EM_JS(void, js_field, (unsigned id, const char* label_utf8, const char* hint_utf8, const char* value_utf8,
                       float x, float y, float w, float h, int shown), {  // shown: 1 visible, 2 read-only
  var box = Module.attnFieldBox;
  if (!box) {
    box = Module.attnFieldBox = document.createElement("div");
    box.id = "fields";
    (document.getElementById("app") || document.body).appendChild(box);  // inside the page's <main>
  }
  var els = Module.attnFields || (Module.attnFields = {});
  var el = els[id];
  if (!el) {
    el = els[id] = document.createElement("input");
    el.type = "text";
    el.className = "field";
    el.dir = "auto";
    el.autocomplete = "off";
    el.tabIndex = -1;  // Tab reaches the field in the canvas, which hands its keys to this input
    el.setAttribute("enterkeyhint", "done");
    var send = function(enter) {
      clearTimeout(el.wait);
      el.wait = 0;
      el.classList.remove("pending");
      var n = lengthBytesUTF8(el.value) + 1, p = _malloc(n);
      if (!p) return;
      stringToUTF8(el.value, p, n);
      _attn_field_input(id, p, enter ? 1 : 0);
      _free(p);
    };
    // a long text (every keystroke a long recompute) goes to the app after a 300 ms pause in typing; the
    // input shows it is waiting (class "pending")
    el.addEventListener("input", function(e) {
      if (e.isComposing) return;
      if (el.value.length < 2000) return send(false);
      clearTimeout(el.wait);
      el.classList.add("pending");
      el.wait = setTimeout(send, 300, false);
    });
    el.addEventListener("compositionstart", function() { el.composing = true; });
    el.addEventListener("compositionend", function() { el.composing = false; send(false); });
    el.addEventListener("keydown", function(e) {
      if (e.key === "Enter" && !e.isComposing) send(true);
      if (e.key === "Escape") document.getElementById("canvas").focus();  // keys go back to the app
      // Tab goes on to the app's next control (Shift+Tab: the one before), as in a form
      if (e.key === "Tab" && !e.ctrlKey && !e.altKey && !e.isComposing && _attn_focus(e.shiftKey ? 4 : 3, id)) {
        e.preventDefault();
        document.getElementById("canvas").focus({preventScroll: true});
      }
    });
    // the wheel over a field scrolls the app's panel under it
    el.addEventListener("wheel", function(e) {
      e.preventDefault();
      document.getElementById("canvas").dispatchEvent(new WheelEvent("wheel", e));
    }, {passive: false});
    box.appendChild(el);
  }
  Module.attnFieldsSeen[id] = 1;
  var value = UTF8ToString(value_utf8), st = Module.attnFieldStyle, s = el.style;
  if (el.value !== value && !el.composing && !el.wait) el.value = value;
  el.placeholder = UTF8ToString(hint_utf8);
  el.setAttribute("aria-label", UTF8ToString(label_utf8));
  el.maxLength = 100000;
  s.left = x + "px";
  s.top = y + "px";
  s.width = w + "px";
  s.height = h + "px";
  s.fontSize = st.px + "px";
  s.padding = "0 " + st.pad + "px";
  s.borderRadius = st.radius + "px";
  el.readOnly = (shown & 2) !== 0;  // a locked setting: shown, not editable
  el.hidden = !(shown & 1) && document.activeElement !== el;  // never taken away while the learner types
});

// Enter on a field the keyboard reached in the canvas: typing goes on in its <input> (Escape returns).
EM_JS(void, js_focus_field, (unsigned id), {
  var el = Module.attnFields && Module.attnFields[id];
  if (el && !el.hidden) el.focus({preventScroll: true});
});

EM_JS(void, js_fields_end, (), {
  var els = Module.attnFields || {};
  for (var id in els) {
    if (!Module.attnFieldsSeen[id]) {
      els[id].remove();
      delete els[id];
    }
  }
});

// clang-format on

namespace {

struct Field {
  ImGuiID id;
  std::string label, hint, value;
  float x, y, w, h;
  bool shown;      // wholly inside its panel's visible part and under no tooltip or popup
  bool read_only;  // a lesson locks the setting it edits (drawn disabled)
  bool operator==(const Field& o) const {
    return id == o.id && label == o.label && hint == o.hint && value == o.value && x == o.x && y == o.y &&
           w == o.w && h == o.h && shown == o.shown && read_only == o.read_only;
  }
};

std::vector<Field> g_fields, g_synced;  // drawn since the last sync; what the page has
// The page's edits not yet taken by their field (id 0: a free slot). Edits come from the focused input,
// one field at a time; a full table drops the oldest.
struct Typed {
  ImGuiID id = 0;
  std::string value;
  bool entered = false;
};
Typed g_typed[4];

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
  for (Typed& t : g_typed) {
    if (t.id != id) continue;
    changed = t.value != value;
    value = std::move(t.value);
    if (entered) *entered = t.entered;
    t = Typed{};
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
  g_fields.push_back({id, name, hint, value, frame.Min.x, frame.Min.y, frame.GetWidth(), frame.GetHeight(),
                      inside, read_only});
  // the keyboard: the screen-reader mirror names the field, and Enter on it moves the focus into its <input>
  ImGuiTestEngineHook_ItemInfo(GImGui, id, name.c_str(), ImGuiItemStatusFlags_Inputable);
  if (ImGui::IsItemFocused()) {
    platform::focused_value() = value;
    if (GImGui->NavActivateId == id) js_focus_field(id);
  }
  return changed;
}

}  // namespace app

namespace platform {

void sync_text_fields() {
  if (g_fields != g_synced) {
    const ImGuiStyle& style = ImGui::GetStyle();
    js_fields_begin(ImGui::GetFontSize(), style.FramePadding.x, style.FrameRounding);
    for (const Field& f : g_fields) {
      js_field(f.id, f.label.c_str(), f.hint.c_str(), f.value.c_str(), f.x, f.y, f.w, f.h,
               (f.shown ? 1 : 0) | (f.read_only ? 2 : 0));
    }
    js_fields_end();
    g_synced = g_fields;
  }
  g_fields.clear();
}

}  // namespace platform

extern "C" {

// The page's <input> for field `id` now holds `text` (UTF-8), and Enter was pressed in it when `enter` is
// not 0: the field takes both in the next frame.
EMSCRIPTEN_KEEPALIVE void attn_field_input(unsigned id, const char* text, int enter) {
  std::string value = app::utf8_prefix(text ? text : "", app::kMaxTextBytes);
  platform::font_want_text(value);
  Typed* slot = nullptr;  // this field's slot, else a free one, else the oldest
  for (Typed& t : g_typed) {
    if (t.id == id || (!slot && t.id == 0)) slot = &t;
  }
  if (!slot) {
    std::move(g_typed + 1, g_typed + 4, g_typed);
    slot = &g_typed[3];
    *slot = Typed{};
  }
  slot->id = id;
  slot->value = std::move(value);
  slot->entered = slot->entered || enter != 0;
  platform::wake_for_input();
}

}  // extern "C"
