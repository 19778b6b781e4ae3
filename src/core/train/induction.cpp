// The induction task: repeated random sequences, next-token training and the previous-token and
// prefix-matching scores of each head.
#include "core/train/induction.hpp"

#include <utility>

#include "core/error.hpp"
#include "core/ops.hpp"

namespace attn::train {
namespace {

void require_length(int length) {
  require_range(length, 4, kMaxTokens, "the sequence length");
  if (length % 2 != 0)
    throw_input_error({"the sequence length must be even (two equal halves), not ", length});
}

}  // namespace

ModelConfig induction_model_config(const InductionConfig& cfg, Scheme positions, std::uint64_t seed) {
  ModelConfig c;
  c.d_model = 32;
  c.heads = 4;
  c.layers = 2;
  c.d_ff = 0;
  c.vocab = cfg.tokens;
  c.classes = cfg.tokens;
  c.max_len = cfg.length;
  c.positions = positions;
  c.seed = seed;
  c.causal = true;
  c.output = Output::NextToken;
  c.norm = Norm::PreLayerNorm;
  return c;
}

// `count` ids appended to ids, each run of `tokens` of them distinct: uniform draws without replacement
// (a partial Fisher-Yates shuffle), starting again from every id once all are used.
void draw_distinct(Rng& rng, int tokens, int count, std::vector<int>& ids) {
  std::vector<int> pool(static_cast<size_t>(tokens));
  for (int i = 0; i < tokens; ++i) pool[static_cast<size_t>(i)] = i;
  for (int i = 0; i < count; ++i) {
    const int k = i % tokens;  // the position in this run of draws
    const auto j =
        static_cast<size_t>(k) + static_cast<size_t>(rng.next_u64() % static_cast<std::uint64_t>(tokens - k));
    std::swap(pool[static_cast<size_t>(k)], pool[j]);
    ids.push_back(pool[static_cast<size_t>(k)]);
  }
}

std::vector<int> repeated_sequence(Rng& rng, int tokens, int length) {
  return segment_sequence(rng, tokens, length, length / 2);
}

std::vector<int> segment_sequence(Rng& rng, int tokens, int length, int segment) {
  require_length(length);
  require_range(tokens, 2, 100000, "the number of tokens");
  require_range(segment, 1, length / 2, "the repeated segment's length");
  std::vector<int> ids;
  ids.reserve(static_cast<size_t>(length));
  for (int i = 0; i < length - 2 * segment; ++i) {
    ids.push_back(static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(tokens)));
  }
  const size_t start = ids.size();
  draw_distinct(rng, tokens, segment, ids);
  for (int i = 0; i < segment; ++i) ids.push_back(ids[start + static_cast<size_t>(i)]);
  return ids;
}

std::vector<int> training_sequence(Rng& rng, int tokens, int length) {
  require_length(length);
  const int shortest = length / 4, longest = length / 2;
  const int segment =
      shortest + static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(longest - shortest + 1));
  return segment_sequence(rng, tokens, length, segment);
}

std::vector<int> next_token_targets(const std::vector<int>& ids) {
  std::vector<int> targets(ids.size(), -1);
  for (size_t i = 0; i + 1 < ids.size(); ++i) targets[i] = ids[i + 1];
  return targets;
}

std::vector<std::vector<int>> induction_eval_set(std::uint64_t seed, int tokens, int length, int count) {
  require_range(count, 1, 100000, "the number of held-out sequences");
  Rng rng(mix_seed(seed, 0x1dc7e57ULL + static_cast<std::uint64_t>(length)));
  std::vector<std::vector<int>> set;
  for (int s = 0; s < count; ++s) set.push_back(repeated_sequence(rng, tokens, length));
  return set;
}

