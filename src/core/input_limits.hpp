// Limits on untrusted input shared by every input path (CLI, URL, set(), model files): JSON nesting,
// byte sizes, messages that stay on one line whatever they echo, and the caps on one command's size.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

namespace attn {

// The deepest JSON nesting any input may have ([[...]] is 2): deeper documents are refused before parsing,
// so no parser, copy or dump of them can run out of stack.
inline constexpr int kMaxJsonDepth = 64;
// The largest input file or stream read (the CLI's --input, model files): read with this cap, never whole.
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

// Throws InputError naming `what` when `text`, read as JSON, nests arrays and objects deeper than
// max_depth. Brackets inside strings do not count. Linear time, no allocation.
void require_json_depth(std::string_view text, const std::string& what, int max_depth = kMaxJsonDepth);

// Reads all of `in` into a string, at most kMaxInputBytes: InputError naming `what` when it is larger or
// cannot be read (e.g. a folder). Never reads an endless stream (/dev/zero) to the end.
std::string read_capped(std::istream& in, const std::string& what);
// The same for the file at `path` ("cannot open" / "is a folder" errors name the path).
std::string read_file_capped(const std::string& path, const std::string& what);

// `text` made safe to echo inside a one-line message: control characters (newline, tab, ...) become
// \n, \t or \xNN, and anything longer than max_bytes is cut with "...".
std::string one_line(std::string_view text, std::size_t max_bytes = 200);

// The caps on one command's size, counted from the input's shapes before any work (README "Limits"): the
// numbers it prints, the numbers its intermediate matrices hold and the weights of its layer.

// The most numbers one command prints (about 40 MB of JSON).
inline constexpr long long kMaxPrintedNumbers = 4194304;
// The most numbers one command's intermediates hold (64 MiB of float32, the figure of kMaxWeights): q, k,
// v, scores, weights, ...
inline constexpr long long kMaxComputedNumbers = 16777216;

// What a command would print, compute and hold as weights; every width counted is the one the input
// gives (d_k, d_v, the width of w1), not the one expected.
struct WorkCount {
  long long printed = 0;
  long long computed = 0;
  long long weights = 0;
};

// b items of (t, d) through one head of widths d_q, d_k (w_q, w_k) and d_v (w_v): per item q (t, d_q),
// k (t, d_k), v (t, d_v), scores and weights (t, t) and the output (t, d_v); prints the weights and output.
WorkCount single_head_work(long long b, long long t, long long d, long long d_q, long long d_k,
                           long long d_v);
// b items of (t, d) through `heads` heads of the fused layer (w_qkv (d, 3d), w_o (d, d)): per item qkv
// (t, 3d), scores and weights (heads, t, t), concat and output (t, d); prints the weights and output.
WorkCount multi_head_work(long long b, long long t, long long d, long long heads);
// One (t, d) item through the encoder block with feed-forward width d_ff: the attention layer, then
// residual1, norm1, hidden (t, d_ff), ffn, residual2, output; prints every one and the heads' weights.
WorkCount block_work(long long t, long long d, long long heads, long long d_ff);

// Throws InputError naming `what` (the printed parts) and the limit when one count is past its cap.
void require_within_caps(const WorkCount& w, const std::string& what);
// The printed cap alone (pe's table).
void require_printable(long long numbers, const std::string& what);

}  // namespace attn
