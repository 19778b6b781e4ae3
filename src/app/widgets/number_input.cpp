// Numeric settings' controls: sliders with - / + steppers, keys as in a web form, typed values, fine drags.
#include "app/widgets/number_input.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/logic/text.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/ui_state.hpp"
#include "app/widgets/widgets.hpp"

namespace app {
namespace {

constexpr float kFinePixels = 2.0f;       // a fine drag moves one step per this many CSS pixels
constexpr double kLongPressSec = 0.4;     // a finger held still this long starts a fine drag
constexpr float kMinSliderWidth = 60.0f;  // narrower, the steppers go

// Width of the two steppers after a control, with their spacing.
float steppers_width() {
  return 2.0f * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
}

// Whether a key moving a focused control was pressed this frame (with repeats).
bool pressed(ImGuiKey key) {
  return ImGui::IsKeyPressed(key, true);
}

// A tab stop (Tab lands on the control) does not open the typed entry of ImGui's sliders and number
// boxes; Enter or a typed digit does (typing_starts).
void no_typing_on_tab(ImGuiID id) {
  ImGuiContext& g = *GImGui;
  if (g.NavActivateId == id && (g.NavActivateFlags & ImGuiActivateFlags_FromTabbing)) g.NavActivateId = 0;
}

// The first character typed this frame is a digit or a minus sign: on a focused control it opens the typed
// entry, and what was typed replaces its text (given again first thing next frame, before any key still
// waiting, such as an Enter typed right after it: the entry ignores the characters of the frame it opens
// in).
void typing_starts(ImGuiID id) {
  ImGuiID& fresh = ui_state().numbers.fresh;
  ImGuiContext& g = *GImGui;
  if (fresh == id && ImGui::TempInputIsActive(id)) {
    if (ImGuiInputTextState* st = ImGui::GetInputTextState(id)) st->ClearText();
  }
  if (fresh == id) fresh = 0;
  ImVector<ImWchar>& typed = g.IO.InputQueueCharacters;
  if (g.NavId != id || g.ActiveId == id || typed.Size == 0) return;
  if (!((typed[0] >= '0' && typed[0] <= '9') || typed[0] == '-')) return;
  g.NavActivateId = id;
  g.NavActivateFlags = ImGuiActivateFlags_PreferInput;
  ImVector<ImGuiInputEvent> again;
  for (const ImWchar c : typed) {
    again.push_back(ImGuiInputEvent());
    ImGuiInputEvent& e = again.back();
    e.Type = ImGuiInputEventType_Text;
    e.Source = ImGuiInputSource_Keyboard;
    e.Text.Char = c;
  }
  // an Enter in the same frame (fast typing) comes again after them, released and pressed
  if (ImGui::IsKeyPressed(ImGuiKey_Enter, false)) {
    for (const bool down : {false, true, false}) {
      again.push_back(ImGuiInputEvent());
      ImGuiInputEvent& e = again.back();
      e.Type = ImGuiInputEventType_Key;
      e.Source = ImGuiInputSource_Keyboard;
      e.Key.Key = ImGuiKey_Enter;
      e.Key.Down = down;
      e.Key.AnalogValue = down ? 1.0f : 0.0f;
    }
  }
  for (ImGuiInputEvent& e : again) e.EventId = g.InputEventsNextEventId++;
  for (int i = again.Size; i-- > 0;) g.InputEventsQueue.push_front(again[i]);
  typed.resize(0);
  fresh = id;
}

// Arrows (one step), PageUp / PageDown (a tenth of the range), Home / End on the focused, inactive control:
// the new value, or `v` when none was pressed. The keys do not also move the keyboard focus.
int keyed_value(int v, int lo, int hi) {
  if (!ImGui::IsItemFocused() || ImGui::IsItemActive()) return v;
  const int page = std::max(1, (hi - lo) / 10);
  int next = v;
  if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_UpArrow)) next = v + 1;
  if (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_DownArrow)) next = v - 1;
  if (pressed(ImGuiKey_PageUp)) next = v + page;
  if (pressed(ImGuiKey_PageDown)) next = v - page;
  if (pressed(ImGuiKey_Home)) next = lo;
  if (pressed(ImGuiKey_End)) next = hi;
  if (next == v && !pressed(ImGuiKey_Home) && !pressed(ImGuiKey_End)) return v;
  ImGui::NavMoveRequestCancel();
  return std::clamp(next, lo, hi);
}

// The - and + buttons after a control, named for the screen reader "decrease NAME" and
// "increase NAME": -1, +1 or 0 for the one pressed.
int steppers(const char* name, bool can_down, bool can_up) {
  const float side = ImGui::GetFrameHeight(), gap = ImGui::GetStyle().ItemInnerSpacing.x;
  int step = 0;
  // held, they repeat; not tab stops (the control's own keys step it), as a number box's spin buttons
  ImGui::PushItemFlag(ImGuiItemFlags_ButtonRepeat, true);
  ImGui::PushItemFlag(ImGuiItemFlags_NoTabStop, true);
  ImGui::SameLine(0.0f, gap);
  ImGui::BeginDisabled(!can_down);
  if (ImGui::Button(("-##decrease " + std::string(name)).c_str(), ImVec2(side, side))) step = -1;
  mark_item(("decrease " + std::string(name)).c_str());
  ImGui::EndDisabled();
  ImGui::SameLine(0.0f, gap);
  ImGui::BeginDisabled(!can_up);
  if (ImGui::Button(("+##increase " + std::string(name)).c_str(), ImVec2(side, side))) step = 1;
  mark_item(("increase " + std::string(name)).c_str());
  ImGui::EndDisabled();
  ImGui::PopItemFlag();
  ImGui::PopItemFlag();
  return step;
}

