// A learned table: one trainable vector per slot 0 .. slots-1, added to the embeddings; nothing past the
// last slot.
#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/rng.hpp"

namespace attn {

Learned::Learned(int s, int d, std::uint64_t seed) : slots(s), d_model(d) {
  require_range(slots, 1, 65536, "the number of learned slots");
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_weight_count(static_cast<long long>(slots) * d_model, "a learned table (slots x d_model)");
  Rng rng(mix_seed(seed, 0x1ea4edULL));
  weights = rng.normal_matrix(slots, d_model, 0.1f);
}

Mat Learned::table(const std::vector<int>& positions) const {
  require_positions(positions);
  Mat t(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r) {
    if (positions[r] >= slots) {
      throw_input_error({"position ", positions[r], " is past the end of the learned table: it has ", slots,
                         " slots (positions 0 to ", slots - 1,
                         "); a learned table cannot stretch to longer text"});
    }
    t.row(static_cast<Eigen::Index>(r)) = weights.row(positions[r]);
  }
  return t;
}

namespace {

Mat seeded_rows(const std::vector<int>& positions, const SchemeArgs& a) {
  return Learned(a.slots, a.d_model, a.seed).table(positions);
}

std::vector<SchemeFact> table_facts(const std::vector<int>&, const SchemeArgs& a) {
  return {{"max_len", {static_cast<double>(a.slots)}, false, true},
          {"seed", {static_cast<double>(a.seed)}, false, true}};
}

}  // namespace

extern const SchemeDef kLearnedScheme;
const SchemeDef kLearnedScheme = {Scheme::Learned,
                                  "learned",
                                  "one trained vector per slot added to the embeddings; none past the last",
                                  kUseAttention | kUseRouter | kUseTable,
                                  seeded_rows,
                                  /*trained_table=*/true,
                                  /*rotation=*/nullptr,
                                  /*score_bias=*/nullptr,
                                  /*appended=*/false,
                                  /*takes_length=*/false,
                                  table_facts};

}  // namespace attn
