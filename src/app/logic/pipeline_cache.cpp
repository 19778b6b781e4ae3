// The attention scenes' pipeline: Settings -> core config, one cached result per input, token labels.
#include "app/logic/pipeline_cache.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <new>
#include <tuple>
#include <vector>

#include "app/logic/clock.hpp"
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
                    SceneWeights& weights, attn::HeadSpan span) {
  const auto t0 = Clock::now();
  // the weights depend on d_model, heads and seed only: editing the text reuses them
  or_error(e, [&] {
    e.job = std::make_shared<attn::PipelineSteps>(text, config, weights.get(config), attn::kStepRows, span);
  });
  e.compute_ms += ms_since(t0);
}

void output_rows(CachedPipeline& e, const attn::Mat& concat_rows, const attn::PipelineConfig& config,
                 SceneWeights& weights) {
  const auto t0 = Clock::now();
  or_error(e, [&] {
    e.result.mha.output =
        attn::mha_output_rows(concat_rows, *weights.get(config), 0, static_cast<int>(concat_rows.rows()));
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

// Asks the workers for e: the whole of it from the first, or with several workers and heads, a span of the
// heads from each (the first round of pipeline_messages.hpp).
void ask_workers(ComputeLink& link, CachedPipeline& e, const std::string& text,
                 const attn::PipelineConfig& c) {
  const int shares = std::min(link.workers(), c.heads);
  e.shares = shares;
  if (shares <= 1) {
    link.post(encode(PipelineJob{e.version, text, c}));
    return;
  }
  e.config = c;
  e.second_round = false;
  e.share_progress.assign(static_cast<std::size_t>(shares), 0.0f);
  e.share_ms.assign(static_cast<std::size_t>(shares), 0.0);
  e.rows_ms = 0.0;
  e.parts_left = 0;
  e.result = attn::PipelineResult{};
  e.result.mha.head.resize(static_cast<std::size_t>(c.heads));
  e.result.stats.resize(static_cast<std::size_t>(c.heads));
  const std::vector<attn::HeadSpan> spans = head_spans(c.heads, shares);
  for (int k = 0; k < shares; ++k) {
    const attn::HeadSpan& span = spans[static_cast<std::size_t>(k)];
    e.parts_left += 1 + (span.end - span.begin) + span_layer_matrices(span, c.heads);
    PipelineJob job{e.version, text, c};
    job.span = span;
    link.post_to(k, encode(job));
  }
}

// The first round of a shared recompute has arrived: the heads' outputs side by side make the concat, and
// each worker gets a block of its rows for W_O (the second round).
void ask_for_rows(ComputeLink& link, CachedPipeline& e) {
  attn::MhaResult& m = e.result.mha;
  const auto t = e.result.inputs.rows();
  const int d_k = attn::head_dim(e.config.d_model, e.config.heads);
  m.concat.resize(t, e.config.d_model);
  for (std::size_t h = 0; h < m.head.size(); ++h)
    m.concat.middleCols(static_cast<Eigen::Index>(h) * d_k, d_k) = m.head[h].output;
  m.output.resize(t, e.config.d_model);
  e.second_round = true;
  e.parts_left = 0;
  for (int k = 0; k < e.shares; ++k) {
    const auto first = static_cast<int>(k * t / e.shares), end = static_cast<int>((k + 1) * t / e.shares);
    if (end == first) continue;
    PipelineJob job{e.version, "", e.config};
    job.output_rows = true;
    job.first_row = first;
    job.concat = m.concat.middleRows(first, end - first);
    link.post_to(k, encode(job));
    ++e.parts_left;
  }
}

// An answer to a recompute shared by several workers, into e.
void take_shared_answer(CachedPipeline& e, PipelineAnswer& a) {
  const std::vector<attn::HeadSpan> spans = head_spans(e.config.heads, e.shares);
  std::size_t k = 0;  // the share that answers
  while (k < spans.size() && spans[k].begin != a.span.begin) ++k;
  e.from_worker = true;
  if (a.done && !a.error.empty()) {  // every share would say the same: the first one ends it
    e.error = std::move(a.error);
    e.result = attn::PipelineResult{};
    e.remote = false;
    e.parts_left = 0;
    return;
  }
  if (a.output_rows) {
    e.rows_ms = std::max(e.rows_ms, a.compute_ms);
    const attn::Mat& rows = a.result.mha.output;
    attn::Mat& out = e.result.mha.output;
    if (!a.done || !e.second_round || a.first_row < 0 || rows.cols() != out.cols() ||
        a.first_row + rows.rows() > out.rows())
      return;
    out.middleRows(a.first_row, rows.rows()) = rows;
  } else if (e.second_round || k >= e.share_progress.size()) {
    return;
  } else if (a.part < 0) {
    layer_matrix(e.result, -a.part - 1) = std::move(layer_matrix(a.result, -a.part - 1));
  } else if (a.part > 0) {
    if (a.part > static_cast<int>(e.result.mha.head.size())) return;
    e.result.mha.head[static_cast<std::size_t>(a.part - 1)] = std::move(a.result.mha.head.front());
  } else {
    e.share_progress[k] = a.progress;
    e.share_ms[k] = a.compute_ms;
    float sum = 0.0f;
    for (const float p : e.share_progress) sum += p;
    e.remote_progress = 0.9f * sum / static_cast<float>(e.shares);
    if (!a.done) return;
    if (a.span.begin < 0 || a.span.begin + a.result.stats.size() > e.result.stats.size()) return;
    e.result.tokens = std::move(a.result.tokens);
    e.result.dropped_tokens = a.result.dropped_tokens;
    for (std::size_t i = 0; i < a.result.stats.size(); ++i)
      e.result.stats[static_cast<std::size_t>(a.span.begin) + i] = a.result.stats[i];
  }
  e.compute_ms = *std::max_element(e.share_ms.begin(), e.share_ms.end()) + e.rows_ms;
  if (--e.parts_left > 0) return;
  if (e.second_round) {
    e.remote = false;
    e.remote_progress = 1.0f;
  } else if (ComputeLink* link = compute_link()) {
    ask_for_rows(*link, e);
  }
}

// The worker's answers since the last call, into the entries they answer (an entry evicted since, or
// answered already, takes none: a stale answer is never shown).
void take_answers(PipelineStore& store) {
  std::vector<PipelineAnswer> answers;
  answers.swap(store.answers);
  for (PipelineAnswer& a : answers) {
    for (auto& [key, e] : store.cache) {
      if (!e.remote || e.version != a.version) continue;
      if (e.shares > 1) {
        take_shared_answer(e, a);
        continue;
      }
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
      want_compute_helpers();
    } else {
      start_pipeline(e, text, config, store.weights);
      budget_ms -= e.compute_ms;
    }
  }
  CachedPipeline& e = it->second;
  if (e.remote) {
    ComputeLink* link = compute_link();
    if (link && e.shares > link->workers()) {  // a helper stopped: asked again of those left, under a new
      e.version = next_version();              // version (the old shares' answers still on the way are stale)
      store.asked = 0;
    }
    if (link && !compute_helpers_starting()) {
      // the workers have another job, or none: this one replaces it
      if (store.asked != e.version) ask_workers(*link, e, text, config);
      store.asked = e.version;
    } else if (!link && !compute_worker_possible()) {  // the worker stopped, or cannot start: computed here
      e.remote = false;
      e.parts_left = 0;
      e.shares = 0;
      e.result = attn::PipelineResult{};
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
