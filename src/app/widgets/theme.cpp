// Dark and light looks: ImGui's style colours with text that keeps its contrast, and the scenes' inks.
#include "app/widgets/theme.hpp"

#include <cmath>

#include "app/widgets/ui_state.hpp"

namespace app {
namespace {

struct Pair {
  ImVec4 dark, light;
};

constexpr ImVec4 rgb(int r, int g, int b, int a = 255) {
  return ImVec4(static_cast<float>(r) / 255.0f, static_cast<float>(g) / 255.0f,
                static_cast<float>(b) / 255.0f, static_cast<float>(a) / 255.0f);
}

// (Ink::Count,) in Ink's order
const Pair kInks[] = {
    {rgb(255, 204, 77), rgb(140, 90, 0)},         // Note
    {rgb(255, 115, 115), rgb(180, 25, 25)},       // Error
    {rgb(102, 230, 102), rgb(25, 115, 25)},       // Right
    {rgb(255, 153, 77), rgb(166, 77, 0)},         // Wrong
    {rgb(140, 199, 255), rgb(13, 77, 166)},       // Info
    {rgb(120, 200, 255), rgb(20, 100, 200)},      // Blue
    {rgb(240, 150, 60), rgb(170, 80, 0)},         // Orange
    {rgb(220, 100, 200), rgb(170, 40, 150)},      // Magenta
    {rgb(170, 170, 170), rgb(110, 110, 110)},     // Grey
    {rgb(40, 44, 52), rgb(255, 255, 255)},        // Face
    {rgb(150, 150, 160), rgb(110, 110, 120)},     // FaceEdge
    {rgb(230, 230, 230), rgb(40, 40, 40)},        // Dot
    {rgb(30, 30, 36), rgb(255, 255, 255)},        // PlotBg
    {rgb(70, 70, 80), rgb(205, 205, 212)},        // PlotGrid
    {rgb(170, 170, 170), rgb(80, 80, 80)},        // PlotText
    {rgb(200, 200, 210), rgb(90, 90, 100)},       // Flow
    {rgb(255, 255, 255, 120), rgb(0, 0, 0, 120)}  // Cursor
};
static_assert(sizeof kInks / sizeof kInks[0] == static_cast<size_t>(Ink::Count), "one pair per ink");

// ImGui's own look, with the greyed text darkened on light (ImGui's 0.6 grey reads 2.5:1 there).
void style_colors(bool dark, ImGuiStyle& style) {
  if (dark) {
    ImGui::StyleColorsDark(&style);
  } else {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_TextDisabled] = rgb(92, 92, 92);
    style.Colors[ImGuiCol_WindowBg] = rgb(246, 246, 246);
  }
  style.Colors[ImGuiCol_NavHighlight] = dark ? rgb(120, 200, 255) : rgb(13, 77, 166);  // the focus ring
}

double channel(float c) {
  const double v = c;
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

double luminance(const ImVec4& c) {
  return 0.2126 * channel(c.x) + 0.7152 * channel(c.y) + 0.0722 * channel(c.z);
}

}  // namespace

ImVec4 ink(Ink role) {
  const Pair& p = kInks[static_cast<size_t>(role)];
  return ui_state().theme.look == 0 ? p.light : p.dark;
}

ImU32 ink_u32(Ink role) {
  return ImGui::ColorConvertFloat4ToU32(ink(role));
}

void apply_theme(bool dark, bool reduced_motion) {
  if (reduced_motion != ui_state().theme.still) {
    ui_state().theme.still = reduced_motion;
    ImGui::GetIO().ConfigInputTextCursorBlink = !reduced_motion;
  }
  if (ui_state().theme.look == (dark ? 1 : 0)) return;
  ui_state().theme.look = dark ? 1 : 0;
  style_colors(dark, ImGui::GetStyle());
}

bool theme_is_dark() {
  return ui_state().theme.look != 0;
}

double contrast_ratio(const ImVec4& a, const ImVec4& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

std::vector<InkOnBackground> theme_pairs(bool dark) {
  ImGuiStyle style;
  style_colors(dark, style);
  const ImVec4 window = style.Colors[ImGuiCol_WindowBg], frame = style.Colors[ImGuiCol_FrameBg];
  auto pick = [dark](Ink i) {
    const Pair& p = kInks[static_cast<size_t>(i)];
    return dark ? p.dark : p.light;
  };
  // a translucent colour as it shows over the window
  auto over = [&](ImVec4 c) {
    return ImVec4(c.x * c.w + window.x * (1 - c.w), c.y * c.w + window.y * (1 - c.w),
                  c.z * c.w + window.z * (1 - c.w), 1.0f);
  };
  std::vector<InkOnBackground> v = {
      {"text", style.Colors[ImGuiCol_Text], over(window), 4.5},
      {"greyed text", style.Colors[ImGuiCol_TextDisabled], over(window), 4.5},
      {"text in a field", style.Colors[ImGuiCol_Text], over(frame), 4.5},
      {"text on a button", style.Colors[ImGuiCol_Text], over(style.Colors[ImGuiCol_Button]), 4.5},
      {"focus ring", style.Colors[ImGuiCol_NavHighlight], over(window), 3.0},
      {"plot labels", pick(Ink::PlotText), pick(Ink::PlotBg), 4.5},
      {"clock rim", pick(Ink::FaceEdge), pick(Ink::Face), 3.0},
      {"clock centre", pick(Ink::Dot), pick(Ink::Face), 3.0},
      {"blue hand", pick(Ink::Blue), pick(Ink::Face), 3.0},
      {"orange hand", pick(Ink::Orange), pick(Ink::Face), 3.0},
  };
  const Ink text_inks[] = {Ink::Note, Ink::Error, Ink::Right, Ink::Wrong, Ink::Info, Ink::Blue, Ink::Orange};
  const char* names[] = {"note", "error", "right", "wrong", "instruction", "blue text", "orange text"};
  for (size_t i = 0; i < sizeof text_inks / sizeof text_inks[0]; ++i)
    v.push_back({names[i], pick(text_inks[i]), over(window), 4.5});
  const Ink lines[] = {Ink::Blue, Ink::Orange, Ink::Magenta, Ink::Grey, Ink::Right};
  for (const Ink i : lines) v.push_back({"a series on a plot", pick(i), pick(Ink::PlotBg), 3.0});
  v.push_back({"diagram arrows", pick(Ink::Flow), over(window), 3.0});
  return v;
}

}  // namespace app
