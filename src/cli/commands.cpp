// Implements the attention_cli subcommands on top of the core; all validation errors are InputError.
#include "commands.hpp"

#include "core/encoder.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "core/pipeline.hpp"
#include "core/positions.hpp"
#include "core/seeded_router.hpp"
#include "core/tokenizer.hpp"

namespace attn::cli {
namespace {

// Position settings shared by `attend` and `block`: reads "positions", "causal", "base", "max_len", "seed"
// and adds additive tables to every (T, D) item of x.
AttentionOptions prepare_positions(const json& j, Batch& x) {
  AttentionOptions opt;
  opt.positions = parse_scheme(string_field(j, "positions", "none"), pipeline_schemes());
  opt.causal = bool_field(j, "causal", false);
  opt.rope_base = number_field(j, "base", 10000.0);
  SchemeArgs args;
  args.d_model = static_cast<int>(x[0].cols());
  args.base = opt.rope_base;
  if (scheme_def(opt.positions).added) {  // only what a scheme's table reads
    args.slots = int_field(j, "max_len", 128);
    args.seed = seed_field(j, "seed", 7);
  }
  const Mat table = added_positions(opt.positions, static_cast<int>(x[0].rows()), args);
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
  c.d_model = static_cast<int>(whole_field(j, "d_model", 16, 1, kMaxDModel));
  c.heads = static_cast<int>(whole_field(j, "heads", 4, 1, kMaxDModel));
  c.positions = parse_scheme(string_field(j, "positions", "none"), pipeline_schemes());
  c.causal = bool_field(j, "causal", false);
  c.seed = seed_field(j, "seed", 7);
  c.learned_slots = int_field(j, "max_len", 128);
  c.base = number_field(j, "base", 10000.0);
  return c;
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

// The feed-forward width F of `block` with an x (T, d): the width of a given w1, which a given "d_ff" must
// equal; else "d_ff"; else 4 x d. The seeded weights left out are drawn at this width.
int ffn_width(const json& j, int d) {
  const long long given = matrix_width(j, "w1", 0);
  if (given == 0) return static_cast<int>(whole_field(j, "d_ff", 4LL * d, 1, 4LL * kMaxDModel));
  const long long d_ff = whole_field(j, "d_ff", given, 1, 4LL * kMaxDModel);
  if (d_ff != given) {
    throw_input_error({"\"d_ff\" is ", d_ff, " but w1 has ", given,
                       " columns; the feed-forward width is w1's (D, F): leave d_ff out or make them agree"});
  }
  return static_cast<int>(given);
}

// `attend` with a "text": the seeded layer of the attention scenes, same numbers as the page.
json run_text_attention(const json& j) {
  const PipelineConfig c = pipeline_config(j);
  const long long t =
      std::min<long long>(kMaxTokens, static_cast<long long>(string_field(j, "text", "").size()));
  WorkCount work = multi_head_work(1, t, c.d_model, c.heads);
  work.printed += c.heads * t * t + t * c.d_model;  // the scores and the inputs too
  require_within_caps(work,
                      "the weights and scores of every head (2 x heads x T x T), the inputs and output");
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

// One head, w_q, w_k (D, d_k) and w_v (D, d_v) given: x is B items of (T, D) with positions added.
json run_single_head(const json& j, const Batch& x, const AttentionOptions& opt, bool batched) {
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
  const Scheme scheme = parse_scheme(o.scheme, schemes_for(kUseTable));
  const SchemeDef& def = scheme_def(scheme);
  if (o.positions.empty() == (o.count < 0)) {
    throw InputError("give exactly one of --positions (e.g. 0,1,44) or --count N");
  }
  if (o.positions.empty() && o.count < 1) throw InputError("--count must be 1 or more (positions 0 .. N-1)");
  if (o.length_given && !def.takes_length) {
    throw InputError("--length is the text length of --scheme fraction; the " + scheme_name(scheme) +
                     " scheme has none");
  }
  const long long rows = o.positions.empty() ? o.count : static_cast<long long>(o.positions.size());
  require_printable(rows * (def.appended ? 1 : std::max(o.d_model, 1)),
                    "the position table (positions x d_model)");
  const std::vector<int> pos = o.positions.empty() ? range_positions(o.count) : o.positions;
  json out = {{"scheme", scheme_name(scheme)}, {"d_model", o.d_model}, {"positions", pos}};
  SchemeArgs args;
  args.d_model = o.d_model;
  args.base = o.base;
  args.slots = o.max_len;
  args.seed = o.seed;
  if (o.length_given) args.length = o.length;
  SchemeArgs table_args = args;
  if (def.appended) {  // the lesson's naive attempts append one number to each embedding: one column
    require_range(o.d_model, 1, kMaxDModel, "--d-model");
    table_args.d_model = 1;
  }
  const Mat table = def.added(pos, table_args);
  if (def.facts) {
    for (const SchemeFact& f : def.facts(pos, args)) {
      if (f.list) {
        out[f.name] = f.values;
      } else if (f.whole) {
        out[f.name] = static_cast<long long>(f.values[0]);
      } else {
        out[f.name] = f.values[0];
      }
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
  const auto b = static_cast<long long>(x.size());
  const long long t = x[0].rows(), d = x[0].cols();
  if (j.contains("w_q")) {
    require_within_caps(single_head_work(b, t, d, matrix_width(j, "w_q", 0), matrix_width(j, "w_k", 0),
                                         matrix_width(j, "w_v", 0)),
                        "the weights (T x T) and the output (T x d_v)");
    const AttentionOptions opt = prepare_positions(j, x);
    return run_single_head(j, x, opt, batched);
  }

  if (!j.contains("heads") || !j.contains("w_qkv") || !j.contains("w_o")) {
    throw InputError(
        "the input needs \"heads\", \"w_qkv\" (D, 3D) and \"w_o\" (D, D), or \"w_q\", \"w_k\", "
        "\"w_v\" (D, d_k) for a single head");
  }
  MhaWeights w;
  w.heads = int_field(j, "heads", 1);
  head_dim(static_cast<int>(d), w.heads);  // 1 <= heads <= D before they are counted
  require_within_caps(multi_head_work(b, t, d, w.heads),
                      "the weights of every head (heads x T x T) and the output");
  const AttentionOptions opt = prepare_positions(j, x);
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
          {"parameters", count_parameters(static_cast<int>(d), w.heads).fused}};
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
  c.positions = parse_scheme(o.positions, schemes_for(kUseRouter));
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
  const char* printed = "every intermediate of the block and every head's weights";
  if (!j.contains("x") && j.contains("text")) {
    const PipelineConfig c = pipeline_config(j);
    const long long t =
        std::min<long long>(kMaxTokens, static_cast<long long>(string_field(j, "text", "").size()));
    const int d_ff = static_cast<int>(whole_field(j, "d_ff", 4LL * c.d_model, 1, 4LL * kMaxDModel));
    require_within_caps(block_work(t, c.d_model, c.heads, d_ff), printed);
    const EncoderPipelineResult r = run_encoder_pipeline(string_field(j, "text", ""), c, d_ff);
    json out = block_json(r.block);
    out["tokens"] = r.tokens;
    out["dropped_tokens"] = r.dropped_tokens;
    out["heads"] = c.heads;
    out["d_ff"] = r.d_ff;
    return out;
  }
  if (!j.contains("x")) throw InputError("the input needs \"x\" (T, D) numbers or a \"text\" to embed");
  Batch x = {matrix_from_json(j.at("x"), "x")};
  const int d = static_cast<int>(x[0].cols());
  const int heads = int_field(j, "heads", 1);
  head_dim(d, heads);  // 1 <= heads <= D before they are counted
  const int d_ff = ffn_width(j, d);
  require_within_caps(block_work(x[0].rows(), d, heads, d_ff), printed);
  EncoderWeights w = EncoderWeights::random(d, heads, d_ff, seed_field(j, "seed", 7));
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
