// Long texts in the multi-head scene: which token window a grid shows, when a grid is too small to read,
// which tokens a head's text excerpt shows, and the find box's matching (no UI code).
#pragma once

#include <string>
#include <vector>

#include "app/logic/settings.hpp"

namespace app {

// A whole grid whose cells would be smaller than this (CSS px) is unreadable: the scene opens a window
// of tokens instead, with cells of at least kReadableCell, and shows the heads as text by default.
inline constexpr float kUnreadableCell = 3.0f, kReadableCell = 6.0f;
// Above this many tokens the scene offers the window (below it, every label fits); a window shows at
// least kMinSpan tokens.
inline constexpr int kWindowFrom = 48, kMinSpan = 4;

// The token window a grid shows: `size` queries from row0 and `size` keys from col0 of a t-token text.
struct TokenWindow {
  int row0 = 0, col0 = 0, size = 0;
};

// Whether a side x side grid of t x t cells has cells of at least kUnreadableCell.
bool grid_readable(float side, int t);

// The window of a t-token text that a grid `side` px wide shows: the chosen one (s.span, s.from,
// s.key_from; span >= t is the whole text); with none chosen (span 0) the whole text when it is readable
// (or side <= 0: not known), else side / kReadableCell tokens of queries and of keys centred on s.row.
TokenWindow token_window(const Settings& s, int t, float side);

// Whether the heads are shown as text: heads_view=text, or heads_view=auto and the whole grid (side px,
// t tokens) would be unreadable.
bool heads_as_text(const Settings& s, int t, float side);

// The tokens first .. last (inclusive) of a t-token text around `row`: `count` of them, `row` as near
// the middle as the ends allow.
struct TokenRange {
  int first = 0, last = -1;
};
TokenRange tokens_around(int t, int row, int count);

// The first token after `after` (going round past the end, `after` itself last) whose text contains
// `needle`, ignoring the case of ASCII letters; -1 when none does or needle is empty.
int find_token(const std::vector<std::string>& tokens, const std::string& needle, int after);
// How many tokens contain `needle` (as find_token), and which of them `token` is (1-based; 0 when it
// does not match).
struct MatchCount {
  int index = 0, total = 0;
};
MatchCount count_matches(const std::vector<std::string>& tokens, const std::string& needle, int token);

}  // namespace app
