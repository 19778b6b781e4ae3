// Save and load a trained refund router as one JSON document: one file for the app, the browser and the CLI.
//
// The file:
//   {"format": "attention-demo-router", "version": 1,
//    "config": {"d_model", "heads", "layers", "d_ff", "vocab", "classes", "max_len",
//               "positions": "none|sinusoidal|learned|rope|alibi", "seed", "causal"},
//    "vocab": ["<unk>", words...],            // (config.vocab) token id -> word
//    "labels": [item names...],               // (config.classes) class index -> label
//    "tensors": {name: {"shape": [rows, cols], "data": [rows * cols floats, row-major]}},
//    "training": {...}}                       // optional, free-form (steps, test_accuracy, ...)
// Tensor names and shapes are Params::named_tensors() / Params::expected_shapes(config).
// Floats are written as the exact double value of each float32, so a save -> load round trip is
// bit-identical on every platform.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/model.hpp"
#include "core/train/vocab.hpp"

namespace attn::model_io {

inline constexpr const char* kFormat = "attention-demo-router";
inline constexpr int kVersion = 1;

struct LoadedModel {
  train::Model model;
  train::Vocab vocab;
  std::vector<std::string> labels;  // (config.classes)
  nlohmann::json training_info;     // the file's "training" object, or null when it has none
};

// A model file's "config" object: every field of ModelConfig, the scheme by its name.
nlohmann::json config_json(const train::ModelConfig& c);

// The model as a JSON document. Throws InputError when the vocab or labels do not fit the model's config
// (vocab.size() != config.vocab, labels.size() != config.classes) or a weight is NaN or infinite.
// training_info must be null (left out) or an object.
nlohmann::json model_to_json_value(const train::Model& model, const train::Vocab& vocab,
                                   const std::vector<std::string>& labels,
                                   const nlohmann::json& training_info = nlohmann::json());
// The same, serialised (indent < 0: one line; indent >= 0: pretty-printed with that many spaces).
std::string model_to_json(const train::Model& model, const train::Vocab& vocab,
                          const std::vector<std::string>& labels,
                          const nlohmann::json& training_info = nlohmann::json(), int indent = -1);

// Reads a model file's text. Throws InputError saying what is wrong: not JSON, another format or version,
// a missing or wrongly typed config field, an unusable config, a vocab or label list of the wrong size,
// a missing, unexpected or wrongly shaped tensor, a non-finite number; or a file past the limits (more than
// kMaxInputBytes, nested deeper than kMaxJsonDepth, more numbers than its config's tensors hold). No tree
// of the tensors' numbers is built (src/model_io/model_stream.cpp).
LoadedModel model_from_json(const std::string& text);

// Where a model file's bytes come from, a chunk at a time (the page hands its download over so, never
// copying the whole text into the heap): read() fills up to `cap` bytes of `dst`, returns how many, 0 at the
// end.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::size_t read(char* dst, std::size_t cap) = 0;
};
// The same as model_from_json, reading from `source`. total_bytes (-1: unknown) is checked against
// kMaxInputBytes before anything is read, and so is every byte read.
LoadedModel model_from_source(ByteSource& source, long long total_bytes);

// The JSON document in `text`, or a discarded value (is_discarded()) when it is not valid JSON. The model
// reader's parser and input, so the page links one JSON lexer for model files, set() and lesson steps.
nlohmann::json parse_json(std::string_view text);

// The same for an already parsed document (written out and read back as a file is).
LoadedModel model_from_json_value(const nlohmann::json& doc);

// File helpers (desktop and CLI; the browser build has no file system): InputError naming the path when
// the file cannot be read or written.
void save_model_file(const std::string& path, const train::Model& model, const train::Vocab& vocab,
                     const std::vector<std::string>& labels,
                     const nlohmann::json& training_info = nlohmann::json());
LoadedModel load_model_file(const std::string& path);

}  // namespace attn::model_io
