// Small inputs the core and model-file tests share: the pipeline and the trainable router at test sizes, a
// router trained for a few steps, and the check that a call throws an InputError saying a given thing.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/pipeline.hpp"
#include "core/train/model.hpp"
#include "core/train/vocab.hpp"

namespace fx {

// The scenes' pipeline at (d_model, heads) with `positions` and `seed`; every other field at its default.
attn::PipelineConfig pipeline_config(int d_model, int heads, attn::Scheme positions,
                                     std::uint64_t seed = attn::PipelineConfig{}.seed);

// The trainable router's shape (d_model, heads, layers, d_ff) with `positions`; every other field (vocab,
// classes, max_len, seed, causal) at its default.
attn::train::ModelConfig router_config(int d_model, int heads, int layers, int d_ff,
                                       attn::Scheme positions = attn::train::ModelConfig{}.positions);

// A router trained for `steps` steps on the refund data set (so its weights are no longer the seeded start),
// with its vocab and labels.
struct Trained {
  attn::train::Model model;
  attn::train::Vocab vocab;
  std::vector<std::string> labels;
};
// d_model 16, 4 heads, `layers`, `d_ff`, `positions`, 40 position slots, weights from `seed`; batches of 8.
Trained train_a_little(attn::Scheme positions, int layers, int d_ff, int steps, std::uint64_t seed);

// Succeeds when `call` throws an attn::InputError whose message contains `part`; fails when it returns, or
// names the message that lacks `part`. Any other exception passes through.
::testing::AssertionResult throws_input_error_saying(const std::function<void()>& call,
                                                     const std::string& part);

}  // namespace fx
