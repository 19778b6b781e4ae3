// The lesson's second naive attempt: position / text length, appended to each embedding.
#include <algorithm>

#include "core/error.hpp"
#include "core/positions.hpp"

namespace attn {

Mat fraction_position_table(const std::vector<int>& positions, int length, int d_model) {
  require_range(length, 1, kMaxPosition, "the text length");
  for (int p : positions) {
    if (p >= length) {
      throw_input_error(
          {"position ", p, " is not inside a text of length ", length, "; allowed: 0 to ", length - 1});
    }
  }
  return constant_rows(positions, d_model,
                       [length](int p) { return static_cast<float>(static_cast<double>(p) / length); });
}

namespace {

int text_length(const std::vector<int>& positions, const SchemeArgs& a) {
  if (a.length || positions.empty()) return a.length.value_or(0);
  return *std::max_element(positions.begin(), positions.end()) + 1;
}

Mat fractions(const std::vector<int>& positions, const SchemeArgs& a) {
  return fraction_position_table(positions, text_length(positions, a), a.d_model);
}

std::vector<SchemeFact> length_and_width(const std::vector<int>& positions, const SchemeArgs& a) {
  return {{"length", {static_cast<double>(text_length(positions, a))}, false, true},
          {"width_after_appending", {a.d_model + 1.0}, false, true}};
}

}  // namespace

extern const SchemeDef kFractionScheme;
const SchemeDef kFractionScheme = {
    Scheme::Fraction,
    "fraction",
    "position / text length (a naive attempt: a step means less in longer texts)",
    kUseTable,
    fractions,
    /*trained_table=*/false,
    /*rotation=*/nullptr,
    /*score_bias=*/nullptr,
    /*appended=*/true,
    /*takes_length=*/true,
    length_and_width};

}  // namespace attn
