// The app-wide trained refund router: set by the Train scene (or a loaded model file), read by the Train
// scene and by the multi-head attention scene's "trained" mode. No ImGui code.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/logic/memo.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/logic/settings.hpp"
#include "core/train/model.hpp"
#include "core/train/vocab.hpp"
#include "model_io/model_json.hpp"

namespace app {

struct TrainedModel {
  attn::train::Model model;
  attn::train::Vocab vocab;
  std::vector<std::string> labels;  // (classes) class index -> item name
  nlohmann::json info;              // how it was trained: {"steps", "seconds", "metrics", ...} or null
  std::string source;               // "trained in this session", or the file it came from
  bool from_file = false;
  long long version = 0;  // grows with every new model, so caches know when to recompute
};

// The current model, or nullptr before one was trained or loaded.
const TrainedModel* trained_model();
// Makes `m` the current model (its version is set here) and returns the new version.
long long publish_trained_model(TrainedModel m);
// A new version number for a model that is shown but not published (e.g. an untrained one).
long long next_model_version();

// A model as a model file's text (attn::model_io format, with its training info). Throws InputError when
// a weight is not finite.
std::string model_file_text(const TrainedModel& m);
// The current model's file text; "" if there is none (or it cannot be written).
std::string trained_model_file_text();

// Reads a model file's text and makes it the current model (from_file, source = `source`). Returns "" or
// the reason it could not be read (the current model then stays). Also kept in last_model_load().
std::string load_trained_model(const std::string& text, const std::string& source);
// The same, streaming the file from `bytes` (total_bytes: its size, -1 when unknown): the page hands its
// download over a chunk at a time, so the text is never in the heap whole.
std::string load_trained_model(attn::model_io::ByteSource& bytes, long long total_bytes,
                               const std::string& source);
// The same with the model `read` builds (InputError: the reason it could not): the model the page's compute
// worker read from a file (app/logic/model_messages.hpp).
std::string load_trained_model(const std::function<attn::model_io::LoadedModel()>& read,
                               const std::string& source);
// What a load says when memory ran out while reading the file.
inline constexpr const char* kTooLargeToLoad = "the file is too large to load";
// A load under way (the page downloads or reads a file): `received` of `total` bytes (total -1: unknown),
// shown until the load ends.
void show_model_load_progress(const std::string& source, long long received, long long total);
// The compute worker checks and builds the model as it reads the file: `read` of `total` bytes so far.
void show_model_build_progress(const std::string& source, long long read, long long total);

// What the last load attempt said, for display: ok, a message, and the model version it produced.
struct ModelLoadStatus {
  bool ok = false;
  std::string message;  // "" before any load
  long long version = 0;
  long long attempt = 0;  // counts load attempts, so a panel can tell that a new one happened
  std::string progress;   // a load under way ("reading model.json: 12.0 of 66.0 MB"), else ""
  float fraction = -1;    // its share done (0 to 1), or -1 when the total is unknown
};
const ModelLoadStatus& last_model_load();

// The current model on `text` as the attention scenes draw it: tokens, the (T, T) scores and weights of
// every head of layer `layer`, and their head_stats. Recomputed only when the text, layer or model
// changes. Fills an error (InputError's message) for unusable text or when there is no model.
const CachedPipeline& trained_pipeline(const std::string& text, int layer);

// Sets s's d_model, heads, positions and causal to the model's own.
void apply_model_sizes(Settings& s, const TrainedModel& m);
// Settings with the trained model's d_model and heads (for the parameter panel), or `s` itself.
Settings with_model_sizes(const Settings& s);
// state().shown["trained_model"]: the model's sizes, scheme, steps and source (null when there is none).
nlohmann::json trained_model_json_summary();

// What the functions above keep (held by the LogicState).
struct TrainedModelStore {
  std::unique_ptr<TrainedModel> current;  // the current model, or null
  long long versions = 0;                 // the last number next_model_version() handed out
  ModelLoadStatus load;                   // last_model_load()
  Memo<CachedPipeline, long long, int, std::string>
      pipeline;              // trained_pipeline(): model version, layer, text
  CachedPipeline too_large;  // the copy of a result could not be made: said in place
};

}  // namespace app
