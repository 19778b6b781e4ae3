// Converts between JSON documents and the core's matrices, rejecting ragged, non-numeric or non-finite input.
#include "json_io.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>

#include "core/error.hpp"
#include "core/input_limits.hpp"

namespace attn::cli {

json read_json_input(const std::string& path) {
  if (path == "-") return parse_json_object(read_capped(std::cin, "the input on stdin"));
  return parse_json_object(read_file_capped(path, "the input file"));
}

json parse_json_object(const std::string& text) {
  require_json_depth(text, "the input");
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError("the input is not valid JSON; expected one JSON object");
  if (!j.is_object())
    throw InputError("the input must be a JSON object with fields such as \"x\" and \"heads\"");
  return j;
}

RowVec row_from_json(const json& j, const std::string& what) {
  if (!j.is_array()) throw InputError(what + " must be an array of numbers");
  RowVec v(static_cast<Eigen::Index>(j.size()));
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number()) throw InputError(what + "[" + std::to_string(i) + "] is not a number");
    v(static_cast<Eigen::Index>(i)) = static_cast<float>(j[i].get<double>());
  }
  require_finite(v, what);
  return v;
}

Mat matrix_from_json(const json& j, const std::string& what) {
  if (!j.is_array() || j.empty() || !j[0].is_array()) {
    throw InputError(what + " must be a non-empty array of rows (arrays of numbers)");
  }
  const size_t cols = j[0].size();
  if (cols == 0) throw InputError(what + " has rows of no numbers; it needs at least one column");
  Mat m(static_cast<Eigen::Index>(j.size()), static_cast<Eigen::Index>(cols));
  for (size_t r = 0; r < j.size(); ++r) {
    const std::string row_name = what + "[" + std::to_string(r) + "]";
    if (!j[r].is_array() || j[r].size() != cols) {
      throw InputError(row_name + " must be an array of " + std::to_string(cols) +
                       " numbers like the first row");
    }
    m.row(static_cast<Eigen::Index>(r)) = row_from_json(j[r], row_name);
  }
  return m;
}

long long matrix_width(const json& j, const char* name, long long fallback) {
  if (!j.contains(name) || !j[name].is_array() || j[name].empty() || !j[name][0].is_array()) return fallback;
  return static_cast<long long>(j[name][0].size());
}

Batch batch_from_json(const json& j, const std::string& what, bool& batched) {
  batched = j.is_array() && !j.empty() && j[0].is_array() && !j[0].empty() && j[0][0].is_array();
  if (!batched) return {matrix_from_json(j, what)};
  Batch b;
  for (size_t i = 0; i < j.size(); ++i)
    b.push_back(matrix_from_json(j[i], what + "[" + std::to_string(i) + "]"));
  for (const Mat& m : b) {
    if (m.rows() != b[0].rows() || m.cols() != b[0].cols()) {
      throw InputError(what + " must have the same (T, D) shape for every batch item");
    }
  }
  return b;
}

json to_json(const Mat& m) {
  json rows = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

json to_json(const RowVec& v) {
  json row = json::array();
  for (Eigen::Index c = 0; c < v.size(); ++c) row.push_back(v(c));
  return row;
}

long long whole_field(const json& j, const char* name, long long fallback, long long lo, long long hi) {
  if (!j.contains(name)) return fallback;
  const json& v = j[name];
  const auto refuse = [&] {
    throw InputError(std::string("\"") + name + "\" is " + one_line(v.dump()) +
                     "; allowed: a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  };
  if (!v.is_number_integer()) refuse();  // a float (1e300, 2.5, 5.0), string, array, ...
  if (v.is_number_unsigned()) {          // 0 .. 2^64 - 1: compared as unsigned before any signed cast
    const auto u = v.get<std::uint64_t>();
    if (hi < 0 || u > static_cast<std::uint64_t>(hi) || static_cast<long long>(u) < lo) refuse();
    return static_cast<long long>(u);
  }
  const auto n = v.get<std::int64_t>();
  if (n < lo || n > hi) refuse();
  return n;
}

int int_field(const json& j, const char* name, int fallback) {
  return static_cast<int>(whole_field(j, name, fallback, -2147483647LL, 2147483647LL));
}

std::uint64_t seed_field(const json& j, const char* name, std::uint64_t fallback) {
  return static_cast<std::uint64_t>(whole_field(j, name, static_cast<long long>(fallback), 0, kMaxSeed));
}

bool bool_field(const json& j, const char* name, bool fallback) {
  if (!j.contains(name)) return fallback;
  if (!j[name].is_boolean()) throw InputError(std::string("\"") + name + "\" must be true or false");
  return j[name].get<bool>();
}

double number_field(const json& j, const char* name, double fallback) {
  if (!j.contains(name)) return fallback;
  if (!j[name].is_number()) throw InputError(std::string("\"") + name + "\" must be a number");
  return j[name].get<double>();
}

std::string string_field(const json& j, const char* name, const std::string& fallback) {
  if (!j.contains(name)) return fallback;
  if (!j[name].is_string()) throw InputError(std::string("\"") + name + "\" must be a string");
  return j[name].get<std::string>();
}

double tidy(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  for (int digits = 6; digits < 9; ++digits) {  // fewer digits when they already round-trip
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, static_cast<double>(v));
    if (std::strtof(shorter, nullptr) == v) return std::strtod(shorter, nullptr);
  }
  return std::strtod(buf, nullptr);
}

double tidy(double v) {
  return tidy(static_cast<float>(v));
}

json tidy(const std::vector<float>& v) {
  json out = json::array();
  for (float x : v) out.push_back(tidy(x));
  return out;
}

json tidy(const std::vector<std::vector<double>>& m) {
  json out = json::array();
  for (const auto& row : m) {
    json r = json::array();
    for (double x : row) r.push_back(tidy(x));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace attn::cli
