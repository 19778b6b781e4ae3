// The seeded refund router: an untrained classifier that shows why attention needs positions.
#include "seeded_router.hpp"

#include <cmath>

#include "error.hpp"
#include "ops.hpp"
#include "rng.hpp"
#include "tokenizer.hpp"

namespace attn {

SeededRouter::SeededRouter(const SeededRouterConfig& config) : config_(config) {
  parse_scheme(scheme_name(config.positions), schemes_for(kUseRouter));
  attention_ = MhaWeights::random(config.d_model, config.heads, mix_seed(config.seed, 11));
  Rng rng(mix_seed(config.seed, 12));
  classifier_ = rng.normal_matrix(config.d_model, 2, 1.0f / std::sqrt(static_cast<float>(config.d_model)));
  bias_ = RowVec::Zero(2);
}

const std::array<std::string, 2>& SeededRouter::labels() {
  static const std::array<std::string, 2> names = {"refund the fee", "refund the item"};
  return names;
}

SeededRouterResult SeededRouter::classify(const std::string& text) const {
  SeededRouterResult r;
  std::size_t total = 0;
  r.tokens = tokenize(text, kMaxTokens, &total);
  if (r.tokens.empty()) throw InputError("the email is empty; type at least one word");
  if (total > static_cast<size_t>(kMaxTokens)) {
    throw_input_error({"the email has ", total, " tokens; allowed: up to ", kMaxTokens});
  }
  const int t = static_cast<int>(r.tokens.size());

  // 1. embeddings (T, D), plus the position table for additive schemes
  r.inputs = embed_tokens(r.tokens, config_.d_model, config_.seed);
  SchemeArgs args;
  args.d_model = config_.d_model;
  args.slots = config_.learned_slots;
  args.seed = config_.seed;
  const Mat table = added_positions(config_.positions, t, args);
  if (table.size() > 0) r.inputs += table;
  // 2. attention (a scheme's rotation acts inside it)
  AttentionOptions opt;
  opt.positions = config_.positions;
  r.attention = multi_head(r.inputs, attention_, opt);
  // 3. mean pool (D,), 4. linear (2,), 5. softmax
  r.pooled = ops::mean_pool(r.attention.output);
  const RowVec logits = r.pooled * classifier_ + bias_;
  Mat probs;
  ops::softmax_forward<float>(logits, probs);
  r.probabilities = {probs(0, 0), probs(0, 1)};
  r.label = r.probabilities[1] > r.probabilities[0] ? 1 : 0;
  r.confidence = r.probabilities[static_cast<size_t>(r.label)];
  return r;
}

}  // namespace attn
