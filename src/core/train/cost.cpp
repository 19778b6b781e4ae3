// The FLOPs estimate of a training run (cost.hpp): matrix products of every pass, Adam, the evaluations.
#include "core/train/cost.hpp"

#include <algorithm>

#include "core/train/vocab.hpp"

namespace attn::train {

TrainWork train_work(const Dataset& data, int steps, int batch, int eval_every, int longer) {
  TrainWork w;
  w.steps = steps;
  w.batch = batch;
  w.eval_every = eval_every;
  w.train_examples = static_cast<int>(data.train.size());
  w.test_examples = static_cast<int>(data.test.size());
  for (const auto* set : {&data.train, &data.test}) {
    for (const Example& e : *set) {
      w.tokens = std::max(w.tokens, static_cast<int>(Vocab::tokens(e.text).size()));
    }
  }
  w.longer = longer;
  return w;
}

double forward_flops(const ModelConfig& c, int tokens) {
  const double t = tokens, d = c.d_model, f = c.d_ff;
  const double layer = 2 * t * d * (3 * d)                    // q, k, v
                       + 4 * t * t * d                        // every head's scores and weighted values
                       + 2 * t * d * d                        // W_o
                       + 4 * t * d * f;                       // feed-forward (0 when d_ff is 0)
  const double rows = c.output == Output::NextToken ? t : 1;  // the output layer reads every row, or the mean
  return c.layers * layer + 2 * rows * d * c.classes;
}

double train_flops(const ModelConfig& c, const TrainWork& w) {
  const double forward = forward_flops(c, w.tokens);
  const double steps = w.steps;
  const double per_step = w.batch * 3 * forward + kAdamFlopsPerWeight * static_cast<double>(weight_count(c));
  const long long every = std::max(w.eval_every, 1);
  const long long chunks = (w.steps + every - 1) / every;
  const double test_passes = 1.0 + static_cast<double>(chunks) + 1.0;  // before, after each chunk, final
  double total = steps * per_step + test_passes * w.test_examples * forward + w.train_examples * forward;
  if (w.longer > 0) total += w.test_examples * forward_flops(c, w.tokens + w.longer);
  return total;
}

}  // namespace attn::train
