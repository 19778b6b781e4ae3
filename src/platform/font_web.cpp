// Browser font atlas: the browser draws every glyph (Canvas 2D fillText) into Dear ImGui's atlas, so the wasm
// carries no font file and no rasteriser; code points the learner brings are added on demand.
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
#include "core/index_sort.hpp"
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

// Where each rectangle goes: rows of rectangles sorted by height (a shelf packer), 1 pixel apart.
// Returns the atlas height for width `width`.
int pack_shelves(const std::vector<int>& w, const std::vector<int>& h, std::vector<int>& x,
                 std::vector<int>& y, int width) {
  std::vector<int> order;
  attn::sort_indices(
      static_cast<int>(w.size()), [&](int a, int b) { return h[a] != h[b] ? h[a] > h[b] : a < b; }, order);
  int cx = 1, cy = 1, row_h = 0;
  for (int i : order) {
    if (cx + w[i] + 1 > width) {
      cx = 1;
      cy += row_h + 1;
      row_h = 0;
    }
    x[i] = cx;
    y[i] = cy;
    cx += w[i] + 1;
    row_h = std::max(row_h, h[i]);
  }
  return cy + row_h + 1;
}

// Clears the atlas and fills it with `codes` drawn by the browser at `px` pixels per line. Returns whether
// the browser drew them; if it could not (no 2D canvas), the font holds an invisible space only, so ImGui
// still runs. Either way the atlas is complete (ImGui's white pixel, cursors and lines; TexReady).
bool build_atlas(ImFontAtlas* atlas, float px, bool pixel_snap, std::vector<ImWchar> codes) {
  atlas->Clear();
  // 1. one font, one config (no font data: nothing here reads any)
  ImFontConfig cfg;
  cfg.SizePixels = px;
  cfg.OversampleH = cfg.OversampleV = 1;
  cfg.PixelSnapH = pixel_snap;
  cfg.FontDataOwnedByAtlas = false;
  std::snprintf(cfg.Name, sizeof(cfg.Name), "browser sans-serif, %dpx", static_cast<int>(px));
  ImFont* font = IM_NEW(ImFont);
  atlas->Fonts.push_back(font);
  cfg.DstFont = font;
  atlas->ConfigData.push_back(cfg);
  ImFontAtlasUpdateConfigDataPointers(atlas);
  ImFontAtlasBuildInit(atlas);  // rounds SizePixels; registers the white pixel / cursors and line rectangles
  ImFontConfig& c = atlas->ConfigData[0];

  // 2. metrics of every code point: [ascent, descent, CSS px] then 5 numbers per code point
  std::vector<int> ints(codes.begin(), codes.end());
  std::vector<float> m(3 + 5 * codes.size(), 0.0f);
  const bool drawn =
      !codes.empty() && attn_js_font_measure(kFamily, static_cast<int>(c.SizePixels), ints.data(),
                                             static_cast<int>(ints.size()), m.data());
  if (!drawn) {
    codes.assign(1, static_cast<ImWchar>(' '));
    ints.assign(1, ' ');
    m.assign({0.8f * c.SizePixels, 0.2f * c.SizePixels, 0.0f, 0.25f * c.SizePixels, 0.0f, 0.0f, 0.0f, 0.0f});
  }
  const int n = static_cast<int>(codes.size());
  fstate().css_px = m[2];
  const float ascent = ImTrunc(m[0] + 1.0f), descent = ImTrunc(-m[1] - 1.0f);  // as stb_truetype rounds

  // 3. rectangles: ImGui's custom ones, then one per visible glyph (its ink box, 1 pixel of margin around)
  const int customs = atlas->CustomRects.Size;
  std::vector<int> w, h, box(4 * static_cast<size_t>(n), 0);  // box: x0, y0, x1, y1 around the origin
  std::vector<int> rect_of(n, -1);
  for (const ImFontAtlasCustomRect& r : atlas->CustomRects) {
    w.push_back(r.Width);
    h.push_back(r.Height);
  }
  const float limit = 4.0f * c.SizePixels;  // ink further from the origin: the glyph is left blank
  for (int i = 0; i < n; ++i) {
    const float* g = &m[3 + 5 * static_cast<size_t>(i)];
    if (!(g[1] + g[2] > 0.0f && g[3] + g[4] > 0.0f)) continue;  // no ink (spaces)
    if (!(std::max(std::max(g[1], g[2]), std::max(g[3], g[4])) < limit)) continue;
    int* b = &box[4 * static_cast<size_t>(i)];
    b[0] = static_cast<int>(std::floor(-g[1])) - 1;
    b[1] = static_cast<int>(std::floor(-g[3])) - 1;
    b[2] = static_cast<int>(std::ceil(g[2])) + 1;
    b[3] = static_cast<int>(std::ceil(g[4])) + 1;
    rect_of[i] = static_cast<int>(w.size());
    w.push_back(b[2] - b[0]);
    h.push_back(b[3] - b[1]);
  }

  // 4. the atlas' size (ImGui's widths: 512 to 4096 by area) and places
  double area = 0.0;
  int widest = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    area += static_cast<double>(w[i] + 1) * (h[i] + 1);
    widest = std::max(widest, w[i]);
  }
  const int side = static_cast<int>(std::sqrt(area)) + 1;
  int tex_w = side >= 2867 ? 4096 : side >= 1434 ? 2048 : side >= 717 ? 1024 : 512;
  while (tex_w < widest + 2) tex_w *= 2;
  std::vector<int> x(w.size()), y(w.size());
  const int tex_h = pack_shelves(w, h, x, y, tex_w);
  for (int i = 0; i < customs; ++i) {
    atlas->CustomRects[i].X = static_cast<unsigned short>(x[i]);
    atlas->CustomRects[i].Y = static_cast<unsigned short>(y[i]);
  }
  atlas->TexWidth = tex_w;
  atlas->TexHeight = tex_h;
  atlas->TexUvScale = ImVec2(1.0f / static_cast<float>(tex_w), 1.0f / static_cast<float>(tex_h));
  const size_t bytes = static_cast<size_t>(tex_w) * static_cast<size_t>(tex_h);
  atlas->TexPixelsAlpha8 = static_cast<unsigned char*>(IM_ALLOC(bytes));
  std::memset(atlas->TexPixelsAlpha8, 0, bytes);

  // 5. the browser draws each glyph with its origin at (rectangle corner - box corner)
  std::vector<int> draws;
  for (int i = 0; i < n; ++i) {
    if (rect_of[i] < 0) continue;
    const int* b = &box[4 * static_cast<size_t>(i)];
    draws.insert(draws.end(), {ints[i], x[rect_of[i]] - b[0], y[rect_of[i]] - b[1]});
  }
  if (!draws.empty())
    attn_js_font_render(draws.data(), static_cast<int>(draws.size() / 3), tex_w, tex_h,
                        atlas->TexPixelsAlpha8);

  // 6. the glyphs, in ImGui's layout: y from the line's top, the baseline at round(ascent)
  ImFontAtlasBuildSetupFont(atlas, font, &c, ascent, descent);
  const float base = IM_ROUND(ascent);
  const ImVec2 uv = atlas->TexUvScale;
  for (int i = 0; i < n; ++i) {
    const float advance = m[3 + 5 * static_cast<size_t>(i)];
    const int r = rect_of[i];
    if (r < 0) {
      font->AddGlyph(&c, codes[i], 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, advance);
      continue;
    }
    const int* b = &box[4 * static_cast<size_t>(i)];
    font->AddGlyph(&c, codes[i], static_cast<float>(b[0]), static_cast<float>(b[1]) + base,
                   static_cast<float>(b[2]), static_cast<float>(b[3]) + base, static_cast<float>(x[r]) * uv.x,
                   static_cast<float>(y[r]) * uv.y, static_cast<float>(x[r] + w[r]) * uv.x,
                   static_cast<float>(y[r] + h[r]) * uv.y, advance);
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
  ImGuiIO& io = ImGui::GetIO();
  const bool ok = build_atlas(io.Fonts, std::round(kFontSize * pixel_ratio),
                              pixel_ratio == std::floor(pixel_ratio), wanted_codes());
  fstate().browser = ok;
  fstate().glyphs = ok ? io.Fonts->Fonts[0]->Glyphs.Size : 0;
  fstate().tex_w = io.Fonts->TexWidth;
  fstate().tex_h = io.Fonts->TexHeight;
  fstate().pending = 0;
  fstate().ratio = pixel_ratio;
  fstate().scale = scale;
  io.FontGlobalScale = scale / pixel_ratio;
  return ok;
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

bool font_update() {
  if (fstate().pending == 0) return false;
  load_font(fstate().ratio, fstate().scale);
  return true;
}

std::string font_state_json() {
  std::string family;  // kFamily as a JSON string's contents
  for (const char* p = kFamily; *p; ++p) family += *p == '"' ? std::string("\\\"") : std::string(1, *p);
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  char buf[200];
  std::snprintf(buf, sizeof(buf),
                R"(","css_px":%.3f,"pixel_size":%g,"ratio":%g,"glyphs":%d,"extra":%d,"atlas":[%d,%d]})",
                static_cast<double>(fstate().css_px), atlas->Fonts.empty() ? 0.0 : atlas->Fonts[0]->FontSize,
                static_cast<double>(fstate().ratio), fstate().glyphs, static_cast<int>(fstate().extra.size()),
                fstate().tex_w, fstate().tex_h);
  return std::string(R"({"source":")") + (fstate().browser ? "browser" : "none") + R"(","family":")" +
         family + buf;
}

}  // namespace platform
