// Small ImGui helpers shared by the scenes.
#include "app/widgets/widgets.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "app/logic/text.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/ui_state.hpp"

namespace app {

std::vector<std::string>& frame_texts() {
  return ui_state().out.texts;
}

std::vector<NamedRect>& frame_rects() {
  return ui_state().out.rects;
}

void request_next_frame() {
  ui_state().out.next_frame = true;
}

void mark_item(const char* name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  frame_rects().push_back({name, a.x, a.y, b.x - a.x, b.y - a.y});
}

void chain_wheel_at_end() {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float wheel = ImGui::GetIO().MouseWheel;
  if (wheel == 0.0f || ImGui::GetIO().KeyCtrl || !ImGui::IsWindowHovered()) return;
  const bool at_end = wheel < 0.0f ? w->Scroll.y >= w->ScrollMax.y - 0.5f : w->Scroll.y <= 0.5f;
  ImGuiWindow* p = w->ParentWindow;
  if (!at_end || p == nullptr || p->ScrollMax.y <= 0.0f) return;
  // ImGui's own step for the parent: five lines, at most two thirds of its height
  const float step = std::floor(std::min(5.0f * p->CalcFontSize(), p->InnerRect.GetHeight() * 0.67f));
  ImGui::SetScrollY(p, std::clamp(p->Scroll.y - wheel * step, 0.0f, p->ScrollMax.y));
}

void mark_window(const char* name) {
  const ImVec2 a = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  frame_rects().push_back({name, a.x, a.y, size.x, size.y});
}

float tooltip_wrap_width() {
  const float margin = 2.0f * ImGui::GetStyle().WindowPadding.x + 16.0f;
  return std::min(ImGui::GetFontSize() * 30.0f, ImGui::GetMainViewport()->WorkSize.x - margin);
}

bool narrow_screen() {
  return ImGui::GetMainViewport()->WorkSize.x < kNarrowWidth;
}

void set_frame_settings(const Settings& s) {
  FrameSettings& f = ui_state().frame;
  f.figure = figure_view(s);
  f.scene = s.scene;
  f.locked.clear();
  if (s.lock.empty()) return;  // most frames: no lesson locks anything
  for (const ParamInfo& p : param_table()) {
    if (locked(s, p.name)) f.locked.push_back(setting_address(s, p.name));
  }
}

bool setting_locked(const void* value) {
  for (const void* p : ui_state().frame.locked) {
    if (p != nullptr && p == value) return true;
  }
  return false;
}

bool control_shown(const void* value) {
  return !(ui_state().frame.figure && setting_locked(value));
}

bool figure_mode() {
  return ui_state().frame.figure;
}

LockScope::LockScope(const void* value) : locked_(setting_locked(value)) {
  if (locked_) ImGui::BeginDisabled();
}

LockScope::~LockScope() {
  if (!locked_) return;
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Fixed by this lesson");
}

bool begin_combo(const char* label, const char* preview) {
  const bool open = ImGui::BeginCombo(label, preview);
  if (!open && ImGui::IsItemFocused()) {
    // ImGui's combo tells the item hooks no label: the screen reader says its name and choice
    ImGuiTestEngineHook_ItemInfo(GImGui, ImGui::GetItemID(), label, ImGuiItemStatusFlags_None);
    focused_value() = preview;
  }
  return open;
}

float buttons_width(std::initializer_list<const char*> labels) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float w = 0.0f;
  for (const char* l : labels)
    w += (w > 0.0f ? style.ItemSpacing.x : 0.0f) + ImGui::CalcTextSize(l).x + 2.0f * style.FramePadding.x;
  return w;
}

void same_line_if_fits(float width, const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float label_w = label ? style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x : 0.0f;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width + label_w <= right) ImGui::SameLine();
}

namespace {

// Lines of `text` at most `width` wide in the current font, broken at spaces.
std::vector<std::string> lines_within(std::string_view text, float width) {
  const ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  return wrap_lines(text, width, [font, size](std::string_view t) {
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, t.data(), t.data() + t.size()).x;
  });
}

}  // namespace

namespace {

void draw_paragraph(const std::string& text) {
  frame_texts().push_back(text);
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  // The same width ImGui::TextWrapped uses: up to the pushed wrap position, else the content edge.
  const float wrap_x = window->DC.TextWrapPos >= 0.0f ? window->DC.TextWrapPos : 0.0f;
  const float width = ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_x);
  ImGui::BeginGroup();
  for (const std::string& line : lines_within(text, width)) ImGui::TextUnformatted(line.c_str());
  ImGui::EndGroup();
}

}  // namespace

