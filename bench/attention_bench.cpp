// Benchmarks of one recompute of the attention scenes (text -> attention with statistics), side by side.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "core/pipeline.hpp"

namespace {

// A text of exactly n word tokens.
std::string text_of(int n) {
  static const char* words[] = {"refund", "the", "delivery", "fee",  "not",
                                "cake",   "it",  "was",      "cold", "late"};
  std::string s;
  for (int i = 0; i < n; ++i) s += std::string(words[i % 10]) + " ";
  return s;
}

// The scenes' pipeline at (d_model, heads) with `positions`; the rest at PipelineConfig's defaults.
attn::PipelineConfig config(int d_model, int heads, attn::Scheme positions) {
  attn::PipelineConfig c;
  c.d_model = d_model, c.heads = heads, c.positions = positions;
  return c;
}

// args: tokens, d_model, heads. One recompute = what a scene does when a setting changes.
void BM_Recompute(benchmark::State& state) {
  const std::string text = text_of(static_cast<int>(state.range(0)));
  const attn::PipelineConfig c =
      config(static_cast<int>(state.range(1)), static_cast<int>(state.range(2)), attn::Scheme::Sinusoidal);
  for (auto _ : state) benchmark::DoNotOptimize(attn::run_pipeline(text, c));
  state.SetLabel(std::to_string(state.range(0)) + " tokens, d_model " + std::to_string(state.range(1)) +
                 ", " + std::to_string(state.range(2)) + " heads");
}
BENCHMARK(BM_Recompute)
    ->Args({9, 16, 4})
    ->Args({128, 768, 12})
    ->Args({512, 768, 12})
    ->Unit(benchmark::kMillisecond);

// What the app does when the text changes: the weights (same d_model, heads, seed) are reused.
void BM_RecomputeText(benchmark::State& state) {
  const std::string text = text_of(static_cast<int>(state.range(0)));
  const attn::PipelineConfig c = config(768, 12, attn::Scheme::Sinusoidal);
  const attn::MhaWeights w = attn::scene_weights(c);
  for (auto _ : state) benchmark::DoNotOptimize(attn::run_pipeline(text, c, &w));
}
BENCHMARK(BM_RecomputeText)->Arg(128)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond);

// The same with RoPE: the rotation of q and k per head on top.
void BM_RecomputeRope(benchmark::State& state) {
  const std::string text = text_of(static_cast<int>(state.range(0)));
  const attn::PipelineConfig c = config(768, 12, attn::Scheme::Rope);
  for (auto _ : state) benchmark::DoNotOptimize(attn::run_pipeline(text, c));
}
BENCHMARK(BM_RecomputeRope)->Arg(512)->Unit(benchmark::kMillisecond);

// One worker's share when two share a recompute (the first half of the heads, as the page's first round
// gives it), beside the whole one (BM_RecomputeText): the part of the work that splits.
void BM_RecomputeHalfTheHeads(benchmark::State& state) {
  const std::string text = text_of(static_cast<int>(state.range(0)));
  const attn::PipelineConfig c = config(768, 12, attn::Scheme::Sinusoidal);
  const auto w = std::make_shared<const attn::MhaWeights>(attn::scene_weights(c));
  for (auto _ : state) {
    attn::PipelineSteps steps(text, c, w, attn::kStepRows, attn::HeadSpan{0, 6});
    while (!steps.done()) steps.step();
    benchmark::DoNotOptimize(steps.take());
  }
}
BENCHMARK(BM_RecomputeHalfTheHeads)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
