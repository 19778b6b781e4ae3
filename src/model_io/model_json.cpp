// Trained router <-> JSON: writes every float32 weight as its exact double, checks every field on load.
#include "model_io/model_json.hpp"

#include <cfloat>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "core/input_limits.hpp"

namespace attn::model_io {

using nlohmann::json;
using train::Model;
using train::ModelConfig;
using train::Params;
using train::Vocab;

namespace {

// [SECTION] errors and typed fields

[[noreturn]] void bad(const std::string& message) {
  throw InputError("model file: " + message);
}

std::string shape_text(long long rows, long long cols) {
  return "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
}

const char* type_text(const json& j) {
  return j.type_name();
}

const json& required(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) bad(where + " has no \"" + key + "\" field");
  return *it;
}

long long integer_value(const json& j, const std::string& what) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())) bad(what + " is too large");
    return static_cast<long long>(u);
  }
  if (j.is_number_integer()) return j.get<long long>();
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) return static_cast<long long>(d);
  }
  bad(what + " must be a whole number, not " + (j.is_number() ? j.dump() : std::string(type_text(j))));
}

int int_field(const json& obj, const char* key, const std::string& where) {
  const long long v = integer_value(required(obj, key, where), where + "." + key);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    bad(where + "." + key + " = " + std::to_string(v) + " is out of range");
  }
  return static_cast<int>(v);
}

std::vector<std::string> string_list(const json& j, const std::string& what) {
  if (!j.is_array()) bad(what + " must be a list of strings, not " + type_text(j));
  std::vector<std::string> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) {
      bad(what + "[" + std::to_string(i) + "] must be a string, not " + type_text(j[i]));
    }
    out.push_back(j[i].get<std::string>());
    if (out.back().empty()) bad(what + "[" + std::to_string(i) + "] is an empty string");
  }
  return out;
}

// [SECTION] config

json config_json(const ModelConfig& c) {
  return {{"d_model", c.d_model}, {"heads", c.heads},
          {"layers", c.layers},   {"d_ff", c.d_ff},
          {"vocab", c.vocab},     {"classes", c.classes},
          {"max_len", c.max_len}, {"positions", scheme_name(c.positions)},
          {"seed", c.seed},       {"causal", c.causal}};
}

ModelConfig config_from_json(const json& j) {
  if (!j.is_object()) bad(std::string("\"config\" must be an object, not ") + type_text(j));
  const std::string where = "config";
  ModelConfig c;
  c.d_model = int_field(j, "d_model", where);
  c.heads = int_field(j, "heads", where);
  c.layers = int_field(j, "layers", where);
  c.d_ff = int_field(j, "d_ff", where);
  c.vocab = int_field(j, "vocab", where);
  c.classes = int_field(j, "classes", where);
  c.max_len = int_field(j, "max_len", where);
  const json& positions = required(j, "positions", where);
  if (!positions.is_string())
    bad(std::string("config.positions must be a string, not ") + type_text(positions));
  try {
    c.positions = parse_scheme(positions.get<std::string>(),
                               {Scheme::None, Scheme::Sinusoidal, Scheme::Learned, Scheme::Rope});
  } catch (const InputError& e) {
    bad(std::string("config.positions: ") + e.what());
  }
  const long long seed = integer_value(required(j, "seed", where), "config.seed");
  const json& seed_json = j["seed"];
  if (seed_json.is_number_unsigned()) {
    c.seed = seed_json.get<std::uint64_t>();  // the full 64-bit range
  } else {
    if (seed < 0) bad("config.seed must not be negative");
    c.seed = static_cast<std::uint64_t>(seed);
  }
  const json& causal = required(j, "causal", where);
  if (!causal.is_boolean()) bad(std::string("config.causal must be true or false, not ") + type_text(causal));
  c.causal = causal.get<bool>();
  try {
    train::validate_config(c);
  } catch (const InputError& e) {
    bad(std::string("the config cannot build a model: ") + e.what());
  }
  return c;
}

