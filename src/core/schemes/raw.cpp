// The lesson's first naive attempt: the position number itself, appended to each embedding.
#include "core/error.hpp"
#include "core/positions.hpp"

namespace attn {

Mat raw_position_table(const std::vector<int>& positions, int d_model) {
  return constant_rows(positions, d_model, [](int p) { return static_cast<float>(p); });
}

namespace {

Mat position_numbers(const std::vector<int>& positions, const SchemeArgs& a) {
  return raw_position_table(positions, a.d_model);
}

std::vector<SchemeFact> appended_width(const std::vector<int>&, const SchemeArgs& a) {
  return {{"width_after_appending", {a.d_model + 1.0}, false, true}};
}

}  // namespace

extern const SchemeDef kRawScheme;
const SchemeDef kRawScheme = {Scheme::Raw,
                              "raw",
                              "the position number itself (a naive attempt: it grows without bound)",
                              kUseTable,
                              position_numbers,
                              /*trained_table=*/false,
                              /*rotation=*/nullptr,
                              /*score_bias=*/nullptr,
                              /*appended=*/true,
                              /*takes_length=*/false,
                              appended_width};

}  // namespace attn
