// Times the project's multi-head attention forward (attn::multi_head, no positions, no mask) and its row
// softmax, built natively and for node (wasm); a JS driver runs both and compares them.
//
//   mha_bench --tokens T --d-model D --heads H --reps R --inputs FILE --output FILE
//     FILE inputs: raw little-endian float32, concatenated: x (T, D), w_qkv (D, 3D), w_o (D, D), all
//     row-major (the MhaWeights layout). Warm-up runs (two, or more for 250 ms), then R timed runs (each
//     result freed before the next run); the (T, D) output is written to --output as float32. Prints one JSON
//     line: impl, tokens, d_model, heads, reps, ms (each run), median_ms, gflops = (8 T D^2 + 4 T^2 D) /
//     median seconds / 1e9 (null with --share).
//   ... --share I/N: instead, the share of worker I (0-based) of N when N workers split the forward as the
//     page's helper workers do: heads I*H/N .. (I+1)*H/N - 1 (attn::MhaSteps with that HeadSpan, kStepRows
//     rows per projection step), then output rows I*T/N .. (I+1)*T/N - 1 of the joined concat x W_O
//     (attn::mha_output_rows; the concat comes from a whole forward run first). Each run is timed in its
//     two rounds: the line adds span_ms and rows_ms (ms is their sum), and --output gets the share's rows.
//   mha_bench --softmax --rows N --cols M --reps R
//     Times ops::softmax_forward<float> on a seeded random (N, M) matrix; prints one JSON line with impl,
//     softmax_rows, softmax_cols, reps, ms, median_ms.
// Bad arguments print `error: ...` on stderr and exit with status 2.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "core/ops.hpp"
#include "core/rng.hpp"

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kWarmUpMs = 250.0;  // warm-up runs take at least this long (and are at least two)

#ifdef __EMSCRIPTEN__
const char* const kImpl = "wasm";
#else
const char* const kImpl = "native";
#endif

// A bad command line: main prints `error: <what>` and exits with status 2.
struct UsageError {
  std::string what;
};

struct Args {
  bool softmax = false;
  long long tokens = 0, d_model = 0, heads = 0, reps = 0, rows = 0, cols = 0;
  long long share = -1, shares = 0;  // --share I/N (shares 0: the whole forward)
  std::string inputs, output;
};

// Parses a whole decimal integer in [lo, hi] for option `name`.
long long parse_int(const char* name, const char* text, long long lo, long long hi) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    throw UsageError{std::string(name) + " must be a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", got '" + text + "'"};
  }
  return v;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (opt == "--softmax") {
      a.softmax = true;
      continue;
    }
    const char* const known[] = {"--tokens", "--d-model", "--heads",  "--reps", "--rows",
                                 "--cols",   "--inputs",  "--output", "--share"};
    if (std::find(std::begin(known), std::end(known), opt) == std::end(known)) {
      throw UsageError{"unknown option '" + opt +
                       "'; usage: mha_bench --tokens T --d-model D --heads H --reps R --inputs FILE --output "
                       "FILE [--share I/N], or mha_bench --softmax --rows N --cols M --reps R"};
    }
    if (i + 1 >= argc) throw UsageError{"option " + opt + " needs a value"};
    const char* v = argv[++i];
    if (opt == "--tokens") {
      a.tokens = parse_int("--tokens", v, 1, attn::kMaxTokens);
    } else if (opt == "--d-model") {
      a.d_model = parse_int("--d-model", v, 1, attn::kMaxDModel);
    } else if (opt == "--heads") {
      a.heads = parse_int("--heads", v, 1, attn::kMaxDModel);
    } else if (opt == "--reps") {
      a.reps = parse_int("--reps", v, 1, 100000);
    } else if (opt == "--rows") {
      a.rows = parse_int("--rows", v, 1, 1 << 16);
    } else if (opt == "--cols") {
      a.cols = parse_int("--cols", v, 1, 1 << 16);
    } else if (opt == "--share") {
      const std::string text = v;
      const size_t slash = text.find('/');
      if (slash == std::string::npos) throw UsageError{"--share takes I/N, got '" + text + "'"};
      a.shares = parse_int("--share's N", text.substr(slash + 1).c_str(), 1, 64);
      a.share = parse_int("--share's I", text.substr(0, slash).c_str(), 0, a.shares - 1);
    } else if (opt == "--inputs") {
      a.inputs = v;
    } else {
      a.output = v;  // --output
    }
  }
  const auto need = [](bool ok, const char* what) {
    if (!ok) throw UsageError{std::string("missing ") + what};
  };
  need(a.reps > 0, "--reps");
  if (a.softmax) {
    need(a.rows > 0, "--rows");
    need(a.cols > 0, "--cols");
    if (a.tokens || a.d_model || a.heads || a.shares || !a.inputs.empty() || !a.output.empty())
      throw UsageError{"--softmax takes only --rows, --cols and --reps"};
  } else {
    need(a.tokens > 0, "--tokens");
    need(a.d_model > 0, "--d-model");
    need(a.heads > 0, "--heads");
    need(!a.inputs.empty(), "--inputs");
    need(!a.output.empty(), "--output");
    if (a.rows || a.cols) throw UsageError{"--rows and --cols go with --softmax only"};
    if (a.d_model % a.heads != 0) {
      throw UsageError{"--heads " + std::to_string(a.heads) + " does not divide --d-model " +
                       std::to_string(a.d_model)};
    }
    if (a.shares > a.heads || a.shares > a.tokens) {
      throw UsageError{"--share: " + std::to_string(a.shares) + " workers for " + std::to_string(a.heads) +
                       " heads and " + std::to_string(a.tokens) + " tokens"};
    }
  }
  return a;
}

