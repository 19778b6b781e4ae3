// The app's JSON output in one place: a matrix as rows of numbers, and a document as the compact text the
// page's API returns.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace app {

// Row r of m (rows, cols): (cols,) values.
std::vector<float> row_values(const attn::Mat& m, Eigen::Index r);
// m (rows, cols) as an array of `rows` arrays of `cols` numbers.
nlohmann::json matrix_json(const attn::Mat& m);
// j as one line of JSON; bytes that are not UTF-8 (a cut or pasted text) become U+FFFD instead of throwing.
std::string json_text(const nlohmann::json& j);

}  // namespace app
