// JSON <-> matrix conversion for the command-line tool, with errors that name the bad field.
#pragma once

#include <cstdint>
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

// A (rows, cols) array of arrays of numbers -> Mat, cols >= 1; `what` names the field in errors.
Mat matrix_from_json(const json& j, const std::string& what);
// The number of columns of a matrix field (the length of its first row) without converting it: what the
// work caps count before anything is computed. `fallback` when the field is absent or not an array of
// arrays (matrix_from_json then names the problem).
long long matrix_width(const json& j, const char* name, long long fallback);
// A flat array of numbers -> (1, n).
RowVec row_from_json(const json& j, const std::string& what);
// x given as (T, D) or (B, T, D) -> batch of (T, D); sets `batched` when the input had a batch axis.
Batch batch_from_json(const json& j, const std::string& what, bool& batched);

json to_json(const Mat& m);
json to_json(const RowVec& v);
// A float32 as the shortest decimal that reads back as the same float (0.99347824, not
// 0.9934782385826111); a measure in double rounded to float first, so it prints as briefly.
double tidy(float v);
double tidy(double v);
json tidy(const std::vector<float>& v);
// [rows][cols] of tidy numbers.
json tidy(const std::vector<std::vector<double>>& m);

// Optional typed fields with a default; wrong types raise InputError naming the field.
// A whole number from lo to hi: a JSON integer (1e3, 2.5 and 5.0 are refused), its range checked before
// any conversion, so 18446744073709551615 or -1 never wraps into range.
long long whole_field(const json& j, const char* name, long long fallback, long long lo, long long hi);
// whole_field within the range of int.
int int_field(const json& j, const char* name, int fallback);
// A seed: whole_field from 0 to 2^53 - 1 (the largest a JSON model file stores exactly).
std::uint64_t seed_field(const json& j, const char* name, std::uint64_t fallback);
bool bool_field(const json& j, const char* name, bool fallback);
double number_field(const json& j, const char* name, double fallback);
std::string string_field(const json& j, const char* name, const std::string& fallback);

}  // namespace attn::cli
