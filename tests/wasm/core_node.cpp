// Prints a fixed set of core results as JSON, built twice (native and wasm for node) so
// tests/wasm/compare.py can check that the browser computes what the native build computes.
//
// Output: {"exact": {...}, "close": {...}}. "exact" holds what must be bit-identical on every platform
// (seeded draws, tokens, labels); "close" holds computed floats (libm and summation order may differ in
// the last bits). Floats are printed with 9 significant digits, which round-trips float32 exactly.
#include <cstdio>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/error.hpp"
#include "core/gemm.hpp"
#include "core/positions.hpp"
#include "core/rng.hpp"
#include "core/seeded_router.hpp"

namespace {

// A tiny JSON writer: enough for nested objects of numbers, strings and matrices.
class Json {
 public:
  void open(const char* key) {
    sep(key);
    out_ += '{';
    first_ = true;
  }
  void close() {
    out_ += '}';
    first_ = false;
  }
  void number(const char* key, double v) {
    sep(key);
    append_number(v);
  }
  void integer(const char* key, long long v) {
    sep(key);
    out_ += std::to_string(v);
  }
  void text(const char* key, const std::string& v) {
    sep(key);
    append_string(v);
  }
  void strings(const char* key, const std::vector<std::string>& v) {
    sep(key);
    out_ += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      append_string(v[i]);
    }
    out_ += ']';
  }
  // m (rows, cols) -> [[...], ...]
  void matrix(const char* key, const attn::Mat& m) {
    sep(key);
    out_ += '[';
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      if (r) out_ += ',';
      out_ += '[';
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (c) out_ += ',';
        append_number(m(r, c));
      }
      out_ += ']';
    }
    out_ += ']';
  }
  const std::string& str() const { return out_; }

 private:
  void sep(const char* key) {
    if (!first_) out_ += ',';
    first_ = false;
    if (key) {
      append_string(key);
      out_ += ':';
    }
  }
  void append_number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    out_ += buf;
  }
  void append_string(const std::string& s) {
    out_ += '"';
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out_ += '\\';
      out_ += ch;
    }
    out_ += '"';
  }
  std::string out_;
  bool first_ = true;
};

attn::Mat row_matrix(const attn::RowVec& v) {
  return attn::Mat(v);
}

}  // namespace

int main() {
  Json bits, approx;  // -> "exact" and "close"
  bits.open(nullptr);
  approx.open(nullptr);

  // 1. sinusoidal table, d_model 8, positions 0..20 (sin/cos from each platform's libm)
  const std::vector<int> positions = attn::range_positions(21);
  approx.matrix("sinusoidal_d8_p0_20", attn::PositionClock(8).table(positions));

  // 2. learned table, 32 slots x 8 dims, seed 3 (seeded draws: bit-identical)
  const attn::Learned learned(32, 8, 3);
  bits.matrix("learned_seed3_weights", learned.weights);
  bits.matrix("learned_seed3_table_p0_20", learned.table(positions));

  // 3. multi-head attention: x (6, 8) from Rng(11), weights from MhaWeights::random(8, 2, seed 5)
  attn::Rng rng(11);
  const attn::Mat x = rng.normal_matrix(6, 8, 1.0f);
  const attn::MhaWeights w = attn::MhaWeights::random(8, 2, 5);
  bits.matrix("mha_x", x);
  bits.matrix("mha_w_qkv", w.w_qkv);
  bits.matrix("mha_w_o", w.w_o);
  struct Case {
    const char* name;
    attn::Scheme scheme;
    bool causal;
  };
  const Case cases[] = {{"none", attn::Scheme::None, false},
                        {"rope", attn::Scheme::Rope, false},
                        {"alibi_causal", attn::Scheme::Alibi, true}};
  approx.open("mha");
  for (const Case& c : cases) {
    attn::AttentionOptions opt;
    opt.positions = c.scheme;
    opt.causal = c.causal;
    const attn::MhaResult r = attn::multi_head(x, w, opt);
    approx.open(c.name);
    approx.matrix("output", r.output);
    for (size_t h = 0; h < r.head.size(); ++h) {
      const std::string key = "weights_head" + std::to_string(h);
      approx.matrix(key.c_str(), r.head[h].weights);
    }
    approx.close();
  }
  approx.close();

  // 4. the refund router on the lesson's two emails, without and with positions
  const char* emails[] = {"Refund the delivery fee, not the cake.", "Refund the cake, not the delivery fee."};
  const std::pair<const char*, attn::Scheme> schemes[] = {{"none", attn::Scheme::None},
                                                          {"sinusoidal", attn::Scheme::Sinusoidal}};
  bits.open("router");
  approx.open("router");
  for (const auto& [scheme_name, scheme] : schemes) {
    attn::SeededRouterConfig config;
    config.positions = scheme;
    const attn::SeededRouter router(config);
    bits.open(scheme_name);
    approx.open(scheme_name);
    for (int e = 0; e < 2; ++e) {
      const attn::SeededRouterResult r = router.classify(emails[e]);
      const std::string key = "email" + std::to_string(e);
      bits.open(key.c_str());
      bits.strings("tokens", r.tokens);
      bits.integer("label", r.label);
      bits.close();
      approx.open(key.c_str());
      approx.number("probability0", r.probabilities[0]);
      approx.number("probability1", r.probabilities[1]);
      approx.number("confidence", r.confidence);
      approx.matrix("pooled", row_matrix(r.pooled));
      approx.close();
    }
    bits.close();
    approx.close();
  }
  bits.close();
  approx.close();

  // 5. the float kernels (core/gemm.hpp): one source, only IEEE multiplies and adds in a fixed order, so
  //    the products and the exp are bit-identical natively and in wasm
  {
    attn::Rng krng(21);
    const attn::Mat a = krng.normal_matrix(9, 70, 1.0f), b = krng.normal_matrix(70, 11, 1.0f);
    const attn::Mat keys = krng.normal_matrix(13, 70, 1.0f);
    attn::Mat ab(9, 11), abt(9, 13);
    attn::gemm::multiply(attn::gemm::in(a), attn::gemm::in(b), attn::gemm::out(ab));
    attn::gemm::multiply_bt(attn::gemm::in(a), attn::gemm::in(keys), attn::gemm::out(abt), 0.125f);
    bits.matrix("gemm_ab", ab);
    bits.matrix("gemm_abt_scaled", abt);
    attn::Mat xs(1, 41), e(1, 41);
    for (int i = 0; i < 41; ++i) {
      const float step = 4.7f * static_cast<float>(i);  // two statements: clang would fold a fused a*b+c
      xs(0, i) = step - 100.0f;
    }
    attn::gemm::exp(xs.data(), e.data(), 41);
    bits.matrix("exp_minus100_to_88", e);
  }

  // 6. errors are values: the core throws InputError and the caller catches it (wasm exceptions work)
  try {
    attn::head_dim(512, 6);
    bits.text("error_512_6", "no error");
  } catch (const attn::InputError& e) {
    bits.text("error_512_6", e.what());
  }

  bits.close();
  approx.close();
  std::printf("{\"exact\":%s,\"close\":%s}\n", bits.str().c_str(), approx.str().c_str());
  return 0;
}
