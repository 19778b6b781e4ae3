// Trained router <-> JSON: writes every float32 weight as its exact double, checks every field of a read
// document (model_stream.cpp reads the text into one).
#include "model_io/model_json.hpp"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/index_sort.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_checks.hpp"

namespace attn::model_io {

using nlohmann::json;
using train::Model;
using train::Vocab;

[[noreturn]] void bad(std::initializer_list<MessagePart> parts) {
  throw InputError("model file: " + join_message(parts));
}

namespace {

// [SECTION] typed fields
// Fields are read through get_ptr (a pointer or null, never a throw), and every message is one
// throw_input_error list: the checks stay small.

const json& required(const json& obj, const char* key, std::string_view where) {
  const auto& members = obj.get_ref<const json::object_t&>();
  auto it = members.find(key);
  if (it == members.end()) bad({where, " has no \"", key, "\" field"});
  return it->second;
}

// The largest magnitude a whole number in a model file may have: 2^53, below which every double is exact.
constexpr double kMaxWhole = 9007199254740992.0;

// j's value when it is a whole number: an integer, or a float with no fraction of magnitude at most 2^53.
// The float's range is checked before it is converted (an out-of-range conversion is undefined natively and
// traps in wasm).
long long integer_value(const json& j, std::string_view what) {
  if (const auto* u = j.get_ptr<const json::number_unsigned_t*>()) {
    if (*u > static_cast<std::uint64_t>(LLONG_MAX)) bad({what, " = ", j.dump(), " is out of range"});
    return static_cast<long long>(*u);
  }
  if (const auto* i = j.get_ptr<const json::number_integer_t*>()) return *i;
  if (const auto* d = j.get_ptr<const json::number_float_t*>()) {
    const bool in_range = *d >= -kMaxWhole && *d <= kMaxWhole;  // false for NaN
    if (!in_range) bad({what, " = ", j.dump(), " is out of range"});
    if (*d == std::floor(*d)) return static_cast<long long>(*d);
  }
  bad({what, " must be a whole number, not ", j.is_number() ? j.dump() : std::string(j.type_name())});
}

std::vector<std::string> string_list(const json& j, std::string_view what) {
  const auto* items = j.get_ptr<const json::array_t*>();
  if (!items) bad({what, " must be a list of strings, not ", j.type_name()});
  std::vector<std::string> out;
  out.reserve(items->size());
  for (const json& item : *items) {
    const size_t i = out.size();
    const auto* s = item.get_ptr<const json::string_t*>();
    if (!s) bad({what, "[", i, "] must be a string, not ", item.type_name()});
    if (s->empty()) bad({what, "[", i, "] is an empty string"});
    out.push_back(*s);
  }
  return out;
}

// The first word that is listed a second time (the one whose second entry comes first), or null.
// (words.size()) sorted once; each word then finds its first equal entry by binary search.
const std::string* first_repeat(const std::vector<std::string>& words) {
  std::vector<std::string> sorted = words;
  attn::sort_strings(sorted);
  std::vector<char> seen(sorted.size());
  for (const std::string& w : words) {
    size_t lo = 0, hi = sorted.size();  // the first entry of sorted not below w
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (sorted[mid] < w) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (seen[lo]) return &w;
    seen[lo] = 1;
  }
  return nullptr;
}

// [SECTION] config

// The config's whole-number fields, in the order they are read and checked.
struct IntField {
  const char* key;
  int ModelConfig::*member;
};
constexpr IntField kIntFields[] = {{"d_model", &ModelConfig::d_model}, {"heads", &ModelConfig::heads},
                                   {"layers", &ModelConfig::layers},   {"d_ff", &ModelConfig::d_ff},
                                   {"vocab", &ModelConfig::vocab},     {"classes", &ModelConfig::classes},
                                   {"max_len", &ModelConfig::max_len}};

}  // namespace

json config_json(const ModelConfig& c) {
  json j(json::value_t::object);
  for (const IntField& f : kIntFields) j[f.key] = c.*f.member;
  j["positions"] = scheme_name(c.positions);
  j["seed"] = c.seed;
  j["causal"] = c.causal;
  return j;
}

ModelConfig config_from_json(const json& j) {
  if (!j.is_object()) bad({"\"config\" must be an object, not ", j.type_name()});
  ModelConfig c;
  for (const IntField& f : kIntFields) {
    const std::string what = std::string("config.") + f.key;
    const long long v = integer_value(required(j, f.key, "config"), what);
    if (v < INT_MIN || v > INT_MAX) bad({what, " = ", v, " is out of range"});
    c.*f.member = static_cast<int>(v);
  }
  const json& positions = required(j, "positions", "config");
  const auto* name = positions.get_ptr<const json::string_t*>();
  if (!name) bad({"config.positions must be a string, not ", positions.type_name()});
  try {
    c.positions = parse_scheme(*name, train::trainable_schemes());
  } catch (const InputError& e) {
    bad({"config.positions: ", e.what()});
  }
  const long long seed = integer_value(required(j, "seed", "config"), "config.seed");
  if (seed < 0 || seed > kMaxSeed)
    bad({"config.seed = ", seed, " is out of range; allowed: 0 to ", kMaxSeed});
  c.seed = static_cast<std::uint64_t>(seed);
  const json& causal = required(j, "causal", "config");
  const auto* flag = causal.get_ptr<const json::boolean_t*>();
  if (!flag) bad({"config.causal must be true or false, not ", causal.type_name()});
  c.causal = *flag;
  try {
    train::validate_config(c);
  } catch (const InputError& e) {
    bad({"the config cannot build a model: ", e.what()});
  }
  return c;
}

void check_format(const json& doc) {
  const auto& top = doc.get_ref<const json::object_t&>();
  auto format = top.find("format");
  const auto* format_name = format == top.end() ? nullptr : format->second.get_ptr<const json::string_t*>();
  if (!format_name) bad({"this is not a router model: it has no \"format\": \"", kFormat, "\" field"});
  if (*format_name != kFormat) {
    bad({"this is not a router model: its format is \"", *format_name, "\", expected \"", kFormat, "\""});
  }
}

void unexpected_tensor(const std::string& name, const ModelConfig& c) {
  bad({"unexpected tensor '", name, "': a ", scheme_name(c.positions), " model with ", c.layers,
       " layer(s) and d_ff ", c.d_ff, " has no such tensor"});
}

namespace {

// [SECTION] tensors

// {"shape": [rows, cols], "data": [rows * cols doubles, row-major]} of a (rows, cols) tensor.
json tensor_json(const std::string& name, const train::MatT<float>& m) {
  json data(json::value_t::array);
  auto& numbers = data.get_ref<json::array_t&>();
  numbers.reserve(static_cast<size_t>(m.size()));
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const float v = m.data()[i];  // row-major storage
    if (!std::isfinite(v)) {
      throw_input_error({"cannot save the model: tensor '", name, "' holds a NaN or infinite value"});
    }
    numbers.emplace_back(static_cast<double>(v));  // exact: every float is a double
  }
  json shape(json::value_t::array);
  shape.push_back(json(m.rows()));
  shape.push_back(json(m.cols()));
  json t(json::value_t::object);
  t["shape"] = std::move(shape);
  t["data"] = std::move(data);
  return t;
}

// Checks one tensor's shape and the length of its data against `want`, without allocating anything; returns
// its data: the float32 bytes model_stream.cpp streamed its numbers into, each checked as it came.
const json::binary_t& check_tensor_json(const json& j, const std::string& name, std::pair<int, int> want) {
  const std::string what = "tensor '" + name + "'";
  if (!j.is_object()) bad({what, " must be an object with \"shape\" and \"data\", not ", j.type_name()});
  const json& shape = required(j, "shape", what);
  const auto* dims = shape.get_ptr<const json::array_t*>();
  if (!dims || dims->size() != 2) {
    bad({what, " needs \"shape\": [rows, cols], two whole numbers, not a ", shape.type_name(), " of ",
         dims ? dims->size() : 1, " item(s)"});
  }
  const long long rows = integer_value((*dims)[0], what + " rows");
  const long long cols = integer_value((*dims)[1], what + " columns");
  if (rows != want.first || cols != want.second) {
    bad({what, " has shape [", rows, ", ", cols, "] but this config needs [", want.first, ", ", want.second,
         "]"});
  }
  const json& data = required(j, "data", what);
  const auto* floats = data.get_ptr<const json::binary_t*>();
  if (!floats) bad({what, " \"data\" must be a list of numbers, not ", data.type_name()});
  const size_t n = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  if (floats->size() != n * sizeof(float)) {
    bad({what, " has ", floats->size() / sizeof(float), " numbers in \"data\"; its shape [", rows, ", ", cols,
         "] needs ", n});
  }
  return *floats;
}

}  // namespace

