// Limits on untrusted input shared by every input path (CLI, URL, set(), model files): JSON nesting,
// byte sizes, and messages that stay on one line whatever they echo.
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

}  // namespace attn
