// The app-wide trained refund router, its model file, and its attention as the attention scenes draw it.
#include "app/logic/trained_model.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <new>

#include "app/logic/clock.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/memo.hpp"
#include "core/analysis.hpp"
#include "core/error.hpp"
#include "model_io/model_json.hpp"

namespace app {
namespace {

std::unique_ptr<TrainedModel>& current() {
  return logic_state().trained.current;
}

ModelLoadStatus& load_status() {
  return logic_state().trained.load;
}

attn::PipelineResult run_trained(const TrainedModel& m, const std::string& text, int layer) {
  attn::PipelineResult r;
  r.tokens = attn::train::Vocab::tokens(text);
  if (static_cast<int>(r.tokens.size()) > attn::kMaxTokens) {
    r.dropped_tokens = static_cast<int>(r.tokens.size()) - attn::kMaxTokens;
    r.tokens.resize(static_cast<size_t>(attn::kMaxTokens));
  }
  std::vector<int> ids;
  for (const std::string& t : r.tokens) ids.push_back(m.vocab.id(t));
  const attn::train::Forward f = m.model.forward(ids);  // InputError for an empty or too long email
  const attn::train::ModelConfig& c = m.model.config;
  const int d_k = c.d_model / c.heads;
  const auto& L = f.layers[static_cast<size_t>(layer)];
  r.embeddings = f.embedded;
  r.inputs = L.input;
  r.mha.concat = L.concat;
  r.mha.output = L.residual1;
  for (int h = 0; h < c.heads; ++h) {
    attn::HeadResult head;
    head.weights = L.weights[static_cast<size_t>(h)];
    head.scores = L.scores[static_cast<size_t>(h)];
    head.output = L.concat.block(0, h * d_k, L.concat.rows(), d_k);
    r.stats.push_back(attn::head_stats(head.weights));
    r.mha.head.push_back(std::move(head));
  }
  return r;
}

}  // namespace

const TrainedModel* trained_model() {
  return current().get();
}

long long next_model_version() {
  return ++logic_state().trained.versions;
}

long long publish_trained_model(TrainedModel m) {
  m.version = next_model_version();
  current() = std::make_unique<TrainedModel>(std::move(m));
  return current()->version;
}

std::string model_file_text(const TrainedModel& m) {
  const nlohmann::json info = m.info.is_object() ? m.info : nlohmann::json();
  return attn::model_io::model_to_json(m.model, m.vocab, m.labels, info, 1);
}

std::string trained_model_file_text() {
  const TrainedModel* m = trained_model();
  if (!m) return "";
  try {
    return model_file_text(*m);
  } catch (const attn::InputError&) {
    return "";
  }
}

namespace {

// Reads a model with `read` (a LoadedModel, or InputError) and makes it the current model; the status says
// how it went. Whatever the read held is freed before this returns, loaded or not.
template <class Read>
std::string load_with(Read read, const std::string& source) {
  ModelLoadStatus& st = load_status();
  ++st.attempt;
  st.progress.clear();
  st.fraction = -1;
  try {
    attn::model_io::LoadedModel loaded = read();
    TrainedModel m;
    m.model = std::move(loaded.model);
    m.vocab = std::move(loaded.vocab);
    m.labels = std::move(loaded.labels);
    m.info = loaded.training_info.is_object() ? loaded.training_info : nlohmann::json::object();
    m.source = source;
    m.from_file = true;
    st.version = publish_trained_model(std::move(m));
    st.ok = true;
    st.message = "loaded " + source;
    return "";
  } catch (const attn::InputError& e) {
    st.ok = false;
    st.message = source + ": " + e.what();
  } catch (const std::bad_alloc&) {
    st.ok = false;
    st.message = source + ": " + kTooLargeToLoad;
  }
  return st.message;
}

std::string megabytes(long long bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

std::string load_trained_model(const std::string& text, const std::string& source) {
  return load_with([&] { return attn::model_io::model_from_json(text); }, source);
}

std::string load_trained_model(attn::model_io::ByteSource& bytes, long long total_bytes,
                               const std::string& source) {
  return load_with([&] { return attn::model_io::model_from_source(bytes, total_bytes); }, source);
}

std::string load_trained_model(const std::function<attn::model_io::LoadedModel()>& read,
                               const std::string& source) {
  return load_with(read, source);
}

void show_model_load_progress(const std::string& source, long long received, long long total) {
  ModelLoadStatus& st = load_status();
  const bool read = total > 0 && received >= total;  // what is left is one call: checking and building
  st.progress =
      read ? "checking and building the model from " + source + " (" + megabytes(total) +
                 "; a large file takes a few seconds)"
           : "reading " + source + ": " + megabytes(received) + (total > 0 ? " of " + megabytes(total) : "");
  st.fraction = total > 0 ? std::min(1.0f, static_cast<float>(received) / static_cast<float>(total)) : -1.0f;
}

void show_model_build_progress(const std::string& source, long long read, long long total) {
  ModelLoadStatus& st = load_status();
  st.progress = "checking and building the model from " + source + ": " + megabytes(read) + " of " +
                megabytes(total) + " read";
  st.fraction = total > 0 ? std::min(1.0f, static_cast<float>(read) / static_cast<float>(total)) : -1.0f;
}

const ModelLoadStatus& last_model_load() {
  return load_status();
}

namespace {

// The trained model's attention for one text and layer; the error stays in the result (shown in place).
CachedPipeline compute_trained(const TrainedModel* m, const std::string& text, int layer) {
  CachedPipeline cache;
  cache.version = next_version();
  const auto t0 = Clock::now();
  if (!m) {
    cache.error = "no trained model yet: train one in the Train scene (or load a model file there)";
    return cache;
  }
  try {
    const int layers = m->model.config.layers;
    if (layer < 0 || layer >= layers) {
      throw attn::InputError(
          "layer " + std::to_string(layer) + " does not exist: the trained model has " +
          std::to_string(layers) +
          (layers == 1 ? " layer (0)" : " layers (0 to " + std::to_string(layers - 1) + ")"));
    }
    cache.result = run_trained(*m, text, layer);
  } catch (const attn::InputError& e) {
    cache.error = e.what();
  } catch (const std::bad_alloc&) {
    cache.error = "this is too large to compute here; try a shorter text";
  }
  cache.compute_ms = ms_since(t0);
  return cache;
}

}  // namespace

const CachedPipeline& trained_pipeline(const std::string& text, int layer) {
  TrainedModelStore& store = logic_state().trained;
  Memo<CachedPipeline, long long, int, std::string>& memo = store.pipeline;
  const TrainedModel* m = trained_model();
  memo.get({m ? m->version : 0, layer, text}, [&] { return compute_trained(m, text, layer); });
  if (memo.ok()) return memo.value();
  store.too_large.error = memo.error();
  return store.too_large;
}

void apply_model_sizes(Settings& s, const TrainedModel& m) {
  const attn::train::ModelConfig& c = m.model.config;
  s.d_model = c.d_model;
  s.heads = c.heads;
  s.positions = c.positions;
  s.causal = c.causal;
}

Settings with_model_sizes(const Settings& s) {
  const TrainedModel* m = trained_model();
  if (!uses_trained_model(s) || !m) return s;
  Settings v = s;
  apply_model_sizes(v, *m);
  return v;
}

nlohmann::json trained_model_json_summary() {
  const TrainedModel* m = trained_model();
  if (!m) return nullptr;
  const attn::train::ModelConfig& c = m->model.config;
  nlohmann::json j;  // key by key: nlohmann's initializer lists cost the page more code
  j["positions"] = attn::scheme_name(c.positions);
  j["d_model"] = c.d_model;
  j["heads"] = c.heads;
  j["layers"] = c.layers;
  j["source"] = m->source;
  j["from_file"] = m->from_file;
  j["version"] = m->version;
  j["steps"] = m->info.is_object() && m->info.contains("steps") ? m->info["steps"] : nlohmann::json(nullptr);
  return j;
}

}  // namespace app