// [SECTION] tensors

json tensor_json(const std::string& name, const train::MatT<float>& m) {
  json data = json::array();
  auto& arr = data.get_ref<json::array_t&>();
  arr.reserve(static_cast<size_t>(m.size()));
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const float v = m.data()[i];  // row-major storage
    if (!std::isfinite(v)) {
      throw InputError("cannot save the model: tensor '" + name + "' holds a NaN or infinite value");
    }
    arr.emplace_back(static_cast<double>(v));  // exact: every float is a double
  }
  return {{"shape", {m.rows(), m.cols()}}, {"data", std::move(data)}};
}

// Checks one tensor's shape and the length of its data against `want`, without allocating anything.
void check_tensor_json(const json& j, const std::string& name, std::pair<int, int> want) {
  const std::string what = "tensor '" + name + "'";
  if (!j.is_object()) bad(what + " must be an object with \"shape\" and \"data\", not " + type_text(j));
  const json& shape = required(j, "shape", what);
  if (!shape.is_array() || shape.size() != 2)
    bad(what + " needs \"shape\": [rows, cols], two whole numbers, not a " + type_text(shape) + " of " +
        std::to_string(shape.is_array() ? shape.size() : 1) + " item(s)");
  const long long rows = integer_value(shape[0], what + " rows");
  const long long cols = integer_value(shape[1], what + " columns");
  if (rows != want.first || cols != want.second) {
    bad(what + " has shape " + shape_text(rows, cols) + " but this config needs " +
        shape_text(want.first, want.second));
  }
  const json& data = required(j, "data", what);
  if (!data.is_array()) bad(what + " \"data\" must be a list of numbers, not " + type_text(data));
  const size_t n = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  if (data.size() != n) {
    bad(what + " has " + std::to_string(data.size()) + " numbers in \"data\"; its shape " +
        shape_text(rows, cols) + " needs " + std::to_string(n));
  }
}

// One tensor (checked by check_tensor_json) into `out`: (rows, cols), every number finite.
void tensor_from_json(const json& j, const std::string& name, std::pair<int, int> want,
                      train::MatT<float>& out) {
  const std::string what = "tensor '" + name + "'";
  const json& data = j.at("data");
  const size_t n = static_cast<size_t>(want.first) * static_cast<size_t>(want.second);
  out.resize(want.first, want.second);
  for (size_t i = 0; i < n; ++i) {
    const json& v = data[i];
    if (!v.is_number()) {
      bad(what + " data[" + std::to_string(i) + "] is " +
          (v.is_null() ? "null (NaN or infinite when saved)" : "a " + std::string(type_text(v))) +
          ", not a number");
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(FLT_MAX)) {
      bad(what + " data[" + std::to_string(i) + "] = " + v.dump() + " is not a finite float32");
    }
    out.data()[i] = static_cast<float>(d);
  }
}

}  // namespace

// [SECTION] save

json model_to_json_value(const Model& model, const Vocab& vocab, const std::vector<std::string>& labels,
                         const json& training_info) {
  const ModelConfig& c = model.config;
  if (vocab.size() != c.vocab) {
    throw InputError("cannot save the model: the vocab has " + std::to_string(vocab.size()) +
                     " words but the model has " + std::to_string(c.vocab) + " token ids");
  }
  if (static_cast<int>(labels.size()) != c.classes) {
    throw InputError("cannot save the model: " + std::to_string(labels.size()) + " labels for " +
                     std::to_string(c.classes) + " classes");
  }
  if (!training_info.is_null() && !training_info.is_object()) {
    throw InputError("cannot save the model: the training information must be a JSON object");
  }
  json tensors = json::object();
  for (const auto& [name, m] : model.params.named_tensors()) tensors[name] = tensor_json(name, *m);
  json doc = {{"format", kFormat},    {"version", kVersion}, {"config", config_json(c)},
              {"vocab", vocab.words}, {"labels", labels},    {"tensors", std::move(tensors)}};
  if (!training_info.is_null()) doc["training"] = training_info;
  return doc;
}

