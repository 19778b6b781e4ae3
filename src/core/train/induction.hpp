// The induction task: a small causal language model trained on random token sequences whose second half
// repeats the first, and the per-head scores of Olsson et al., 2022 ("In-context Learning and Induction
// Heads") that show a previous-token head and an induction head forming.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/transformer.hpp"
#include "core/rng.hpp"
#include "core/train/adam.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/model.hpp"

namespace attn::train {

struct InductionConfig {
  int tokens = 16;  // the vocabulary: ids 0 .. tokens - 1 (a repeated segment of length / 2 holds each once)
  int length = 32;  // training sequences: length / 2 random tokens, then the same again (even, >= 4)
  int batch = 16;   // sequences per Adam step
  float learning_rate = 1e-2f;
  int eval_sequences = 64;  // held-out sequences of every evaluation (their own seeded stream)
};

// The task's model: 2 attention-only causal pre-norm layers of 4 heads, d_model 32, next-token output over
// cfg.tokens ids; a learned table has cfg.length slots (the training length, so it cannot read longer).
// Pre-norm, because on this task the post-norm model formed an induction head with some schemes only.
ModelConfig induction_model_config(const InductionConfig& cfg, Scheme positions, std::uint64_t seed);

// One sequence of `length` ids (even): length - 2 * segment uniform draws, then `segment` ids drawn
// without replacement (a segment no longer than the vocabulary holds each token once, so every token of
// the repeat has one earlier occurrence to follow; a longer one starts the draw again after every
// `tokens` ids), then the same segment again.
std::vector<int> segment_sequence(Rng& rng, int tokens, int length, int segment);
// The held-out sequences, on which the scores are defined: the second half repeats the first.
std::vector<int> repeated_sequence(Rng& rng, int tokens, int length);
// A training sequence: a segment of S ids, S uniform in length / 4 .. length / 2, after length - 2 S
// draws. The repeat's distance varies, so no head can find the earlier occurrence by position alone:
// the model has to match tokens.
std::vector<int> training_sequence(Rng& rng, int tokens, int length);
// The next-token targets of a sequence (T): ids[i + 1], and -1 at the last position.
std::vector<int> next_token_targets(const std::vector<int>& ids);
// The held-out sequences of an evaluation: `count` sequences of `length` from their own stream of `seed`.
std::vector<std::vector<int>> induction_eval_set(std::uint64_t seed, int tokens, int length, int count);

// What one evaluation measured, every mean over the held-out sequences.
struct InductionMetrics {
  int length = 0;
  // Mean cross-entropy of predicting tokens 1 .. L-1 (the first half, L = length / 2: not predictable
  // from the context) and tokens L+1 .. 2L-1 (the repeat; token L, the repeat's first, cannot be
  // predicted from what came before and is in neither).
  double loss_first_half = 0;
  double loss_second_half = 0;
  // [layer][head]: the mean weight from position i to i - 1 over i >= 1 (previous-token score), and the
  // mean weight, over the repeat's positions i >= L, from i to i - L + 1, the token right after the
  // earlier occurrence of token i (prefix-matching score).
  std::vector<std::vector<double>> previous_token;
  std::vector<std::vector<double>> induction;
};

// Scores and half losses of `model` on `set` (sequences of one even length), with the heads of `off`
// switched off. Throws InputError when the model cannot read the sequences (a learned table too short).
InductionMetrics evaluate_induction(const Model& model, const std::vector<std::vector<int>>& set,
                                    const HeadSwitch* off = nullptr);

// Each head's role from its two scores, "previous_token" and "induction" (role_of's rule).
std::vector<HeadRole> induction_head_roles(const InductionMetrics& m);
// The first layer-0 head with a previous-token score of at least kRoleFloor, and the first head of a later
// layer with a prefix-matching score of at least kRoleFloor: whether each kind of head has formed.
bool has_previous_token_head(const InductionMetrics& m);
bool has_induction_head(const InductionMetrics& m);

// Adam on fresh sequences every step (a stream drawn from the model's seed).
class InductionTrainer {
 public:
  InductionTrainer(const InductionConfig& task, const ModelConfig& model_config);
  void step();
  void train(int n);
  int steps() const { return steps_; }
  float last_loss() const { return last_loss_; }  // mean next-token loss of the last batch
  // The measures on the held-out set at the training length, or at `length` (even, >= 4).
  InductionMetrics evaluate(int length = 0, const HeadSwitch* off = nullptr) const;
  const Model& model() const { return model_; }
  const InductionConfig& task() const { return task_; }

 private:
  InductionConfig task_;
  Model model_;
  Adam adam_;
  Params grads_;
  Rng rng_{0};
  Forward forward_;
  int steps_ = 0;
  float last_loss_ = 0;
};

}  // namespace attn::train
