// RoPE: each query and key pair (2i, 2i+1) turns by position x base^(-2i/d), so a score depends only on
// the offset between the two tokens. Nothing is added to the embeddings.
#include "core/analysis.hpp"
#include "core/error.hpp"
#include "core/positions.hpp"

namespace attn {

Mat Rope::rotate(const Mat& m, const std::vector<int>& positions) const {
  require_base(base);
  require_positions(positions);
  if (static_cast<Eigen::Index>(positions.size()) != m.rows()) {
    throw_input_error({"RoPE got ", positions.size(), " positions for ", m.rows(), " rows"});
  }
  const int width = static_cast<int>(m.cols());
  Mat out = m;
  ops::rope_rotate(out, 0, width, ops::RopeTable::for_positions(width, positions, base), false);
  return out;
}

float rope_score(const RowVec& q, const RowVec& k, int pos_q, int pos_k, double base) {
  if (q.size() != k.size() || q.size() == 0)
    throw InputError("RoPE needs a query and a key of the same width");
  const Rope rope{base};
  Mat score;  // (1, 1)
  ops::attention_scores<float>(rope.rotate(q, {pos_q}), rope.rotate(k, {pos_k}), ops::HeadMask{}, score);
  return score(0, 0);
}

namespace {

ops::RopeTable turn_angles(int width, const std::vector<int>& positions, double base) {
  require_base(base);
  return ops::RopeTable::for_positions(width, positions, base);
}

}  // namespace

extern const SchemeDef kRopeScheme;
const SchemeDef kRopeScheme = {Scheme::Rope,
                               "rope",
                               "queries and keys turned by their positions: scores see only the offset",
                               kUseAttention | kUseRouter,
                               /*added=*/nullptr,
                               /*trained_table=*/false,
                               turn_angles};

}  // namespace attn
