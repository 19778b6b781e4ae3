// The seeded attention pipeline behind the attention scenes and `attention_cli attend` with a text.
#include "pipeline.hpp"

#include <algorithm>

#include "error.hpp"
#include "rng.hpp"
#include "tokenizer.hpp"

namespace attn {

const std::vector<Scheme>& pipeline_schemes() {
  static const std::vector<Scheme> s = schemes_for(kUseAttention);
  return s;
}

Mat additive_positions(const PipelineConfig& c, int t) {
  SchemeArgs args;
  args.d_model = c.d_model;
  args.base = c.base;
  args.slots = c.learned_slots;
  args.seed = mix_seed(c.seed, 21);
  return added_positions(c.positions, t, args);
}

namespace {

// Cuts tokens to kMaxTokens; returns how many were dropped. Throws on an empty list.
int cut_tokens(std::vector<std::string>& tokens) {
  if (tokens.empty()) throw InputError("the text is empty; type at least one word");
  if (tokens.size() <= static_cast<size_t>(kMaxTokens)) return 0;
  const int dropped = static_cast<int>(tokens.size()) - kMaxTokens;
  tokens.resize(static_cast<size_t>(kMaxTokens));
  return dropped;
}

// embeddings (T, D) + the additive table (T, D) when the scheme has one.
Mat add_positions(const Mat& embeddings, const Mat& table) {
  return table.size() ? Mat(embeddings + table) : embeddings;
}

}  // namespace

AttentionOptions attention_options(const PipelineConfig& c) {
  AttentionOptions opt;
  opt.causal = c.causal;
  opt.positions = c.positions;
  opt.rope_base = c.base;
  return opt;
}

MhaWeights scene_weights(const PipelineConfig& c) {
  return MhaWeights::random(c.d_model, c.heads, mix_seed(c.seed, 22), kSceneWeightGain);
}

PipelineSteps::PipelineSteps(const std::vector<std::string>& tokens, const PipelineConfig& c,
                             std::shared_ptr<const MhaWeights> weights, int step_rows, HeadSpan span)
    : weights_(std::move(weights)), span_(span) {
  start(tokens, c, step_rows);
}

PipelineSteps::PipelineSteps(const std::string& text, const PipelineConfig& c,
                             std::shared_ptr<const MhaWeights> weights, int step_rows, HeadSpan span)
    : weights_(std::move(weights)), span_(span) {
  std::size_t total = 0;
  start(tokenize(text, kMaxTokens, &total), c, step_rows);
  result_.dropped_tokens = static_cast<int>(std::min<std::size_t>(total - result_.tokens.size(), INT32_MAX));
}

void PipelineSteps::start(const std::vector<std::string>& tokens, const PipelineConfig& c, int step_rows) {
  parse_scheme(scheme_name(c.positions), pipeline_schemes());
  head_dim(c.d_model, c.heads);
  span_.end = span_.end_of(c.heads);
  stats_done_ = span_.begin;
  PipelineResult& r = result_;
  r.tokens = tokens;
  r.dropped_tokens = cut_tokens(r.tokens);
  const auto t = static_cast<int>(r.tokens.size());
  // 1. embeddings (T, D) and the additive position table (T, D)
  r.embeddings = embed_tokens(r.tokens, c.d_model, c.seed);
  r.position_table = additive_positions(c, t);
  r.inputs = add_positions(r.embeddings, r.position_table);
  // 2. attention; RoPE and ALiBi act inside it
  if (!weights_) weights_ = std::make_shared<const MhaWeights>(scene_weights(c));
  mha_ = std::make_unique<MhaSteps>(r.inputs, *weights_, attention_options(c), step_rows, nullptr, span_);
  mha_total_ = mha_->steps_total();
}

void PipelineSteps::step() {
  if (mha_) {
    mha_->step();
    if (mha_->done()) {
      result_.mha = mha_->take();
      mha_.reset();
    }
    return;
  }
  // 3. what each head does
  if (stats_done_ < span_.end) {
    result_.stats.push_back(head_stats(result_.mha.head[static_cast<size_t>(stats_done_++)].weights));
  }
}

float PipelineSteps::progress() const {
  const int heads = span_.end - span_.begin;
  const int done = mha_ ? mha_->steps_done() : mha_total_ + stats_done_ - span_.begin;
  return static_cast<float>(done) / static_cast<float>(mha_total_ + heads);
}

PipelineResult PipelineSteps::take() {
  if (!done()) throw InputError("the pipeline has not finished its steps");
  return std::move(result_);
}

PipelineResult run_pipeline(const std::vector<std::string>& tokens, const PipelineConfig& c,
                            const MhaWeights* weights) {
  // a given weights object is borrowed (an owner-less pointer), not copied
  PipelineSteps steps(
      tokens, c, weights ? std::shared_ptr<const MhaWeights>(std::shared_ptr<void>(), weights) : nullptr);
  while (!steps.done()) steps.step();
  return steps.take();
}

PipelineResult run_pipeline(const std::string& text, const PipelineConfig& c, const MhaWeights* weights) {
  PipelineSteps steps(
      text, c, weights ? std::shared_ptr<const MhaWeights>(std::shared_ptr<void>(), weights) : nullptr);
  while (!steps.done()) steps.step();
  return steps.take();
}

}  // namespace attn

namespace attn {

EncoderPipelineResult run_encoder_pipeline(const std::string& text, const PipelineConfig& c, int d_ff) {
  parse_scheme(scheme_name(c.positions), pipeline_schemes());
  head_dim(c.d_model, c.heads);
  EncoderPipelineResult r;
  std::size_t total = 0;
  r.tokens = tokenize(text, kMaxTokens, &total);
  cut_tokens(r.tokens);  // throws for an empty text
  r.dropped_tokens = static_cast<int>(std::min<std::size_t>(total - r.tokens.size(), INT32_MAX));
  r.d_ff = d_ff;
  const auto t = static_cast<int>(r.tokens.size());
  const Mat x = add_positions(embed_tokens(r.tokens, c.d_model, c.seed), additive_positions(c, t));
  r.block = encoder_block(x, EncoderWeights::random(c.d_model, c.heads, d_ff, mix_seed(c.seed, 23)),
                          attention_options(c));
  return r;
}

}  // namespace attn
