// Browser font atlas: the browser draws every glyph (web/font_atlas.js: Canvas 2D, in slices of a few ms) and
// this makes Dear ImGui's atlas of the answer, so the wasm carries no font file and no rasteriser; code
// points the learner brings are added on demand.
#include <emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "bridge_web.hpp"
#include "font.hpp"
#include "imgui.h"
#include "imgui_internal.h"  // ImFontAtlasBuildInit/SetupFont/Finish: ImGui's own atlas steps
#include "web_layer.hpp"

namespace platform {
namespace {

// The page's sans-serif stack; headless Debian Chromium (fonts-dejavu-core) draws DejaVu Sans, like desktop.
constexpr const char* kFamily = R"("DejaVu Sans", "Noto Sans", system-ui, sans-serif)";

// Always in the atlas (first, last; inclusive): the desktop font's ranges plus Greek, all of the
// super/subscripts, arrows and mathematical operators.
constexpr ImWchar kBaseRanges[][2] = {
    {0x0020, 0x007E},  // Basic Latin
    {0x00A0, 0x00FF},  // Latin-1 Supplement (accents, times sign, middle dot)
    {0x0100, 0x017F},  // Latin Extended-A
    {0x0370, 0x03FF},  // Greek and Coptic
    {0x1D40, 0x1D40},  // modifier letter capital T (K with superscript T: transposed)
    {0x2000, 0x206F},  // General Punctuation (curly quotes, dashes, ellipsis)
    {0x2070, 0x209F},  // Superscripts and Subscripts
    {0x20B9, 0x20B9},  // Indian rupee sign
    {0x2190, 0x21FF},  // Arrows
    {0x2200, 0x22FF},  // Mathematical Operators
    {0xFFFD, 0xFFFD},  // replacement character
};

// Code points added on demand at most (beyond them, new ones show as U+FFFD): bounds the atlas' size.
constexpr int kMaxExtra = 2048;

// The font's state (the layer's, main_web.cpp).
WebFontState& fstate() {
  return web_layer().font;
}

// ImGui's own rectangles in an atlas (white pixel and cursors, lines) as width, height pairs.
std::vector<int> imgui_rects() {
  ImFontAtlas scratch;
  ImFontAtlasBuildInit(&scratch);
  std::vector<int> sizes;
  for (const ImFontAtlasCustomRect& r : scratch.CustomRects) sizes.insert(sizes.end(), {r.Width, r.Height});
  return sizes;
}

// Clears `atlas` and fills it with the answer to the request `q` (its sizes: whether the browser drew it, the
// number of ints of its places, its width and height). If the browser could not draw (no 2D canvas), the font
// holds an invisible space only, so ImGui still runs. Either way the atlas is complete (ImGui's white pixel,
// cursors and lines; TexReady).
bool build_atlas(ImFontAtlas* atlas, const FontRequest& q, const int* sizes) {
  atlas->Clear();
  // 1. one font, one config (no font data: nothing here reads any)
  ImFontConfig cfg;
  cfg.SizePixels = q.px;
  cfg.OversampleH = cfg.OversampleV = 1;
  cfg.PixelSnapH = q.ratio == std::floor(q.ratio);
  cfg.FontDataOwnedByAtlas = false;
  std::snprintf(cfg.Name, sizeof(cfg.Name), "browser sans-serif, %dpx", static_cast<int>(q.px));
  ImFont* font = IM_NEW(ImFont);
  atlas->Fonts.push_back(font);
  cfg.DstFont = font;
  atlas->ConfigData.push_back(cfg);
  ImFontAtlasUpdateConfigDataPointers(atlas);
  ImFontAtlasBuildInit(atlas);  // rounds SizePixels; registers the white pixel / cursors and line rectangles
  ImFontConfig& c = atlas->ConfigData[0];

  // 2. the answer: [ascent, descent, CSS px] then each code point's advance; its ink box; the places
  const int customs = atlas->CustomRects.Size;
  const bool drawn = sizes[0] >= 1 && sizes[1] >= 2 * customs && sizes[2] > 0 && sizes[3] > 0;
  std::vector<ImWchar> codes = drawn ? q.codes : std::vector<ImWchar>{static_cast<ImWchar>(' ')};
  const size_t n = codes.size();
  std::vector<float> m(3 + n);
  std::vector<int> box(4 * n), at(drawn ? static_cast<size_t>(sizes[1]) : 2 * static_cast<size_t>(customs));
  int tex_w = 512, tex_h = 1;
  if (drawn) {
    tex_w = sizes[2];
    tex_h = sizes[3];
  } else {  // ImGui's rectangles one below the other; a space without ink
    m = {0.8f * c.SizePixels, 0.2f * c.SizePixels, 0.0f, 0.25f * c.SizePixels};
    for (int i = 0; i < customs; ++i) {
      at[2 * static_cast<size_t>(i)] = 1;
      at[2 * static_cast<size_t>(i) + 1] = tex_h;
      tex_h += atlas->CustomRects[i].Height + 1;
    }
  }
  atlas->TexWidth = tex_w;
  atlas->TexHeight = tex_h;
  atlas->TexUvScale = ImVec2(1.0f / static_cast<float>(tex_w), 1.0f / static_cast<float>(tex_h));
  const size_t bytes = static_cast<size_t>(tex_w) * static_cast<size_t>(tex_h);
  atlas->TexPixelsAlpha8 = static_cast<unsigned char*>(IM_ALLOC(bytes));
  std::memset(atlas->TexPixelsAlpha8, 0, bytes);
  if (drawn) attn_js_font_take(m.data(), box.data(), at.data(), atlas->TexPixelsAlpha8);
  fstate().css_px = m[2];
  for (int i = 0; i < customs; ++i) {
    atlas->CustomRects[i].X = static_cast<unsigned short>(at[2 * static_cast<size_t>(i)]);
    atlas->CustomRects[i].Y = static_cast<unsigned short>(at[2 * static_cast<size_t>(i) + 1]);
  }

  // 3. the glyphs, in ImGui's layout: y from the line's top, the baseline at round(ascent)
  const float ascent = ImTrunc(m[0] + 1.0f), descent = ImTrunc(-m[1] - 1.0f);  // as stb_truetype rounds
  ImFontAtlasBuildSetupFont(atlas, font, &c, ascent, descent);
  const float base = IM_ROUND(ascent);
  const ImVec2 uv = atlas->TexUvScale;
  size_t r = 2 * static_cast<size_t>(customs);  // the next inked glyph's place in `at`
  for (size_t i = 0; i < n; ++i) {
    const float advance = m[3 + i];
    const int* b = &box[4 * i];
    if (b[0] == b[2] || r + 2 > at.size()) {  // no ink
      font->AddGlyph(&c, codes[i], 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, advance);
      continue;
    }
    const float x = static_cast<float>(at[r]), y = static_cast<float>(at[r + 1]);
    r += 2;
    font->AddGlyph(&c, codes[i], static_cast<float>(b[0]), static_cast<float>(b[1]) + base,
                   static_cast<float>(b[2]), static_cast<float>(b[3]) + base, x * uv.x, y * uv.y,
                   (x + static_cast<float>(b[2] - b[0])) * uv.x, (y + static_cast<float>(b[3] - b[1])) * uv.y,
                   advance);
  }
  ImFontAtlasBuildFinish(atlas);  // white pixel, cursors, lines, lookup tables; TexReady
  return drawn;
}

// Every code point the atlas should hold: the base ranges, then the ones added on demand.
std::vector<ImWchar> wanted_codes() {
  std::vector<ImWchar> codes;
  for (const auto& r : kBaseRanges)
    for (unsigned int c = r[0]; c <= r[1]; ++c) codes.push_back(static_cast<ImWchar>(c));
  codes.insert(codes.end(), fstate().extra.begin(), fstate().extra.end());
  return codes;
}

void want(unsigned int c) {
  if (c < 0x20 || c > 0xFFFF || fstate().have[c] || (c >= 0x7F && c < 0xA0) || (c >= 0xD800 && c < 0xE000))
    return;
  if (static_cast<int>(fstate().extra.size()) >= kMaxExtra) return;
  fstate().have[c] = true;
  fstate().extra.push_back(static_cast<ImWchar>(c));
  ++fstate().pending;
}

}  // namespace

bool load_font(float pixel_ratio, float scale) {
  if (!(pixel_ratio > 0.0f) || !std::isfinite(pixel_ratio)) pixel_ratio = 1.0f;
  // Quarter steps: a zoom of 110% or 125% still gets sharp glyphs without endless rebuilds.
  pixel_ratio = std::max(1.0f, std::round(pixel_ratio * 4.0f) / 4.0f);
  if (!fstate().started) {  // the base set, and the texts a link brings
    fstate().started = true;
    for (const auto& r : kBaseRanges)
      for (unsigned int c = r[0]; c <= r[1]; ++c) fstate().have[c] = true;
    char* query = attn_js_location_text();
    if (query != nullptr) font_want_text(query);
    std::free(query);
  }
  FontRequest& q = fstate().asked;
  if (fstate().waiting && fstate().pending == 0 && q.ratio == pixel_ratio && q.scale == scale) return true;
  q = {++fstate().serial, std::round(kFontSize * pixel_ratio), pixel_ratio, scale, wanted_codes()};
  fstate().pending = 0;
  fstate().waiting = true;
  static const std::vector<int> rects = imgui_rects();  // the same for every atlas
  const std::vector<int> ints(q.codes.begin(), q.codes.end());
  attn_js_font_request(q.serial, kFamily, static_cast<int>(q.px), ints.data(), static_cast<int>(ints.size()),
                       rects.data(), static_cast<int>(rects.size() / 2));
  return true;
}

bool font_update() {
  WebFontState& f = fstate();
  if (f.pending > 0 && !f.waiting) load_font(f.asked.ratio, f.asked.scale);  // one request at a time
  int sizes[6] = {};
  if (!f.waiting || !attn_js_font_answer(f.serial, sizes)) return false;
  f.waiting = false;
  ImGuiIO& io = ImGui::GetIO();
  f.browser = build_atlas(io.Fonts, f.asked, sizes);
  f.slices = sizes[4];
  f.longest_slice_ms = sizes[5];
  f.built = true;
  f.glyphs = f.browser ? io.Fonts->Fonts[0]->Glyphs.Size : 0;
  f.tex_w = io.Fonts->TexWidth;
  f.tex_h = io.Fonts->TexHeight;
  f.ratio = f.asked.ratio;
  f.scale = f.asked.scale;
  io.FontGlobalScale = f.scale / f.ratio;
  return true;
}

bool font_ready() {
  return fstate().built;
}

bool font_pending() {
  return fstate().waiting;
}

void font_want_text(std::string_view utf8) {
  // decoded by ImGui's own UTF-8 reader, the one its text drawing looks glyphs up with
  const char* end = utf8.data() + utf8.size();
  for (const char* p = utf8.data(); p < end;) {
    unsigned int c = 0;
    p += ImTextCharFromUtf8(&c, p, end);
    if (c < 0x80) continue;  // Basic Latin is in the base set
    want(c);
    // A letter of a small script brings its block of 128 (typing goes on in it); CJK and up: itself.
    if (c < 0x2E80)
      for (unsigned int k = c & ~0x7Fu; k <= (c | 0x7Fu); ++k) want(k);
  }
}

std::string font_state_json() {
  std::string family;  // kFamily as a JSON string's contents
  for (const char* p = kFamily; *p; ++p) family += *p == '"' ? std::string("\\\"") : std::string(1, *p);
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  char buf[200];
  std::snprintf(
      buf, sizeof(buf),
      R"(","css_px":%.3f,"pixel_size":%g,"ratio":%g,"glyphs":%d,"extra":%d,"atlas":[%d,%d],"slices":%d,)"
      R"("longest_slice_ms":%d})",
      static_cast<double>(fstate().css_px), atlas->Fonts.empty() ? 0.0 : atlas->Fonts[0]->FontSize,
      static_cast<double>(fstate().ratio), fstate().glyphs, static_cast<int>(fstate().extra.size()),
      fstate().tex_w, fstate().tex_h, fstate().slices, fstate().longest_slice_ms);
  return std::string(R"({"source":")") + (fstate().browser ? "browser" : "none") + R"(","family":")" +
         family + buf;
}

}  // namespace platform
