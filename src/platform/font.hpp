// The app's one font, in Dear ImGui's atlas: on the desktop DejaVu Sans, subset at build time and embedded
// (font.cpp); in the browser the page's sans-serif, each glyph drawn by the browser (font_web.cpp).
#pragma once

#include <string>
#include <string_view>

namespace platform {

// Base text size in CSS pixels (ImGui coordinates).
inline constexpr float kFontSize = 16.0f;

// (Re)builds ImGui's atlas (io.Fonts, its TexPixelsAlpha8 filled, never through ImFontAtlas::Build() in the
// browser), rasterised at kFontSize x pixel_ratio physical pixels and drawn at 1 / pixel_ratio, so text is
// crisp on high-DPI screens while layout stays in CSS pixels. Desktop: Basic Latin, Latin-1, Latin
// Extended-A, General Punctuation (curly quotes) and the rupee sign; the browser adds Greek, super- and
// subscripts, arrows and mathematical operators, and any code point font_want_text() saw. Call before the
// first frame, or between frames when the pixel ratio changed (then also rebuild the renderer's font
// texture). Returns false if the font could not be loaded (desktop: ImGui's built-in font is used
// instead); in the browser the atlas comes later (below). `scale` is the text size times the default
// (font_scale=): pass pixel_ratio = device ratio x scale, and the glyphs are as sharp as ever at scale times
// the size.
bool load_font(float pixel_ratio, float scale = 1.0f);

// Browser only (font_web.cpp): there load_font() asks the page for the atlas (web/font_atlas.js draws it in
// slices of a few milliseconds) and returns at once; font_update(), called between frames, installs the
// answer when it has come and returns whether it did (then the renderer's font texture must be rebuilt);
// font_ready() says whether an atlas was ever installed (no frame before it), font_pending() whether one is
// on the way. Glyphs on demand: font_want_text() notes the code points of text the learner brings (typed,
// set() from the page, the URL, a model file) that the atlas lacks (at most 2048, BMP only); font_update()
// asks for them in a new atlas. font_state_json() describes the font for attentionDemo.state(): source,
// family, sizes, glyph count, atlas size, and the slices the last atlas was drawn in.
void font_want_text(std::string_view utf8);
bool font_update();
bool font_ready();
bool font_pending();
std::string font_state_json();

}  // namespace platform
