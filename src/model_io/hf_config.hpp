// A Hugging Face folder's config.json: parsed as one JSON object, its whole-number fields read with their
// ranges checked and its strings and flags with their types checked, for the checkpoint readers.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_json.hpp"

namespace attn::model_io {

// config.json's text -> its object; InputError when it is not one (or nests too deep).
inline nlohmann::json parse_hf_config(const std::string& text) {
  require_json_depth(text, "config.json");
  nlohmann::json c = parse_json(text);
  if (!c.is_object()) throw InputError("config.json is not a JSON object");
  return c;
}

// The whole number c[key] in lo .. hi; InputError naming the key otherwise.
inline int hf_config_int(const nlohmann::json& c, const char* key, int lo, int hi) {
  if (!c.contains(key) || !c[key].is_number_integer()) {
    throw_input_error({"config.json has no whole number '", key, "'"});
  }
  const long long v = c[key].get<long long>();
  if (v < lo || v > hi) throw_input_error({"config.json's ", key, " is ", v, "; allowed: ", lo, " to ", hi});
  return static_cast<int>(v);
}

// The string c[key], or `otherwise` when it is absent or null; InputError naming the key when it is not a
// string.
inline std::string hf_config_string(const nlohmann::json& c, const char* key, const std::string& otherwise) {
  if (!c.contains(key) || c[key].is_null()) return otherwise;
  if (!c[key].is_string()) throw_input_error({"config.json's ", key, " is not a string"});
  return c[key].get<std::string>();
}

// The true or false c[key], or `otherwise` when it is absent or null; InputError naming the key otherwise.
inline bool hf_config_bool(const nlohmann::json& c, const char* key, bool otherwise) {
  if (!c.contains(key) || c[key].is_null()) return otherwise;
  if (!c[key].is_boolean()) throw_input_error({"config.json's ", key, " is not true or false"});
  return c[key].get<bool>();
}

}  // namespace attn::model_io
