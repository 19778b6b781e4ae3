// Training speed of the default refund router (sinusoidal, d_model 32, 4 heads, 1 layer, batch 32), built
// natively and for node (wasm) by bench/train_bench.sh, which prints the two side by side.
//
// Prints one JSON line: steps per second of pure training (best and median of a few runs), and the wall
// time from fresh weights to 99% held-out accuracy with the test set evaluated every K steps (as a page
// showing a live accuracy curve would). Usage: train_bench [STEPS_PER_RUN] [RUNS] [EVAL_EVERY] [SEED]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/train/trainer.hpp"
#include "model_io/model_json.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace tr = attn::train;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 400;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  const int eval_every = argc > 3 ? std::atoi(argv[3]) : 25;
  const unsigned long long seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  if (steps < 1 || runs < 1 || eval_every < 1) {
    std::fprintf(stderr, "usage: train_bench [STEPS_PER_RUN >= 1] [RUNS >= 1] [EVAL_EVERY >= 1] [SEED]\n");
    return 2;
  }
#ifdef __EMSCRIPTEN__
  const char* platform = "wasm";
#else
  const char* platform = "native";
#endif
  const tr::Dataset data = tr::make_refund_dataset();
  tr::ModelConfig mc;  // the defaults: sinusoidal, d_model 32, 4 heads, 1 layer, no feed-forward
  mc.seed = seed;
  const tr::TrainConfig tc;

  // 1. pure training: `runs` fresh trainers, `steps` Adam steps each, no evaluation
  std::vector<double> rates;
  for (int r = 0; r < runs; ++r) {
    tr::Trainer t(mc, tc, data);
    const auto t0 = Clock::now();
    t.train(steps);
    rates.push_back(steps / since(t0));
  }
  std::sort(rates.begin(), rates.end());

  // 2. wall time to 99%: fresh weights, the test set evaluated every eval_every steps (eval time included)
  const auto t0 = Clock::now();
  tr::Trainer t(mc, tc, data);
  double train_seconds = 0, eval_seconds = 0;
  float accuracy = 0;
  while (accuracy < 0.99f && t.steps() < 20000) {
    const auto a = Clock::now();
    t.train(eval_every);
    train_seconds += since(a);
    const auto b = Clock::now();
    accuracy = tr::evaluate_set(t.model(), t.vocab(), data.test).accuracy;
    eval_seconds += since(b);
  }
  const double wall = since(t0);
  const bool reached = accuracy >= 0.99f;

  // 3. saving and loading the model file (what the page's Save / Load buttons cost)
  const auto s0 = Clock::now();
  const std::string file = attn::model_io::model_to_json(t.model(), t.vocab(), data.label_names());
  const double save_seconds = since(s0);
  const auto l0 = Clock::now();
  const auto loaded = attn::model_io::model_from_json(file);
  const double load_seconds = since(l0);  // first call: includes warming up the parser's code (wasm JIT)
  const auto l1 = Clock::now();
  attn::model_io::model_from_json(file);
  const double load_again_seconds = since(l1);

  std::printf(
      "{\"platform\":\"%s\",\"parameters\":%lld,\"batch\":%d,\"steps_per_run\":%d,\"runs\":%d,"
      "\"steps_per_second_best\":%.1f,\"steps_per_second_median\":%.1f,"
      "\"to_99\":{\"reached\":%s,\"step\":%d,\"test_accuracy\":%.4f,\"eval_every\":%d,\"wall_seconds\":%.3f,"
      "\"train_seconds\":%.3f,\"eval_seconds\":%.3f},"
      "\"model_file\":{\"bytes\":%zu,\"save_seconds\":%.4f,\"load_seconds\":%.4f,\"load_again_seconds\":%.4f,"
      "\"loaded_tensors\":%zu}}\n",
      platform, t.model().params.parameter_count(), tc.batch, steps, runs, rates.back(),
      rates[rates.size() / 2], reached ? "true" : "false", t.steps(), static_cast<double>(accuracy),
      eval_every, wall, train_seconds, eval_seconds, file.size(), save_seconds, load_seconds,
      load_again_seconds, loaded.model.params.named_tensors().size());
  return reached ? 0 : 1;
}