std::string model_to_json(const Model& model, const Vocab& vocab, const std::vector<std::string>& labels,
                          const json& training_info, int indent) {
  return model_to_json_value(model, vocab, labels, training_info).dump(indent);
}

// [SECTION] load

LoadedModel model_from_json_value(const json& doc) {
  if (!doc.is_object()) bad(std::string("expected a JSON object at the top, not ") + type_text(doc));
  auto format = doc.find("format");
  if (format == doc.end() || !format->is_string()) {
    bad(std::string("this is not a router model: it has no \"format\": \"") + kFormat + "\" field");
  }
  if (format->get<std::string>() != kFormat) {
    bad("this is not a router model: its format is \"" + format->get<std::string>() + "\", expected \"" +
        kFormat + "\"");
  }
  const long long version = integer_value(required(doc, "version", "the file"), "version");
  if (version != kVersion) {
    bad("version " + std::to_string(version) + " is not supported; this build reads version " +
        std::to_string(kVersion) + (version > kVersion ? " (the file was written by a newer build)" : ""));
  }

  LoadedModel out;
  const ModelConfig c = config_from_json(required(doc, "config", "the file"));

  out.vocab.words = string_list(required(doc, "vocab", "the file"), "vocab");
  if (out.vocab.size() != c.vocab) {
    bad("the vocab lists " + std::to_string(out.vocab.size()) + " words but config.vocab is " +
        std::to_string(c.vocab));
  }
  if (out.vocab.words[0] != "<unk>") bad("vocab[0] must be \"<unk>\", not \"" + out.vocab.words[0] + "\"");
  std::unordered_set<std::string> seen;
  for (const auto& w : out.vocab.words) {
    if (!seen.insert(w).second) bad("the vocab lists \"" + w + "\" twice");
  }

  out.labels = string_list(required(doc, "labels", "the file"), "labels");
  if (static_cast<int>(out.labels.size()) != c.classes) {
    bad("there are " + std::to_string(out.labels.size()) + " labels but config.classes is " +
        std::to_string(c.classes));
  }

  const json& tensors = required(doc, "tensors", "the file");
  if (!tensors.is_object()) bad(std::string("\"tensors\" must be an object, not ") + type_text(tensors));
  const auto expected = Params::expected_shapes(c);
  std::unordered_map<std::string, std::pair<int, int>> wanted(expected.begin(), expected.end());
  for (const auto& item : tensors.items()) {
    if (!wanted.count(item.key())) {
      bad("unexpected tensor '" + item.key() + "': a " + scheme_name(c.positions) + " model with " +
          std::to_string(c.layers) + " layer(s) and d_ff " + std::to_string(c.d_ff) + " has no such tensor");
    }
  }
  // every tensor is checked against the config before any weight is allocated
  for (const auto& [name, shape] : expected) {
    auto it = tensors.find(name);
    if (it == tensors.end()) bad("tensor '" + name + "' is missing");
    check_tensor_json(*it, name, shape);
  }
  Params params = Params::init(c);
  for (auto& [name, m] : params.named_tensors())
    tensor_from_json(tensors.at(name), name, wanted.at(name), *m);
  try {
    out.model = Model(c, std::move(params));
  } catch (const InputError& e) {
    bad(e.what());
  }

  auto training = doc.find("training");
  if (training != doc.end() && !training->is_null()) {
    if (!training->is_object())
      bad(std::string("\"training\" must be an object, not ") + type_text(*training));
    out.training_info = *training;
  }
  return out;
}

LoadedModel model_from_json(const std::string& text) {
  try {
    require_json_depth(text, "it");
  } catch (const InputError& e) {
    bad(e.what());
  }
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> the part after "] "
    const auto cut = what.find("] ");
    if (cut != std::string::npos) what = what.substr(cut + 2);
    bad("not valid JSON (" + what + ")");
  }
  return model_from_json_value(doc);
}

}  // namespace attn::model_io
