// The attention scenes' pipeline: Settings -> core config, one cached result per input, token labels.
#include "app/logic/pipeline_cache.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <new>
#include <tuple>

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/pipeline_messages.hpp"
#include "core/error.hpp"
#include "core/tokenizer.hpp"

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

bool SceneWeights::has(const attn::PipelineConfig& c) const {
  return weights && key == std::make_tuple(c.d_model, c.heads, c.seed);
}

std::shared_ptr<const attn::MhaWeights> SceneWeights::get(const attn::PipelineConfig& c) {
  if (!has(c)) {
    attn::head_dim(c.d_model, c.heads);  // a clear error before drawing any weights
    weights = std::make_shared<const attn::MhaWeights>(attn::scene_weights(c));
    key = {c.d_model, c.heads, c.seed};
  }
  return weights;
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Runs f; an InputError or running out of memory ends e's computation with the message.
template <class F>
void or_error(CachedPipeline& e, F&& f) {
  try {
    f();
  } catch (const attn::InputError& ex) {
    e.error = ex.what();
    e.job.reset();
  } catch (const std::bad_alloc&) {
    e.error = kTooLargeMessage;
    e.job.reset();
  }
}

}  // namespace

void start_pipeline(CachedPipeline& e, const std::string& text, const attn::PipelineConfig& config,
                    SceneWeights& weights) {
  const auto t0 = Clock::now();
  // the weights depend on d_model, heads and seed only: editing the text reuses them
  or_error(e, [&] {
    e.job = std::make_shared<attn::PipelineSteps>(text, config, weights.get(config), attn::kStepRows);
  });
  e.compute_ms += ms_since(t0);
}

void advance_pipeline(CachedPipeline& e, double budget_ms) {
  if (!e.job) return;
  const auto t0 = Clock::now();
  or_error(e, [&] {
    while (!e.job->done() && ms_since(t0) < budget_ms) e.job->step();
    if (e.job->done()) {
      e.result = e.job->take();
      e.job.reset();
    }
  });
  e.compute_ms += ms_since(t0);
}

namespace {

// Above this many multiply-adds (or drawn weights, ten each) a recompute would take more than a few
// milliseconds here: with a budget it goes to the compute worker.
constexpr double kLocalWork = 2e7;

bool worth_a_worker(const std::string& text, const attn::PipelineConfig& c, const SceneWeights& weights) {
  try {
    attn::head_dim(c.d_model, c.heads);
  } catch (const attn::InputError&) {
    return false;  // the error is quicker said here
  }
  const auto t = static_cast<double>(attn::tokenize(text, attn::kMaxTokens).size());
  const double d = c.d_model;
  const double work = 4.0 * t * d * d + 2.0 * t * t * d + (weights.has(c) ? 0.0 : 40.0 * d * d);
  return work > kLocalWork;
}

// The worker's answers since the last call, into the entries they answer (an entry evicted since, or
// answered already, takes none: a stale answer is never shown).
void take_answers(PipelineStore& store) {
  std::vector<PipelineAnswer> answers;
  answers.swap(store.answers);
  for (PipelineAnswer& a : answers) {
    for (auto& [key, e] : store.cache) {
      if (!e.remote || e.version != a.version) continue;
      std::vector<attn::HeadResult>& heads = e.result.mha.head;
      if (a.part < 0) {  // one of the layer's matrices, after the rest of the result
        if (e.parts_left > 0) {
          layer_matrix(e.result, -a.part - 1) = std::move(layer_matrix(a.result, -a.part - 1));
          e.remote = --e.parts_left > 0;
        }
        continue;
      }
      if (a.part > 0) {  // a head's matrices, after the rest of the result
        if (e.parts_left > 0 && a.part <= static_cast<int>(heads.size())) {
          heads[static_cast<std::size_t>(a.part - 1)] = std::move(a.result.mha.head.front());
          e.remote = --e.parts_left > 0;
        }
        continue;
      }
      e.compute_ms = a.compute_ms;
      e.remote_progress = a.progress;
      if (a.done) {
        e.from_worker = true;
        e.error = std::move(a.error);
        e.result = std::move(a.result);
        e.parts_left = e.error.empty() ? static_cast<int>(heads.size()) + kLayerMatrices : 0;
        e.remote = e.parts_left > 0;
      }
    }
  }
}

}  // namespace

const CachedPipeline& cached_pipeline(const std::string& text, const attn::PipelineConfig& config,
                                      double budget_ms) {
  // A few entries: the schemes scene keeps one per scheme alive at once.
  PipelineStore& store = logic_state().pipelines;
  take_answers(store);
  const Key key = key_of(text, config);
  auto it = store.cache.find(key);
  if (it == store.cache.end()) {
    if (store.order.size() >= 12) {
      store.cache.erase(store.order.front());
      store.order.erase(store.order.begin());
    }
    store.order.push_back(key);
    it = store.cache.try_emplace(key).first;
    CachedPipeline& e = it->second;
    e.version = next_version();
    const bool worker = compute_link() != nullptr || compute_worker_possible();
    if (budget_ms < 1e30 && worker && worth_a_worker(text, config, store.weights)) {
      e.remote = true;
      want_compute_worker();
    } else {
      start_pipeline(e, text, config, store.weights);
      budget_ms -= e.compute_ms;
    }
  }
  CachedPipeline& e = it->second;
  if (e.remote) {
    if (ComputeLink* link = compute_link()) {
      if (store.asked != e.version) {  // the worker has another job, or none: this one replaces it
        link->post(encode(PipelineJob{e.version, text, config}));
        store.asked = e.version;
      }
    } else if (!compute_worker_possible()) {  // the worker stopped, or cannot start: computed here
      e.remote = false;
      e.parts_left = 0;
      start_pipeline(e, text, config, store.weights);
    }
  }
  advance_pipeline(e, budget_ms);
  if (e.pending()) store.pending = true;
  return e;
}

void deliver_pipeline_answer(PipelineAnswer answer) {
  logic_state().pipelines.answers.push_back(std::move(answer));
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