void paragraph(const std::string& text) {
  // the figure view has no paragraphs; tooltips, errors and notes keep theirs
  if (ui_state().frame.figure && (ImGui::GetCurrentWindow()->Flags & ImGuiWindowFlags_Tooltip) == 0) return;
  draw_paragraph(text);
}

void caption_paragraph(const std::string& text) {
  draw_paragraph(text);
}

std::string wrap_label(const std::string& text, float width) {
  std::string out;
  for (const std::string& line : lines_within(text, width)) out += (out.empty() ? "" : "\n") + line;
  return out;
}

namespace {

// A printf-style paragraph in `color`.
void colored_paragraph(const ImVec4& color, const char* fmt, va_list args) {
  const std::string text = vformat(fmt, args);
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  paragraph(text);
  ImGui::PopStyleColor();
}

}  // namespace

void text_wrapped(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  colored_paragraph(ImGui::GetStyleColorVec4(ImGuiCol_Text), fmt, args);
  va_end(args);
}

void text_wrapped_colored(const ImVec4& color, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  colored_paragraph(color, fmt, args);
  va_end(args);
}

void text_wrapped_disabled(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  colored_paragraph(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), fmt, args);
  va_end(args);
}

void help_marker(const char* text) {
  same_line_if_fits(ImGui::CalcTextSize("(?)").x);
  ImGui::TextDisabled("(?)");
  if (ImGui::BeginItemTooltip()) {
    ImGui::PushTextWrapPos(tooltip_wrap_width());
    paragraph(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

std::vector<std::string>& frame_messages() {
  return ui_state().out.messages;
}

void error_box(const std::string& message) {
  frame_messages().push_back(message);
  ImGui::PushStyleColor(ImGuiCol_Text, ink(Ink::Error));
  draw_paragraph(message);
  ImGui::PopStyleColor();
}

void note_box(const std::string& message) {
  frame_messages().push_back(message);
  ImGui::PushStyleColor(ImGuiCol_Text, ink(Ink::Note));
  draw_paragraph(message);
  ImGui::PopStyleColor();
}

bool section(const char* title, const char* hide_name, const std::string& hide_list) {
  for (const std::string& item : split_list(hide_list, ',')) {
    if (item == hide_name) return false;
  }
  if (ui_state().frame.figure && !figure_section(ui_state().frame.scene, hide_name)) return false;
  const bool open = ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen);
  mark_item((std::string("section/") + hide_name).c_str());
  return open;
}

std::string format_row(const attn::RowVec& v, int decimals) {
  std::string out;
  char buf[64];
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.*f", decimals, static_cast<double>(v(i)));
    out += (i ? ", " : "") + std::string(buf);
  }
  return out;
}

void value_bars(const char* id, const attn::RowVec& v, float limit, float height) {
  ImGui::PushID(id);
  const float width = ImGui::GetContentRegionAvail().x;
  const float bar = v.size() > 0 ? std::min(40.0f, width / static_cast<float>(v.size())) : 0.0f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float mid = p.y + height * 0.5f;
  dl->AddLine(ImVec2(p.x, mid), ImVec2(p.x + bar * static_cast<float>(v.size()), mid), ink_u32(Ink::Grey));
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const float h = std::max(-1.0f, std::min(1.0f, v(i) / limit)) * height * 0.5f;
    const float x0 = p.x + bar * static_cast<float>(i) + 2.0f, x1 = x0 + bar - 4.0f;
    const ImU32 col = v(i) >= 0 ? ink_u32(Ink::Blue) : ink_u32(Ink::Orange);
    dl->AddRectFilled(ImVec2(x0, std::min(mid, mid - h)), ImVec2(x1, std::max(mid, mid - h)), col);
  }
  ImGui::Dummy(ImVec2(bar * static_cast<float>(v.size()), height));
  ImGui::PopID();
}

gfx::Colormap sequential_colormap(const Settings& s) {
  return s.colormap == Palette::Cividis ? gfx::Colormap::Cividis : gfx::Colormap::Viridis;
}

std::vector<std::string> index_labels(const std::vector<int>& indices) {
  std::vector<std::string> out;
  out.reserve(indices.size());
  for (int i : indices) out.push_back(std::to_string(i));
  return out;
}

std::vector<std::string> index_labels(int count) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(std::to_string(i));
  return out;
}

}  // namespace app
