// The app's two looks, dark and light: ImGui's colours and the app's own inks, chosen so that every text
// ink reads at least 4.5:1 against the window (WCAG 2.2 AA) and every drawn line at least 3:1.
#pragma once

#include <imgui.h>

#include <vector>

namespace app {

// Roles of the colours the scenes draw with (each has a dark and a light value).
enum class Ink {
  Note,      // text: a yellow note (dark) / brown (light)
  Error,     // text: what went wrong
  Right,     // text and bars: a right answer, a good result
  Wrong,     // text: not quite, a warning
  Info,      // text: the scene's instruction
  Blue,      // text and lines: the first position, a series
  Orange,    // text and lines: the second position, skips, a series
  Magenta,   // lines: a series
  Grey,      // lines: a neutral series, axes
  Face,      // the clock's face
  FaceEdge,  // the clock's rim and ticks
  Dot,       // the clock's centre
  PlotBg,    // a plot's background
  PlotGrid,  // a plot's grid lines
  PlotText,  // a plot's tick labels (text on PlotBg)
  Flow,      // the encoder diagram's arrows
  Cursor,    // a plot's hover line
  Count
};

ImVec4 ink(Ink role);
ImU32 ink_u32(Ink role);

// Makes the look current (ImGui's style and the inks) when it differs from the one in use. With reduced
// motion, ImGui's text cursor does not blink.
void apply_theme(bool dark, bool reduced_motion);
bool theme_is_dark();

// The look in use (held by the UiState).
struct ThemeState {
  int look = -1;       // 1 dark, 0 light, -1 none yet
  bool still = false;  // reduced motion: the text cursor does not blink
};

// For the contrast test: WCAG's contrast ratio of two opaque colours (1 to 21), and each text ink of a look
// with the background it is drawn on.
double contrast_ratio(const ImVec4& a, const ImVec4& b);
struct InkOnBackground {
  const char* name;
  ImVec4 text, background;
  double least;  // the ratio it must reach: 4.5 for text, 3 for lines and shapes
};
std::vector<InkOnBackground> theme_pairs(bool dark);

}  // namespace app
