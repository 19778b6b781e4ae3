// The model file's checks that both readers use (model_json.cpp on a document, model_stream.cpp while it
// streams): every failure is an InputError starting "model file: ". Internal to src/model_io.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "core/train/model.hpp"
#include "model_io/model_json.hpp"

namespace attn::model_io {

using train::ModelConfig;
using train::Params;

// Throws InputError("model file: " + the pieces joined).
[[noreturn]] void bad(std::initializer_list<MessagePart> parts);
// The top-level "format" field names this project's router format (else: what it is instead).
void check_format(const nlohmann::json& doc);
// The "config" object read and checked: whole numbers in range, a trainable scheme, a buildable model.
ModelConfig config_from_json(const nlohmann::json& j);
// A document read by model_stream.cpp (each tensor's "data" as float32 bytes) checked and built into a model.
LoadedModel model_from_streamed(const nlohmann::json& doc);
// Throws: `name` is not one of the tensors a model of config `c` has.
[[noreturn]] void unexpected_tensor(const std::string& name, const ModelConfig& c);

}  // namespace attn::model_io
