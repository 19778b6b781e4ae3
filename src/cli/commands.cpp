// Implements the attention_cli subcommands on top of the core; all validation errors are InputError.
#include "commands.hpp"

#include "core/encoder.hpp"
#include "core/error.hpp"
#include "core/pipeline.hpp"
#include "core/positions.hpp"
#include "core/seeded_router.hpp"
#include "core/tokenizer.hpp"

namespace attn::cli {
namespace {

const std::vector<Scheme> kAttendSchemes = {Scheme::None, Scheme::Sinusoidal, Scheme::Learned, Scheme::Rope,
                                            Scheme::Alibi};

// Position settings shared by `attend` and `block`: reads "positions", "causal", "base", "max_len", "seed"
// and adds additive tables to every (T, D) item of x.
AttentionOptions prepare_positions(const json& j, Batch& x) {
  AttentionOptions opt;
  opt.positions = parse_scheme(string_field(j, "positions", "none"), kAttendSchemes);
  opt.causal = bool_field(j, "causal", false);
  opt.rope_base = number_field(j, "base", 10000.0);
  const auto t = static_cast<int>(x[0].rows());
  const int d = static_cast<int>(x[0].cols());
  Mat table;
  if (opt.positions == Scheme::Sinusoidal) table = Sinusoidal(d, opt.rope_base).table(range_positions(t));
  if (opt.positions == Scheme::Learned) {
    const auto seed = static_cast<std::uint64_t>(int_field(j, "seed", 7));
    table = Learned(int_field(j, "max_len", 128), d, seed).table(range_positions(t));
  }
  if (table.size() > 0) {
    for (Mat& item : x) item += table;
  }
  return opt;
}

// Reorders per-item results into the rank of x: one item when unbatched, else an array.
json by_rank(const json& items, bool batched) {
  return batched ? items : items[0];
}

// Every intermediate of an encoder block, named as in the lesson notes' pipeline.
json block_json(const EncoderResult& r) {
  json head_weights = json::array();
  for (const HeadResult& h : r.mha.head) head_weights.push_back(to_json(h.weights));
  return {{"input", to_json(r.input)},   {"attention", to_json(r.mha.output)},
          {"weights", head_weights},     {"residual1", to_json(r.residual1)},
          {"norm1", to_json(r.norm1)},   {"hidden", to_json(r.hidden)},
          {"ffn", to_json(r.ffn)},       {"residual2", to_json(r.residual2)},
          {"output", to_json(r.output)}, {"d_model", r.input.cols()}};
}

// The seeded pipeline's settings from the JSON fields the attention scenes use.
PipelineConfig pipeline_config(const json& j) {
  PipelineConfig c;
  c.d_model = int_field(j, "d_model", 16);
  c.heads = int_field(j, "heads", 4);
  c.positions = parse_scheme(string_field(j, "positions", "none"), kAttendSchemes);
  c.causal = bool_field(j, "causal", false);
  c.seed = static_cast<std::uint64_t>(int_field(j, "seed", 7));
  c.learned_slots = int_field(j, "max_len", 128);
  c.base = number_field(j, "base", 10000.0);
  return c;
}

// The most numbers one command prints (about 40 MB of JSON): larger requests are refused before any work.
constexpr long long kMaxPrintedNumbers = 4194304;

void require_printable(long long numbers, const std::string& what) {
  if (numbers <= kMaxPrintedNumbers) return;
  throw InputError("this would print " + std::to_string(numbers) + " numbers for " + what +
                   "; allowed: up to " + std::to_string(kMaxPrintedNumbers) +
                   " (use fewer tokens, positions or heads, or a smaller d_model)");
}

json stats_json(const std::vector<HeadStats>& stats) {
  json out = json::array();
  for (const HeadStats& s : stats) {
    out.push_back({{"entropy", s.entropy},
                   {"mean_distance", s.mean_distance},
                   {"first_token_mass", s.first_token_mass}});
  }
  return out;
}

// `attend` with a "text": the seeded layer of the attention scenes, same numbers as the page.
json run_text_attention(const json& j) {
  const PipelineConfig c = pipeline_config(j);
  const long long t =
      std::min<long long>(kMaxTokens, static_cast<long long>(string_field(j, "text", "").size()));
  require_printable(2LL * c.heads * t * t + 2LL * t * c.d_model,
                    "the weights and scores of every head (2 x heads x T x T) and the output");
  const PipelineResult r = run_pipeline(string_field(j, "text", ""), c);
  json weights = json::array(), scores = json::array();
  for (const HeadResult& h : r.mha.head) {
    weights.push_back(to_json(h.weights));
    scores.push_back(to_json(h.scores));
  }
  return {{"tokens", r.tokens},           {"dropped_tokens", r.dropped_tokens},
          {"inputs", to_json(r.inputs)},  {"output", to_json(r.mha.output)},
          {"weights", weights},           {"scores", scores},
          {"stats", stats_json(r.stats)}, {"parameters", count_parameters(c.d_model, c.heads).fused}};
}

json run_single_head(const json& j, const Batch& x, const AttentionOptions& opt, bool batched) {
  long long numbers = 0;
  for (const Mat& item : x) numbers += item.rows() * item.rows() + item.size();
  require_printable(numbers, "the weights (T x T) and the output");
  const Mat w_q = matrix_from_json(j.at("w_q"), "w_q");
  const Mat w_k = matrix_from_json(j.value("w_k", json()), "w_k");
  const Mat w_v = matrix_from_json(j.value("w_v", json()), "w_v");
  json outputs = json::array(), weights = json::array();
  for (const Mat& item : x) {
    const HeadResult r = single_head(item, w_q, w_k, w_v, opt);
    outputs.push_back(to_json(r.output));
    weights.push_back(json::array({to_json(r.weights)}));
  }
  const long long params = static_cast<long long>(w_q.size() + w_k.size() + w_v.size());
  return {
      {"output", by_rank(outputs, batched)}, {"weights", by_rank(weights, batched)}, {"parameters", params}};
}

}  // namespace

json run_pe(const PeOptions& o) {
  const Scheme scheme =
      parse_scheme(o.scheme, {Scheme::Sinusoidal, Scheme::Learned, Scheme::Raw, Scheme::Fraction});
  if (o.positions.empty() == (o.count < 0)) {
    throw InputError("give exactly one of --positions (e.g. 0,1,44) or --count N");
  }
  if (o.positions.empty() && o.count < 1) throw InputError("--count must be 1 or more (positions 0 .. N-1)");
  const long long rows = o.positions.empty() ? o.count : static_cast<long long>(o.positions.size());
  const bool appended = scheme == Scheme::Raw || scheme == Scheme::Fraction;  // one column
  require_printable(rows * (appended ? 1 : std::max(o.d_model, 1)),
                    "the position table (positions x d_model)");
  const std::vector<int> pos = o.positions.empty() ? range_positions(o.count) : o.positions;
  json out = {{"scheme", scheme_name(scheme)}, {"d_model", o.d_model}, {"positions", pos}};
  Mat table;
  switch (scheme) {
    case Scheme::Sinusoidal: {
      const Sinusoidal s(o.d_model, o.base);
      table = s.table(pos);
      out["base"] = o.base;
      out["speeds"] = s.speeds();
      out["wavelengths"] = s.wavelengths();
      break;
    }
    case Scheme::Learned:
      table = Learned(o.max_len, o.d_model, o.seed).table(pos);
      out["max_len"] = o.max_len;
      out["seed"] = o.seed;
      break;
    case Scheme::Raw:  // the lesson's naive attempts append one number to each embedding: one column
      require_range(o.d_model, 1, kMaxDModel, "--d-model");
      table = raw_position_table(pos, 1);
      out["width_after_appending"] = o.d_model + 1;
      break;
    default: {
      int length = o.length;
      if (length < 0) length = pos.empty() ? 1 : *std::max_element(pos.begin(), pos.end()) + 1;
      require_range(o.d_model, 1, kMaxDModel, "--d-model");
      table = fraction_position_table(pos, length, 1);
      out["length"] = length;
      out["width_after_appending"] = o.d_model + 1;
    }
  }
  out["table"] = to_json(table);
  return out;
}

json run_attend(const std::string& input_path) {
  return run_attend_document(read_json_input(input_path));
}

json run_attend_document(const json& j) {
  if (!j.contains("x") && j.contains("text")) return run_text_attention(j);
  if (!j.contains("x")) throw InputError("the input needs \"x\": (T, D) or (B, T, D) numbers, or a \"text\"");
  bool batched = false;
  Batch x = batch_from_json(j.at("x"), "x", batched);
  const AttentionOptions opt = prepare_positions(j, x);
  if (j.contains("w_q")) return run_single_head(j, x, opt, batched);

  if (!j.contains("heads") || !j.contains("w_qkv") || !j.contains("w_o")) {
    throw InputError(
        "the input needs \"heads\", \"w_qkv\" (D, 3D) and \"w_o\" (D, D), or \"w_q\", \"w_k\", "
        "\"w_v\" (D, d_k) for a single head");
  }
  MhaWeights w;
  w.heads = int_field(j, "heads", 1);
  long long numbers = 0;
  for (const Mat& item : x)
    numbers += static_cast<long long>(w.heads) * item.rows() * item.rows() + item.size();
  require_printable(numbers, "the weights of every head (heads x T x T) and the output");
  w.w_qkv = matrix_from_json(j.at("w_qkv"), "w_qkv");
  w.w_o = matrix_from_json(j.at("w_o"), "w_o");
  json outputs = json::array(), weights = json::array();
  for (const MhaResult& r : multi_head(x, w, opt)) {
    outputs.push_back(to_json(r.output));
    json heads = json::array();
    for (const HeadResult& h : r.head) heads.push_back(to_json(h.weights));
    weights.push_back(std::move(heads));
  }
  return {{"output", by_rank(outputs, batched)},
          {"weights", by_rank(weights, batched)},
          {"parameters", count_parameters(static_cast<int>(x[0].cols()), w.heads).fused}};
}

json run_params(int d_model, int heads) {
  const ParameterCount p = count_parameters(d_model, heads);
  return {{"d_model", d_model},
          {"heads", heads},
          {"d_k", p.d_k},
          {"fused_parameters", p.fused},
          {"single_head_parameters", p.single_head}};
}

json run_router(const RouterOptions& o) {
  SeededRouterConfig c;
  c.positions = parse_scheme(o.positions, {Scheme::None, Scheme::Sinusoidal, Scheme::Learned, Scheme::Rope});
  c.seed = o.seed;
  c.d_model = o.d_model;
  c.heads = o.heads;
  c.learned_slots = o.max_len;
  const SeededRouter router(c);
  const SeededRouterResult r = router.classify(o.text);
  return {{"tokens", r.tokens},
          {"positions", scheme_name(c.positions)},
          {"labels", SeededRouter::labels()},
          {"label", SeededRouter::labels()[static_cast<size_t>(r.label)]},
          {"confidence", r.confidence},
          {"probabilities", r.probabilities}};
}

json run_block(const std::string& input_path) {
  return run_block_document(read_json_input(input_path));
}

json run_block_document(const json& j) {
  if (!j.contains("x") && j.contains("text")) {
    const PipelineConfig c = pipeline_config(j);
    const long long t =
        std::min<long long>(kMaxTokens, static_cast<long long>(string_field(j, "text", "").size()));
    require_printable(t * (7LL * c.d_model + int_field(j, "d_ff", 4 * c.d_model)) + c.heads * t * t,
                      "every intermediate of the block and every head's weights");
    const EncoderPipelineResult r =
        run_encoder_pipeline(string_field(j, "text", ""), c, int_field(j, "d_ff", 4 * c.d_model));
    json out = block_json(r.block);
    out["tokens"] = r.tokens;
    out["dropped_tokens"] = r.dropped_tokens;
    out["heads"] = c.heads;
    out["d_ff"] = r.d_ff;
    return out;
  }
  if (!j.contains("x")) throw InputError("the input needs \"x\" (T, D) numbers or a \"text\" to embed");
  const auto seed = static_cast<std::uint64_t>(int_field(j, "seed", 7));
  Batch x = {matrix_from_json(j.at("x"), "x")};
  const int d = static_cast<int>(x[0].cols());
  const int heads = int_field(j, "heads", 1);
  const long long t = x[0].rows();
  require_printable(t * (7LL * d + int_field(j, "d_ff", 4 * d)) + static_cast<long long>(heads) * t * t,
                    "every intermediate of the block and every head's weights");
  EncoderWeights w = EncoderWeights::random(d, heads, int_field(j, "d_ff", 4 * d), seed);
  // Given weights replace the seeded ones, field by field.
  if (j.contains("w_qkv")) w.attention.w_qkv = matrix_from_json(j["w_qkv"], "w_qkv");
  if (j.contains("w_o")) w.attention.w_o = matrix_from_json(j["w_o"], "w_o");
  if (j.contains("w1")) w.w1 = matrix_from_json(j["w1"], "w1");
  if (j.contains("b1")) w.b1 = row_from_json(j["b1"], "b1");
  if (j.contains("w2")) w.w2 = matrix_from_json(j["w2"], "w2");
  if (j.contains("b2")) w.b2 = row_from_json(j["b2"], "b2");
  if (j.contains("ln1_gain")) w.ln1_gain = row_from_json(j["ln1_gain"], "ln1_gain");
  if (j.contains("ln1_bias")) w.ln1_bias = row_from_json(j["ln1_bias"], "ln1_bias");
  if (j.contains("ln2_gain")) w.ln2_gain = row_from_json(j["ln2_gain"], "ln2_gain");
  if (j.contains("ln2_bias")) w.ln2_bias = row_from_json(j["ln2_bias"], "ln2_bias");
  w.attention.heads = heads;
  const AttentionOptions opt = prepare_positions(j, x);
  json out = block_json(encoder_block(x[0], w, opt));
  out["heads"] = heads;
  out["d_ff"] = w.d_ff();
  return out;
}

}  // namespace attn::cli
