// The multi-head scene's text view: the text as flowing words, each shaded by how much the query token
// attends to it, for one head (the whole text, scrolling) or every head (small multiples); the find box.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"
#include "app/scenes/mha/panels.hpp"

namespace app::mha {

// What the text view drew this frame, for state().shown.text_view.
struct TextViewShown {
  int query = -1;                           // the query token (s.row)
  std::vector<int> heads;                   // (B,) the heads drawn, one block each, in order
  std::vector<float> hi;                    // (B,) each block's brightest weight (its colours span 0 to hi)
  std::vector<int> tokens;                  // (n,) the first block's tokens on screen, in order
  std::vector<float> weights;               // (n,) their weights
  std::vector<std::array<float, 4>> boxes;  // (n,) their boxes on the canvas: x, y, w, h (CSS px)
  int hover_head = -1, hover_token = -1;    // the word under the pointer, or -1
};
// The fields that state() shows as they are (text_view_json adds the rest).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TextViewShown, query, heads, hi, tokens, weights, boxes)
nlohmann::json text_view_json(const TextViewShown& v);

// The heads as text, under a line saying what the shading means: with s.head >= 0 that head's whole text
// in a scrolling box (it scrolls to the query when the query changes), else each head's words around the
// query, side by side (a click on a head's title enlarges it). A click on a word makes it the query (s.row);
// hovering one shows its weight. rows: row s.row of every head, weights (H, T); words: (T,) token text
// (token_words); box_h: the whole-text box's height (CSS px).
TextViewShown draw_text_view(MhaState& ms, Settings& s, const RowView& rows,
                             const std::vector<std::string>& words, float box_h);

// "Heads as: grids | text" (writes s.heads_view; as_text: what is shown now) and, for a text longer than
// kWindowFrom tokens, the find box (each one unless the figure view hides its locked setting; the figure
// view shows the switch only for a text longer than kWindowFrom): typing selects
// the first token that contains the word (any case), Enter or Next the next one; it sets s.row, moves a
// chosen grid window onto it and scrolls the text view to it, or says in place that no token matches. tokens:
// (T,).
void draw_view_controls(MhaState& ms, Settings& s, const std::vector<std::string>& tokens, bool as_text);

}  // namespace app::mha
