// The app's one font: DejaVu Sans, subset at build time and embedded, loaded into Dear ImGui.
#pragma once

namespace platform {

// Base text size in CSS pixels (ImGui coordinates).
inline constexpr float kFontSize = 16.0f;

// (Re)loads the embedded font into ImGui's atlas, rasterised at kFontSize x pixel_ratio physical
// pixels and drawn at 1 / pixel_ratio, so text is crisp on high-DPI screens while layout stays in CSS
// pixels. Covers Basic Latin, Latin-1, Latin Extended-A, Greek, General Punctuation (curly quotes),
// the rupee sign, arrows and common maths signs. Call before the first frame, or between frames when
// the pixel ratio changed (then also rebuild the renderer's font texture). Returns false if the
// embedded font could not be loaded (ImGui's built-in font is used instead).
bool load_font(float pixel_ratio);

// The ratio load_font() last used (1 before the first call).
float font_pixel_ratio();

}  // namespace platform