// Reads `count` little-endian float32 values from `f` into m (rows, cols), row by row.
void read_floats(std::FILE* f, attn::Mat& m) {
  static_assert(sizeof(float) == 4, "float32 expected");
  const size_t n = static_cast<size_t>(m.size());
  if (std::fread(m.data(), sizeof(float), n, f) != n) throw UsageError{"--inputs file is too short"};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string list(const std::vector<double>& v) {
  std::string s = "[";
  char buf[32];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.4f", i ? "," : "", v[i]);
    s += buf;
  }
  return s + "]";
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int run_softmax(const Args& a) {
  attn::Rng rng(7);
  const attn::Mat scores = rng.normal_matrix(static_cast<int>(a.rows), static_cast<int>(a.cols), 3.0f);
  attn::Mat weights;
  attn::ops::softmax_forward<float>(scores, weights);  // warm-up
  std::vector<double> ms;
  for (long long r = 0; r < a.reps; ++r) {
    const auto t0 = Clock::now();
    attn::ops::softmax_forward<float>(scores, weights);
    ms.push_back(ms_since(t0));
  }
  std::printf(
      "{\"impl\":\"%s\",\"softmax_rows\":%lld,\"softmax_cols\":%lld,\"reps\":%lld,\"ms\":%s,\"median_ms\":%."
      "4f}"
      "\n",
      kImpl, a.rows, a.cols, a.reps, list(ms).c_str(), median(ms));
  return 0;
}

int run_mha(const Args& a) {
  const int t = static_cast<int>(a.tokens), d = static_cast<int>(a.d_model);
  attn::Mat x(t, d);
  attn::MhaWeights w;
  w.heads = static_cast<int>(a.heads);
  w.w_qkv.resize(d, 3 * d);
  w.w_o.resize(d, d);
  // 1. inputs: x, w_qkv, w_o, nothing more
  std::FILE* f = std::fopen(a.inputs.c_str(), "rb");
  if (!f) throw UsageError{"cannot open --inputs file '" + a.inputs + "'"};
  try {
    read_floats(f, x);
    read_floats(f, w.w_qkv);
    read_floats(f, w.w_o);
    char extra = 0;
    if (std::fread(&extra, 1, 1, f) != 0) throw UsageError{"--inputs file is longer than x, w_qkv and w_o"};
  } catch (...) {
    std::fclose(f);
    throw;
  }
  std::fclose(f);
  // 2. the timed runs (the app's call: no positions, no mask) after warm-up runs (at least two, for at least
  //    kWarmUpMs): V8 runs the first calls of a function with its baseline compiler (Liftoff) and switches
  //    to the optimised code, compiled in the background, only for calls that start later, so a run right
  //    after one long warm-up call still took 2.5x as long. Each run's result is dropped before the next
  //    starts, as a peer's session reuses its buffers: with the last result still alive the next run would
  //    take fresh memory (first-touch page faults) instead of the freed blocks.
  const attn::AttentionOptions opt;
  const attn::Mat concat = a.shares > 0 ? attn::multi_head(x, w, opt).concat : attn::Mat();
  // a share's span of heads and block of output rows (2b: one worker's share of the joined concat)
  const auto part = [&](long long n, long long i) { return static_cast<int>(n * i / a.shares); };
  const attn::HeadSpan span =
      a.shares > 0 ? attn::HeadSpan{part(a.heads, a.share), part(a.heads, a.share + 1)} : attn::HeadSpan{};
  const int first = a.shares > 0 ? part(t, a.share) : 0;
  const int rows = a.shares > 0 ? part(t, a.share + 1) - first : 0;
  // One run; its output, and its time in ms in span_t (the whole run, or a share's span) and rows_t.
  const auto run = [&](double& span_t, double& rows_t) {
    const auto t0 = Clock::now();
    if (a.shares == 0) {
      attn::Mat out = attn::multi_head(x, w, opt).output;
      span_t = ms_since(t0);
      return out;
    }
    {
      attn::MhaSteps steps(x, w, opt, attn::kStepRows, nullptr, span);
      while (!steps.done()) steps.step();
      attn::MhaResult r = steps.take();
    }
    span_t = ms_since(t0);
    const auto t1 = Clock::now();
    attn::Mat block = attn::mha_output_rows(concat, w, first, rows);
    rows_t = ms_since(t1);
    return block;
  };
  double span_t = 0, rows_t = 0;
  attn::Mat output;
  const auto warm0 = Clock::now();
  for (int i = 0; i < 2 || ms_since(warm0) < kWarmUpMs; ++i) run(span_t, rows_t);
  std::vector<double> ms, span_ms, rows_ms;
  for (long long i = 0; i < a.reps; ++i) {
    attn::Mat out = run(span_t, rows_t);
    ms.push_back(span_t + rows_t);
    span_ms.push_back(span_t);
    rows_ms.push_back(rows_t);
    if (i + 1 == a.reps) output = std::move(out);
  }
  // 3. the output (T, D), or the share's rows of it, as float32
  std::FILE* o = std::fopen(a.output.c_str(), "wb");
  if (!o) throw UsageError{"cannot write --output file '" + a.output + "'"};
  const size_t n = static_cast<size_t>(output.size());
  const bool ok = std::fwrite(output.data(), sizeof(float), n, o) == n;
  if (std::fclose(o) != 0 || !ok) throw UsageError{"writing --output file '" + a.output + "' failed"};
  const double med = median(ms);
  const double flops = 8.0 * t * d * d + 4.0 * t * static_cast<double>(t) * d;
  const std::string share = a.shares > 0
                                ? ",\"share\":[" + std::to_string(a.share) + "," + std::to_string(a.shares) +
                                      "],\"span_ms\":" + list(span_ms) + ",\"rows_ms\":" + list(rows_ms)
                                : "";
  std::printf(
      "{\"impl\":\"%s\",\"tokens\":%d,\"d_model\":%d,\"heads\":%lld,\"reps\":%lld,\"ms\":%s,\"median_ms\":%."
      "4f,"
      "\"gflops\":%s%s}\n",
      kImpl, t, d, a.heads, a.reps, list(ms).c_str(), med,
      a.shares > 0 ? "null" : std::to_string(flops / (med * 1e-3) / 1e9).c_str(), share.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    return a.softmax ? run_softmax(a) : run_mha(a);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "error: %s\n", e.what.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
