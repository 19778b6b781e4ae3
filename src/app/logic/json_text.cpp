// The app's JSON output: matrices as rows, documents as compact text.
#include "app/logic/json_text.hpp"

namespace app {

std::vector<float> row_values(const attn::Mat& m, Eigen::Index r) {
  return std::vector<float>(m.row(r).data(), m.row(r).data() + m.cols());
}

nlohmann::json matrix_json(const attn::Mat& m) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) out.push_back(row_values(m, r));
  return out;
}

std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace app
