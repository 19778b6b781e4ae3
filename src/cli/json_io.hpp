// JSON <-> matrix conversion for the command-line tool, with errors that name the bad field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/types.hpp"

namespace attn::cli {

using nlohmann::json;

// Reads a whole JSON document from a file path, or from stdin when path is "-", and parses it with
// parse_json_object().
json read_json_input(const std::string& path);
// Parses the text of one JSON object (the input of attend and block); InputError when it is not one.
json parse_json_object(const std::string& text);

// A (rows, cols) array of arrays of numbers -> Mat; `what` names the field in errors.
Mat matrix_from_json(const json& j, const std::string& what);
// A flat array of numbers -> (1, n).
RowVec row_from_json(const json& j, const std::string& what);
// x given as (T, D) or (B, T, D) -> batch of (T, D); sets `batched` when the input had a batch axis.
Batch batch_from_json(const json& j, const std::string& what, bool& batched);

json to_json(const Mat& m);
json to_json(const RowVec& v);

// Optional typed fields with a default; wrong types raise InputError naming the field.
int int_field(const json& j, const char* name, int fallback);
bool bool_field(const json& j, const char* name, bool fallback);
double number_field(const json& j, const char* name, double fallback);
std::string string_field(const json& j, const char* name, const std::string& fallback);

}  // namespace attn::cli
