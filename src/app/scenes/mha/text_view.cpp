// The multi-head scene's text view: flowing words shaded by the query's weights, per head or for all heads.
#include "app/scenes/mha/text_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>

#include "app/logic/long_text.hpp"
#include "app/platform_io.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/widgets.hpp"

namespace app::mha {
namespace {

constexpr float kBlockW = 300.0f, kGapX = 3.0f, kGapY = 2.0f, kPad = 2.0f, kBlockGap = 14.0f;
constexpr int kWideExcerpt = 41, kNarrowExcerpt = 25;  // tokens around the query in each small multiple

// Word j's box at (x, y) from the block's top left, its width and height.
struct WordBox {
  int j;
  float x, y, w, h;
};

// Words first .. last laid out like a paragraph `width` wide; returns the boxes and sets `height`.
std::vector<WordBox> flow(const std::vector<std::string>& words, TokenRange range, float width,
                          float& height) {
  std::vector<WordBox> out;
  const float h = ImGui::GetTextLineHeight() + 2.0f * kPad;
  float x = 0.0f, y = 0.0f;
  for (int j = range.first; j <= range.last; ++j) {
    const float w = std::min(width, ImGui::CalcTextSize(words[static_cast<size_t>(j)].c_str()).x + 2 * kPad);
    if (x > 0.0f && x + w > width) x = 0.0f, y += h + kGapY;
    out.push_back({j, x, y, w, h});
    x += w + kGapX;
  }
  height = out.empty() ? h : y + h;
  return out;
}

// One head's words first .. last at the cursor, `width` wide, shaded by weight (0 to hi); a click on a word
// makes it the query. The first block drawn (`report`) records its words on screen. scroll_to: a token
// the enclosing box scrolls to (-1: none).
void draw_words(Settings& s, const RowView& rows, int head, TokenRange range, float width, float hi,
                const std::vector<std::string>& words, TextViewShown& shown, bool report, int scroll_to) {
  float height = 0.0f;
  const std::vector<WordBox> boxes = flow(words, range, width, height);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::PushID(head);
  ImGui::InvisibleButton("words", ImVec2(width, height));
  ImGui::PopID();
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked();
  const ImVec2 m = ImGui::GetMousePos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const gfx::Colormap cmap = sequential_colormap(s);
  for (const WordBox& b : boxes) {
    const ImVec2 a(o.x + b.x, o.y + b.y), z(a.x + b.w, a.y + b.h);
    if (b.j == scroll_to && (a.y < dl->GetClipRectMin().y || z.y > dl->GetClipRectMax().y)) {
      ImGui::SetScrollY(ImGui::GetScrollY() + a.y - dl->GetClipRectMin().y - 3.0f * b.h);  // a few lines down
      request_next_frame();
    }
    if (!ImGui::IsRectVisible(a, z)) continue;
    const float v = rows.weights(head, b.j);
    const std::array<float, 3> c = gfx::value_rgb(cmap, v, 0.0f, hi);
    dl->AddRectFilled(a, z, ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], 1.0f)));
    const bool dark = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2] < 0.45f;
    const std::string& w = words[static_cast<size_t>(b.j)];
    const ImVec4 clip(a.x, a.y, z.x, z.y);
    dl->AddText(nullptr, 0.0f, ImVec2(a.x + kPad, a.y + kPad), dark ? IM_COL32_WHITE : IM_COL32_BLACK,
                w.c_str(), nullptr, 0.0f, &clip);
    if (b.j == rows.token) dl->AddRect(a, z, ImGui::GetColorU32(ImGuiCol_Text), 0.0f, 0, 2.0f);
    if (report) {
      shown.tokens.push_back(b.j);
      shown.weights.push_back(v);
      shown.boxes.push_back({a.x, a.y, b.w, b.h});
    }
    if (!hovered || m.x < a.x || m.x >= z.x || m.y < a.y || m.y >= z.y) continue;
    shown.hover_head = head, shown.hover_token = b.j;
    if (clicked) s.row = b.j;
    ImGui::BeginTooltip();
    ImGui::Text("head %d: query '%s' (%d) gives key '%s' (%d) weight %.3g", head,
                words[static_cast<size_t>(rows.token)].c_str(), rows.token, w.c_str(), b.j,
                static_cast<double>(v));
    ImGui::TextDisabled("click: make it the query");
    mark_window("tooltip/text_view");
    ImGui::EndTooltip();
  }
}

// "head 2 puts most weight on 'cake' (token 5): 0.41": the line over each head's words; returns its brightest
// weight.
float head_title(const RowView& rows, int head, const std::vector<std::string>& words) {
  const int top = rows.top_key[static_cast<size_t>(head)];
  const float hi = rows.weights(head, top);
  if (figure_mode()) {  // the figure view draws no sentences: the head's number alone
    ImGui::Text("head %d", head);
    return hi > 0.0f ? hi : 1.0f;
  }
  text_wrapped("head %d puts most weight on '%s' (token %d): %.2f", head,
               words[static_cast<size_t>(top)].c_str(), top, static_cast<double>(hi));
  return hi > 0.0f ? hi : 1.0f;
}

