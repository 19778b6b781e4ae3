// Limits on untrusted input: JSON nesting depth, capped reads, one-line echoes and the work caps.
#include "input_limits.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "error.hpp"

namespace attn {

void require_json_depth(std::string_view text, const std::string& what, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        throw_input_error({what, " nests arrays or objects more than ", max_depth,
                           " levels deep; allowed: up to ", max_depth});
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

std::string read_capped(std::istream& in, const std::string& what) {
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes) {
      throw_input_error({what, " is larger than ", kMaxInputBytes >> 20, " MiB; allowed: up to ",
                         kMaxInputBytes >> 20, " MiB"});
    }
  }
  if (in.bad()) throw InputError("cannot read " + what);
  return text;
}

std::string read_file_capped(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(what + " '" + one_line(path) + "' is a folder; give a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + what + " '" + one_line(path) + "'");
  return read_capped(in, what + " '" + one_line(path) + "'");
}

std::string one_line(std::string_view text, std::size_t max_bytes) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max_bytes; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > max_bytes) out += "...";
  return out;
}

WorkCount single_head_work(long long b, long long t, long long d, long long d_q, long long d_k,
                           long long d_v) {
  WorkCount w;
  w.printed = b * (t * t + t * d_v);
  w.computed = b * (t * (d_q + d_k + d_v) + 2 * t * t + t * d_v);
  w.weights = d * (d_q + d_k + d_v);
  return w;
}

WorkCount multi_head_work(long long b, long long t, long long d, long long heads) {
  WorkCount w;
  w.printed = b * (heads * t * t + t * d);
  w.computed = b * (3 * t * d + 2 * heads * t * t + 2 * t * d);
  w.weights = 4 * d * d;
  return w;
}

WorkCount block_work(long long t, long long d, long long heads, long long d_ff) {
  WorkCount w = multi_head_work(1, t, d, heads);
  w.printed += 6 * t * d + t * d_ff;  // input, residual1, norm1, ffn, residual2, output; hidden
  w.computed += 5 * t * d + t * d_ff;
  w.weights += 2 * d * d_ff + d_ff + 5 * d;  // w1, w2, b1; b2 and the LayerNorms' gains and biases
  return w;
}

void require_printable(long long numbers, const std::string& what) {
  if (numbers <= kMaxPrintedNumbers) return;
  throw_input_error({"this would print ", numbers, " numbers for ", what, "; allowed: up to ",
                     kMaxPrintedNumbers, " (use fewer tokens, positions or heads, or a smaller d_model)"});
}

void require_within_caps(const WorkCount& w, const std::string& what) {
  require_printable(w.printed, what);
  if (w.computed > kMaxComputedNumbers) {
    throw_input_error({"this would compute ", w.computed,
                       " numbers in the intermediates (q, k, v, scores, hidden, ...); allowed: up to ",
                       kMaxComputedNumbers, " (use fewer tokens or narrower weights)"});
  }
  require_weight_count(w.weights, "the layer");
}

}  // namespace attn
