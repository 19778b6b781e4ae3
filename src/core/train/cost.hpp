// The work of a training run counted before it starts, in floating-point operations (FLOPs), so a tool can
// refuse a run too large for its budget instead of running it for hours.
#pragma once

#include "core/train/data.hpp"
#include "core/train/model.hpp"

namespace attn::train {

// What a run does with the data set, besides the model.
struct TrainWork {
  int steps = 0;           // Adam steps (minibatches)
  int batch = 32;          // emails per step: each one forward and backward
  int eval_every = 50;     // one held-out evaluation before the first step, then after every eval_every
                           // steps and after the last (ceil(steps / eval_every) of them); 1 or more
  int train_examples = 0;  // emails in the training set: the final evaluation reads each once
  int test_examples = 0;   // held-out emails: every evaluation, and the final one, reads each once
  int tokens = 0;          // tokens of the longest email: every email is counted at this length
  int longer = 0;          // extra tokens of one more evaluation of the held-out set (0: none)
};

// The work of `steps` steps of `batch` emails from `data` (its sizes and its longest email, in tokens).
TrainWork train_work(const Dataset& data, int steps, int batch, int eval_every, int longer);

// Adam's FLOPs for one weight in one step (two moments, the bias-corrected update).
inline constexpr double kAdamFlopsPerWeight = 10.0;

// FLOPs of the matrix products of one forward pass of `config` on an email of `tokens` tokens (T), a
// multiply and an add counted as 2. With D = d_model, F = d_ff, C = classes, per layer:
//   q, k, v     2 T D (3D)     (T, D) x (D, 3D)
//   scores      2 T T D        every head: (T, d_k) x (d_k, T), heads x d_k = D
//   weighted v  2 T T D        every head: (T, T) x (T, d_k)
//   W_o         2 T D D        (T, D) x (D, D)
//   FFN         4 T D F        (T, D) x (D, F) and (T, F) x (F, D), when F > 0
// then the classifier 2 D C ((1, D) x (D, C); Output::NextToken: 2 T D C). The element-wise work (softmax,
// LayerNorm, RoPE, mean pool) is left out: a few percent at these sizes. The backward pass does twice these
// products (each product's gradient is two products of the same size), so one training email costs 3 x
// forward_flops.
double forward_flops(const ModelConfig& config, int tokens);

// FLOPs of a whole run of `config` (vocab and classes filled in):
//   steps x (batch x 3 x forward_flops(tokens) + kAdamFlopsPerWeight x weight_count(config))
//   + (1 + ceil(steps / eval_every) + 1) x test_examples x forward_flops(tokens)
//   + train_examples x forward_flops(tokens) + [longer > 0] test_examples x forward_flops(tokens + longer).
// A double: the largest settings (1,024-token emails, batch 4096, 100,000 steps) pass 1e20, more than an
// int64 holds.
double train_flops(const ModelConfig& config, const TrainWork& work);

// The largest run attention_cli train starts: about 4 minutes at the 8e9 FLOPs a second measured on a
// 2-core test machine. The defaults need about 7e9, 100,000 steps of the default model about 1.6e12.
inline constexpr double kMaxTrainFlops = 2e12;
inline constexpr double kMeasuredFlopsPerSecond = 8e9;

}  // namespace attn::train