void draw_one_head(MhaState& ms, Settings& s, const RowView& rows, const std::vector<std::string>& words,
                   float box_h, TextViewShown& shown) {
  const int h = s.head, heads = static_cast<int>(rows.top_key.size());
  const auto t = static_cast<int>(words.size());
  if (ImGui::Button("Back to all heads")) s.head = -1;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) s.head = (h + heads - 1) % heads;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) s.head = (h + 1) % heads;
  const float hi = head_title(rows, h, words);
  ImGui::BeginChild("mha/text", ImVec2(0.0f, box_h), true);
  chain_wheel_at_end();
  const bool moved = rows.token != ms.drawn_query;
  // the query scrolls into view when it is not on screen and changed (the find box, a click, the row view)
  int scroll_to = -1;
  if (ms.scroll_to_query || moved) scroll_to = rows.token;
  draw_words(s, rows, h, {0, t - 1}, ImGui::GetContentRegionAvail().x, hi, words, shown, true, scroll_to);
  ImGui::EndChild();
  mark_item("mha/text");
  ms.scroll_to_query = false;
  ms.drawn_query = rows.token;
  shown.heads.push_back(h);
  shown.hi.push_back(hi);
}

void draw_all_heads(MhaState& ms, Settings& s, const RowView& rows, const std::vector<std::string>& words,
                    TextViewShown& shown) {
  const int heads = static_cast<int>(rows.top_key.size()), t = static_cast<int>(words.size());
  const float avail = ImGui::GetContentRegionAvail().x;
  const int cols = std::max(1, static_cast<int>((avail + kBlockGap) / (kBlockW + kBlockGap)));
  const float width = (avail - kBlockGap * static_cast<float>(cols - 1)) / static_cast<float>(cols);
  const TokenRange range = tokens_around(t, rows.token, narrow_screen() ? kNarrowExcerpt : kWideExcerpt);
  for (int h = 0; h < heads; ++h) {
    if (h % cols) ImGui::SameLine(0.0f, kBlockGap);
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    const float hi = head_title(rows, h, words);
    ImGui::PopTextWrapPos();
    if (ImGui::IsItemClicked()) s.head = h;
    if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    // the find box's match: the page scrolls to the first head's words when they are off screen
    draw_words(s, rows, h, range, width, hi, words, shown, h == 0,
               h == 0 && ms.scroll_to_query ? rows.token : -1);
    ImGui::EndGroup();
    shown.heads.push_back(h);
    shown.hi.push_back(hi);
  }
  ms.drawn_query = -1;  // the whole-text box opens on the query
  ms.scroll_to_query = false;
}

}  // namespace

nlohmann::json text_view_json(const TextViewShown& v) {
  nlohmann::json j = v;
  j["first"] = v.tokens.empty() ? -1 : v.tokens.front();
  j["last"] = v.tokens.empty() ? -1 : v.tokens.back();
  j["hover"] =
      v.hover_token < 0 ? nlohmann::json() : nlohmann::json(std::array<int, 2>{v.hover_head, v.hover_token});
  return j;
}

TextViewShown draw_text_view(MhaState& ms, Settings& s, const RowView& rows,
                             const std::vector<std::string>& words, float box_h) {
  TextViewShown shown;
  shown.query = rows.token;
  text_wrapped_disabled(
      "Each word is shaded by how much the query '%s' (token %d, outlined) attends to it: from dark (0) to "
      "bright (the head's largest weight). Hover a word for its weight; click one to make it the query.",
      words[static_cast<size_t>(rows.token)].c_str(), rows.token);
  if (s.head >= 0) {
    draw_one_head(ms, s, rows, words, box_h, shown);
  } else {
    draw_all_heads(ms, s, rows, words, shown);
  }
  return shown;
}

void draw_view_controls(MhaState& ms, Settings& s, const std::vector<std::string>& tokens, bool as_text) {
  std::string& needle = ms.needle;
  const auto t = static_cast<int>(tokens.size());
  // the figure view keeps its height for the grids: the switch only where a long text may need it
  if (control_shown(&s.heads_view) && (t > kWindowFrom || !figure_mode())) {
    const LockScope lock(&s.heads_view);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Heads as");
    ImGui::SameLine();
    if (ImGui::RadioButton("grids##heads_view", !as_text)) s.heads_view = HeadsView::Grid;
    ImGui::SameLine();
    if (ImGui::RadioButton("text##heads_view", as_text)) s.heads_view = HeadsView::Text;
    mark_item("mha/heads_view");  // (the ids differ from the text box's "text")
    same_line_if_fits(200.0f);
  }
  if (t <= kWindowFrom || !control_shown(&s.row)) return;
  const LockScope lock(&s.row);
  ImGui::SetNextItemWidth(narrow_screen() ? -1.0f : 200.0f);  // (a phone's text fields take the width)
  bool entered = false;
  const bool typed = text_field("##find", "find a word", needle, &entered);
  mark_item("mha/find");
  same_line_if_fits(buttons_width({"Next"}));
  const bool next = ImGui::Button("Next") || entered;
  const int found = typed || next ? find_token(tokens, needle, typed ? -1 : s.row) : -1;
  if (found >= 0) {
    s.row = found;
    ms.scroll_to_query = true;
    if (s.span != 0 && s.span < t)  // a chosen window moves onto the token
      s.from = s.key_from = std::clamp(found - s.span / 2, 0, t - s.span);
  }
  if (needle.empty()) return;
  const MatchCount m = count_matches(tokens, needle, found >= 0 ? found : s.row);
  ImGui::SameLine();
  if (m.total == 0) {
    text_wrapped("no token matches '%s'", needle.c_str());
  } else if (m.index > 0) {
    text_wrapped("token %d, match %d of %d", found >= 0 ? found : s.row, m.index, m.total);
  } else if (m.total == 1) {
    text_wrapped("1 token matches");
  } else {
    text_wrapped("%d tokens match", m.total);
  }
}

}  // namespace app::mha