// Where a control's label goes: after its steppers, or above it when that does not fit. Sets the control's
// width; the control is drawn with id "##" + label (the label is drawn apart, by label_after()).
struct Placed {
  std::string id;
  bool after = false;  // label_after() draws the label after the steppers
};
Placed place_label(const char* label, float extra) {
  const char* shown_end = ImGui::FindRenderedTextEnd(label);
  const float w = ImGui::CalcItemWidth();  // the width asked for with SetNextItemWidth, or the default
  const float label_w = shown_end != label
                            ? ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, shown_end).x
                            : 0.0f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const std::string id = shown_end != label ? "##" + std::string(label) : std::string(label);
  if (label_w > 0.0f && w + label_w > avail) {
    ImGui::TextUnformatted(label, shown_end);
    ImGui::SetNextItemWidth(std::max(kMinSliderWidth, avail - extra));
    return {id, false};
  }
  ImGui::SetNextItemWidth(std::max(kMinSliderWidth, w - extra));
  return {id, label_w > 0.0f};
}

void label_after(const Placed& p, const char* label) {
  if (!p.after) return;
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::TextUnformatted(label, ImGui::FindRenderedTextEnd(label));
}

// A control's name as its steppers say it: its label up to "##", or its id's words after "##".
std::string control_name(const char* label) {
  const char* end = ImGui::FindRenderedTextEnd(label);
  return end != label ? std::string(label, end) : std::string(label[0] == '#' ? label + 2 : label);
}

}  // namespace

bool slider_int(const char* label, int* v, int lo, int hi, const char* format, int flags) {
  if (!control_shown(v)) return false;
  const LockScope lock(v);
  NumberInputState& st = ui_state().numbers;
  int& held = st.held;
  bool& fine = st.fine;
  int& fine_v = st.fine_v;
  float& fine_x = st.fine_x;
  const int before = *v;
  const Placed placed = place_label(label, steppers_width());
  const ImGuiID item = ImGui::GetID(placed.id.c_str());
  no_typing_on_tab(item);
  typing_starts(item);
  bool changed = ImGui::SliderInt(placed.id.c_str(), v, lo, hi, format, flags);
  const ImGuiLastItemData control = GImGui->LastItemData;  // the caller's last item: the slider
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemActivated()) held = before, fine = false;
  const float slack = ImGui::GetStyle().TouchExtraPadding.x + 6.0f;  // a finger's slack, CSS pixels
  const bool touch = io.MouseSource == ImGuiMouseSource_TouchScreen;
  const bool still = io.MouseDragMaxDistanceSqr[0] < slack * slack;
  if (ImGui::IsItemActive() && io.MouseDown[0]) {
    // Shift, or a finger held still before it moves: one step per kFinePixels from where it began
    const bool want_fine = io.KeyShift || (touch && still && io.MouseDownDuration[0] >= kLongPressSec);
    if (want_fine && !fine) fine = true, fine_v = still ? held : before, fine_x = io.MousePos.x;
    if (fine && !io.KeyShift && !touch) fine = false;
    if (fine) {
      *v = std::clamp(fine_v + static_cast<int>(std::lround((io.MousePos.x - fine_x) / kFinePixels)), lo, hi);
    } else if (touch && still) {
      *v = held;  // the finger has not moved yet: the value stays
    }
    changed = *v != before;
  }
  const int keyed = keyed_value(*v, lo, hi);
  const bool focused = ImGui::IsItemFocused();
  const int step = steppers(control_name(label).c_str(), *v > lo, *v < hi);
  label_after(placed, label);
  const int next = std::clamp(keyed + step, lo, hi);
  if (next != *v) *v = next, changed = true;
  if (focused) focused_value() = std::to_string(*v);
  GImGui->LastItemData = control;
  return changed;
}

bool input_int(const char* label, int* v, int lo, int hi, int step) {
  if (!control_shown(v)) return false;
  const LockScope lock(v);
  const int before = *v;
  const Placed placed = place_label(label, steppers_width());
  no_typing_on_tab(ImGui::GetID(placed.id.c_str()));
  ImGui::InputInt(placed.id.c_str(), v, 0, 0);
  if (ImGui::IsItemFocused()) focused_value() = std::to_string(*v);
  const ImGuiLastItemData control = GImGui->LastItemData;
  const int s = steppers(control_name(label).c_str(), *v > lo, *v < hi);
  label_after(placed, label);
  GImGui->LastItemData = control;
  *v = std::clamp(*v + s * step, lo, hi);
  return *v != before;
}

bool input_number(const char* label, double* v, double lo, double hi, double factor, const char* format) {
  if (!control_shown(v)) return false;
  const LockScope lock(v);
  const double before = *v;
  const Placed placed = place_label(label, steppers_width());
  no_typing_on_tab(ImGui::GetID(placed.id.c_str()));
  ImGui::InputDouble(placed.id.c_str(), v, 0.0, 0.0, format);
  if (ImGui::IsItemFocused()) focused_value() = spoken_number(*v);
  const ImGuiLastItemData control = GImGui->LastItemData;
  const int s = steppers(control_name(label).c_str(), *v > lo, *v < hi);
  label_after(placed, label);
  GImGui->LastItemData = control;
  if (s != 0) *v = s > 0 ? *v * factor : *v / factor;
  *v = std::clamp(std::isfinite(*v) ? *v : before, lo, hi);
  return *v != before;
}

}  // namespace app