InductionMetrics evaluate_induction(const Model& model, const std::vector<std::vector<int>>& set,
                                    const HeadSwitch* off) {
  if (set.empty()) throw InputError("the held-out set has no sequences");
  const int layers = model.config.layers, heads = model.config.heads;
  const int t = static_cast<int>(set.front().size()), half = t / 2;
  InductionMetrics m;
  m.length = t;
  m.previous_token.assign(static_cast<size_t>(layers), std::vector<double>(static_cast<size_t>(heads), 0.0));
  m.induction = m.previous_token;
  double first = 0.0, second = 0.0;
  Forward f;
  Mat row;
  for (const auto& ids : set) {
    if (static_cast<int>(ids.size()) != t) throw InputError("the held-out sequences differ in length");
    model.forward(ids, f, off);
    // losses: position i predicts token i + 1
    for (int i = 0; i + 1 < t; ++i) {
      const int target = i + 1;
      if (target == half) continue;  // the repeat's first token: unpredictable, in neither half
      row = f.logits.row(i);
      const double loss = ops::cross_entropy(row, ids[static_cast<size_t>(target)]);
      (target < half ? first : second) += loss;
    }
    for (int l = 0; l < layers; ++l) {
      for (int h = 0; h < heads; ++h) {
        const Mat& w = f.weights(l, h);
        double match = 0.0;
        for (int i = half; i < t; ++i) match += w(i, i - half + 1);
        m.previous_token[static_cast<size_t>(l)][static_cast<size_t>(h)] += previous_token_weight(w);
        m.induction[static_cast<size_t>(l)][static_cast<size_t>(h)] += match / (t - half);
      }
    }
  }
  const double n = static_cast<double>(set.size());
  m.loss_first_half = first / (n * (half - 1));
  m.loss_second_half = second / (n * (half - 1));
  for (auto* scores : {&m.previous_token, &m.induction}) {
    for (auto& layer : *scores) {
      for (double& s : layer) s /= n;
    }
  }
  return m;
}

std::vector<HeadRole> induction_head_roles(const InductionMetrics& m) {
  std::vector<HeadRole> roles;
  for (size_t l = 0; l < m.previous_token.size(); ++l) {
    for (size_t h = 0; h < m.previous_token[l].size(); ++h) {
      HeadRole r;
      r.layer = static_cast<int>(l), r.head = static_cast<int>(h);
      r.scores = {{"previous_token", m.previous_token[l][h]}, {"induction", m.induction[l][h]}};
      r.role = role_of(r.scores);
      roles.push_back(std::move(r));
    }
  }
  return roles;
}

bool has_previous_token_head(const InductionMetrics& m) {
  if (m.previous_token.empty()) return false;
  for (double s : m.previous_token.front()) {
    if (s >= kRoleFloor) return true;
  }
  return false;
}

bool has_induction_head(const InductionMetrics& m) {
  for (size_t l = 1; l < m.induction.size(); ++l) {
    for (double s : m.induction[l]) {
      if (s >= kRoleFloor) return true;
    }
  }
  return false;
}

InductionTrainer::InductionTrainer(const InductionConfig& task, const ModelConfig& model_config)
    : task_(task), model_(model_config) {
  require_length(task.length);
  require_range(task.batch, 1, 4096, "the batch size");
  require_range(task.eval_sequences, 1, 100000, "the number of held-out sequences");
  if (model_config.output != Output::NextToken || model_config.vocab != task.tokens) {
    throw InputError("the induction task needs a next-token model over its tokens");
  }
  AdamConfig ac;
  ac.learning_rate = task.learning_rate;
  adam_ = Adam(ac, model_.params);
  grads_ = model_.params.zeros_like();
  rng_ = Rng(mix_seed(model_config.seed, 0x5e9a11ceULL));
}

void InductionTrainer::step() {
  grads_.set_zero();
  const float scale = 1.0f / static_cast<float>(task_.batch);
  double loss = 0.0;
  for (int b = 0; b < task_.batch; ++b) {
    const std::vector<int> ids = training_sequence(rng_, task_.tokens, task_.length);
    model_.forward(ids, forward_);
    loss += model_.backward_tokens(forward_, next_token_targets(ids), grads_, scale);
  }
  adam_.step(model_.params, grads_);
  last_loss_ = static_cast<float>(loss / task_.batch);
  ++steps_;
}

void InductionTrainer::train(int n) {
  for (int i = 0; i < n; ++i) step();
}

InductionMetrics InductionTrainer::evaluate(int length, const HeadSwitch* off) const {
  const int len = length > 0 ? length : task_.length;
  return evaluate_induction(
      model_, induction_eval_set(model_.config.seed, task_.tokens, len, task_.eval_sequences), off);
}

}  // namespace attn::train
