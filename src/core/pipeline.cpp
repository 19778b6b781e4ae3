// The seeded attention pipeline behind the attention scenes and `attention_cli attend` with a text.
#include "pipeline.hpp"

#include "error.hpp"
#include "rng.hpp"
#include "tokenizer.hpp"

namespace attn {

const std::vector<Scheme>& pipeline_schemes() {
  static const std::vector<Scheme> s = {Scheme::None, Scheme::Sinusoidal, Scheme::Learned, Scheme::Rope,
                                        Scheme::Alibi};
  return s;
}

Mat additive_positions(const PipelineConfig& c, int t) {
  if (c.positions == Scheme::Sinusoidal) return Sinusoidal(c.d_model, c.base).table(range_positions(t));
  if (c.positions == Scheme::Learned) {
    return Learned(c.learned_slots, c.d_model, mix_seed(c.seed, 21)).table(range_positions(t));
  }
  return Mat();
}

PipelineResult run_pipeline(const std::vector<std::string>& tokens, const PipelineConfig& c) {
  if (tokens.empty()) throw InputError("the text is empty; type at least one word");
  head_dim(c.d_model, c.heads);
  PipelineResult r;
  r.tokens = tokens;
  if (r.tokens.size() > static_cast<size_t>(kMaxTokens)) {
    r.dropped_tokens = static_cast<int>(r.tokens.size()) - kMaxTokens;
    r.tokens.resize(static_cast<size_t>(kMaxTokens));
  }
  const auto t = static_cast<int>(r.tokens.size());
  // 1. embeddings (T, D) and the additive position table (T, D)
  r.embeddings = embed_tokens(r.tokens, c.d_model, c.seed);
  r.position_table = additive_positions(c, t);
  r.inputs = r.position_table.size() ? Mat(r.embeddings + r.position_table) : r.embeddings;
  // 2. attention; RoPE and ALiBi act inside it
  AttentionOptions opt;
  opt.causal = c.causal;
  opt.positions = c.positions == Scheme::Rope || c.positions == Scheme::Alibi ? c.positions : Scheme::None;
  opt.rope_base = c.base;
  r.mha = multi_head(r.inputs, MhaWeights::random(c.d_model, c.heads, mix_seed(c.seed, 22)), opt);
  // 3. what each head does
  for (const HeadResult& h : r.mha.head) r.stats.push_back(head_stats(h.weights));
  return r;
}

PipelineResult run_pipeline(const std::string& text, const PipelineConfig& c) {
  return run_pipeline(tokenize(text), c);
}

}  // namespace attn
