// The training subcommands of attention_cli: `train` (learning curve as JSON, optional model file) and
// `router --model` (a trained model file labels an email).
#pragma once

#include <cstdint>
#include <string>

#include "core/train/induction.hpp"
#include "core/train/trainer.hpp"
#include "json_io.hpp"

namespace attn::cli {

// Defaults are the core's (train::ModelConfig, train::TrainConfig): the model the tests and the app train.
struct TrainOptions {
  std::string task = "router";                                     // "router" or "induction"
  std::string positions = attn::scheme_name(attn::kLessonScheme);  // one of train::trainable_schemes()
  int steps = 400;
  std::uint64_t seed = 1;
  int d_model = train::ModelConfig{}.d_model;
  int heads = train::ModelConfig{}.heads;
  int layers = train::ModelConfig{}.layers;
  int d_ff = train::ModelConfig{}.d_ff;
  int max_len = train::ModelConfig{}.max_len;  // learned position slots
  bool causal = false;
  int batch = train::TrainConfig{}.batch;
  double lr = static_cast<double>(train::TrainConfig{}.learning_rate);
  int eval_every = 50;  // test accuracy every K steps (and at the end)
  int longer = 40;      // extra filler tokens for the lengthened-email accuracy (0: skip)
  std::string out;      // model file to write ("" : none)
  bool timing = true;   // false: leave out every wall-clock field, so two runs print the same bytes
  bool dump = false;    // also print the trained weights and the held-out data (for independent checks)
  std::string off;      // heads switched off for the `ablated` measures: "L.H,..." ("" : none)
  std::string ablate = "zero";  // what a switched-off head outputs: "zero" or "mean" (its mean output)
  // The induction task (--task induction):
  int tokens = train::InductionConfig{}.tokens;  // vocabulary of the random sequences
  int length = train::InductionConfig{}.length;  // training length
  std::vector<int> eval_lengths;                 // also measure at these lengths
};

// `flops`, the estimated work of a run; InputError in words past train::kMaxTrainFlops.
double require_train_flops(double flops);
// The options of `train --task induction` that differ from the router's when not given.
void use_induction_defaults(TrainOptions& o, bool steps_given, bool layers_given, bool batch_given,
                            bool eval_every_given);

// Trains the refund router and returns {config, data, curve, final, flipped pairs, longer emails, heads,
// ablation, [ablated], timing}; with o.task "induction", run_train_induction.
json run_train(const TrainOptions& o);
// Trains the induction task's language model: {task, config, curve, final, loss_first_half,
// loss_second_half, previous_token, induction, formed, heads, ablation, [ablated], [eval_length: one per
// length], timing}.
json run_train_induction(const TrainOptions& o);
// Labels `text` with the model saved in `model_path`: {tokens, unknown_tokens, positions, labels, label,
// confidence, probabilities, model}.
json run_router_model(const std::string& model_path, const std::string& text);

}  // namespace attn::cli