// [SECTION] save

json model_to_json_value(const Model& model, const Vocab& vocab, const std::vector<std::string>& labels,
                         const json& training_info) {
  const ModelConfig& c = model.config;
  if (vocab.size() != c.vocab) {
    throw_input_error({"cannot save the model: the vocab has ", vocab.size(), " words but the model has ",
                       c.vocab, " token ids"});
  }
  if (static_cast<int>(labels.size()) != c.classes) {
    throw_input_error({"cannot save the model: ", labels.size(), " labels for ", c.classes, " classes"});
  }
  if (!training_info.is_null() && !training_info.is_object()) {
    throw_input_error({"cannot save the model: the training information must be a JSON object"});
  }
  json tensors(json::value_t::object);
  for (const auto& [name, m] : model.params.named_tensors()) tensors[name] = tensor_json(name, *m);
  json doc(json::value_t::object);
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["config"] = config_json(c);
  doc["vocab"] = vocab.words;
  doc["labels"] = labels;
  doc["tensors"] = std::move(tensors);
  if (!training_info.is_null()) doc["training"] = training_info;
  return doc;
}

std::string model_to_json(const Model& model, const Vocab& vocab, const std::vector<std::string>& labels,
                          const json& training_info, int indent) {
  return model_to_json_value(model, vocab, labels, training_info).dump(indent);
}

