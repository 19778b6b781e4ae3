// ALiBi: head h of H adds -slope_h x |i - j| to its scores, slope_h = 2^(-8(h+1)/H): far keys fade.
#include <cmath>

#include "core/error.hpp"
#include "core/positions.hpp"

namespace attn {

float Alibi::slope(int head) const {
  require_range(heads, 1, kMaxDModel, "the number of heads");
  require_range(head, 0, heads - 1, "the head index");
  return static_cast<float>(std::exp2(-8.0 * (head + 1) / heads));
}

Mat Alibi::bias(const std::vector<int>& positions, int head) const {
  require_positions(positions);
  const auto n = static_cast<Eigen::Index>(positions.size());
  Mat b = Mat::Zero(n, n);
  ops::add_alibi_bias(b, positions, slope(head));
  return b;
}

namespace {

void distance_penalty(ops::HeadMask& mask, int head, int heads) {
  mask.alibi_slope = Alibi{heads}.slope(head);
}

}  // namespace

extern const SchemeDef kAlibiScheme;
const SchemeDef kAlibiScheme = {Scheme::Alibi,
                                "alibi",
                                "each head subtracts a penalty growing with the distance from its scores",
                                kUseAttention | kUseRouter,
                                /*added=*/nullptr,
                                /*trained_table=*/false,
                                /*rotation=*/nullptr,
                                distance_penalty};

}  // namespace attn
