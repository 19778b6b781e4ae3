// The attention scenes' pipeline: Settings -> core config, one cached result per input, token labels.
#include "app/logic/pipeline_cache.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <new>
#include <tuple>

#include "app/logic/logic_state.hpp"
#include "app/logic/memo.hpp"
#include "core/error.hpp"

namespace app {
namespace {

using Key = PipelineStore::Key;

Key key_of(const std::string& text, const attn::PipelineConfig& c) {
  return {text, c.d_model, c.heads, static_cast<int>(c.positions), c.causal, c.seed, c.learned_slots, c.base};
}

}  // namespace

attn::PipelineConfig pipeline_config(const Settings& s, attn::Scheme scheme) {
  attn::PipelineConfig c;
  c.d_model = s.d_model;
  c.heads = s.heads;
  c.positions = scheme;
  c.causal = s.causal;
  c.seed = static_cast<std::uint64_t>(s.seed);
  c.learned_slots = s.slots;
  return c;
}

attn::PipelineConfig pipeline_config(const Settings& s) {
  // settings only hold the pipeline's schemes (the URL table checks them); keep "none" otherwise
  const std::vector<attn::Scheme>& schemes = attn::pipeline_schemes();
  const bool known = std::find(schemes.begin(), schemes.end(), s.positions) != schemes.end();
  return pipeline_config(s, known ? s.positions : attn::Scheme::None);
}

namespace {

// Runs e's pending steps for about budget_ms; on completion the result replaces the job.
void advance(CachedPipeline& e, double budget_ms) {
  if (!e.job) return;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  try {
    while (!e.job->done() && elapsed() < budget_ms) e.job->step();
    if (e.job->done()) {
      e.result = e.job->take();
      e.job.reset();
    }
  } catch (const attn::InputError& ex) {
    e.error = ex.what();
    e.job.reset();
  } catch (const std::bad_alloc&) {
    e.error = kTooLargeMessage;
    e.job.reset();
  }
  e.compute_ms += elapsed();
  if (e.job) logic_state().pipelines.pending = true;
}

}  // namespace

const CachedPipeline& cached_pipeline(const std::string& text, const attn::PipelineConfig& config,
                                      double budget_ms) {
  // A few entries: the schemes scene keeps one per scheme alive at once.
  PipelineStore& store = logic_state().pipelines;
  std::map<Key, CachedPipeline>& cache = store.cache;
  std::vector<Key>& order = store.order;
  const Key key = key_of(text, config);
  auto it = cache.find(key);
  if (it != cache.end()) {
    advance(it->second, budget_ms);
    return it->second;
  }
  CachedPipeline entry;
  entry.version = next_version();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    // The weights depend on d_model, heads and seed only: editing the text reuses them.
    std::tuple<int, int, std::uint64_t>& weights_key = store.weights_key;
    std::shared_ptr<const attn::MhaWeights>& weights = store.weights;
    const std::tuple<int, int, std::uint64_t> wk{config.d_model, config.heads, config.seed};
    if (wk != weights_key) {
      attn::head_dim(config.d_model, config.heads);  // a clear error before drawing any weights
      weights = std::make_shared<const attn::MhaWeights>(attn::scene_weights(config));
      weights_key = wk;
    }
    entry.job = std::make_shared<attn::PipelineSteps>(text, config, weights, attn::kStepRows);
  } catch (const attn::InputError& e) {
    entry.error = e.what();
  } catch (const std::bad_alloc&) {
    entry.error = kTooLargeMessage;
  }
  entry.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (order.size() >= 12) {
    cache.erase(order.front());
    order.erase(order.begin());
  }
  order.push_back(key);
  CachedPipeline& stored = cache.emplace(key, std::move(entry)).first->second;
  advance(stored, budget_ms - stored.compute_ms);
  return stored;
}

bool take_pipeline_pending() {
  bool& pending = logic_state().pipelines.pending;
  const bool p = pending;
  pending = false;
  return p;
}

std::vector<std::string> token_words(const std::vector<std::string>& tokens) {
  constexpr std::size_t kMaxLabelBytes = 48;  // a label is for reading: a 100,000-letter "word" is cut
  std::vector<std::string> out;
  for (const std::string& t : tokens)
    out.push_back(t.size() > kMaxLabelBytes ? utf8_prefix(t, kMaxLabelBytes) + "..." : t);
  return out;
}

std::vector<std::string> token_labels(const std::vector<std::string>& tokens) {
  std::map<std::string, int> seen;
  std::vector<std::string> out = token_words(tokens);
  for (std::string& w : out) {
    const int n = ++seen[w];
    if (n > 1) w += "#" + std::to_string(n);
  }
  return out;
}

}  // namespace app