// [SECTION] load

LoadedModel model_from_streamed(const json& doc) {
  if (!doc.is_object()) bad({"expected a JSON object at the top, not ", doc.type_name()});
  const auto& top = doc.get_ref<const json::object_t&>();
  check_format(doc);
  const long long version = integer_value(required(doc, "version", "the file"), "version");
  if (version != kVersion) {
    bad({"version ", version, " is not supported; this build reads version ", kVersion,
         version > kVersion ? " (the file was written by a newer build)" : ""});
  }

  LoadedModel out;
  const ModelConfig c = config_from_json(required(doc, "config", "the file"));

  out.vocab.words = string_list(required(doc, "vocab", "the file"), "vocab");
  if (out.vocab.size() != c.vocab) {
    bad({"the vocab lists ", out.vocab.size(), " words but config.vocab is ", c.vocab});
  }
  if (out.vocab.words[0] != "<unk>") bad({"vocab[0] must be \"<unk>\", not \"", out.vocab.words[0], "\""});
  if (const std::string* twice = first_repeat(out.vocab.words))
    bad({"the vocab lists \"", *twice, "\" twice"});

  out.labels = string_list(required(doc, "labels", "the file"), "labels");
  if (static_cast<int>(out.labels.size()) != c.classes) {
    bad({"there are ", out.labels.size(), " labels but config.classes is ", c.classes});
  }

  const json& tensors = required(doc, "tensors", "the file");
  if (!tensors.is_object()) bad({"\"tensors\" must be an object, not ", tensors.type_name()});
  const auto& named = tensors.get_ref<const json::object_t&>();
  const auto expected = Params::expected_shapes(c);  // names and order of Params::named_tensors()
  for (const auto& item : named) {
    bool known = false;
    for (const auto& e : expected) known = known || e.first == item.first;
    if (!known) unexpected_tensor(item.first, c);
  }
  // every tensor is checked against the config before any weight is allocated
  std::vector<const json::binary_t*> data;  // (expected.size())
  for (const auto& [name, shape] : expected) {
    auto it = named.find(name);
    if (it == named.end()) bad({"tensor '", name, "' is missing"});
    data.push_back(&check_tensor_json(it->second, name, shape));
  }
  Params params = Params::init(c, false);  // every weight is the file's
  const auto weights = params.named_tensors();
  for (size_t i = 0; i < weights.size(); ++i) {
    train::MatT<float>& m = *weights[i].second;  // (rows, cols) of expected[i], row-major
    std::memcpy(m.data(), data[i]->data(), data[i]->size());
  }
  try {
    out.model = Model(c, std::move(params));
  } catch (const InputError& e) {
    bad({e.what()});
  }

  auto training = top.find("training");
  if (training != top.end() && !training->second.is_null()) {
    if (!training->second.is_object())
      bad({"\"training\" must be an object, not ", training->second.type_name()});
    out.training_info = training->second;
  }
  return out;
}

LoadedModel model_from_json_value(const json& doc) {
  return model_from_json(doc.dump());  // its numbers streamed and checked as a file's are
}

}  // namespace attn::model_io
