// The training subcommands of attention_cli: `train` (learning curve as JSON, optional model file) and
// `router --model` (a trained model file labels an email).
#pragma once

#include <cstdint>
#include <string>

#include "core/train/trainer.hpp"
#include "json_io.hpp"

namespace attn::cli {

// Defaults are the core's (train::ModelConfig, train::TrainConfig): the model the tests and the app train.
struct TrainOptions {
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
};

// Trains the refund router and returns {config, data, curve, final, flipped pairs, longer emails, timing}.
json run_train(const TrainOptions& o);
// Labels `text` with the model saved in `model_path`: {tokens, unknown_tokens, positions, labels, label,
// confidence, probabilities, model}.
json run_router_model(const std::string& model_path, const std::string& text);

}  // namespace attn::cli
