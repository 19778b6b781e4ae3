// A Hugging Face folder's config.json: parsed as one JSON object, and its whole-number fields read with their
// ranges checked, for the checkpoint readers.
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

}  // namespace attn::model_io
