// The schemes scene's probes: a head's queries and keys reproduce the pipeline's scores; repeated tokens.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/analysis.hpp"
#include "core/error.hpp"
#include "core/scheme_probe.hpp"
#include "fixtures.hpp"
#include "reference.hpp"

namespace {

const char* const kEmail = "Refund my eggless cake, it was cold.";

attn::PipelineConfig config(attn::Scheme scheme) {
  return fx::pipeline_config(16, 4, scheme, 11);
}

// Scores rebuilt in float64 from q and k: optional RoPE rotation (the reference's), then q k^T / sqrt(d_k).
ref::MatD scores_from(const attn::HeadQueriesKeys& qk, bool rope) {
  ref::MatD q = ref::to_double(qk.q), k = ref::to_double(qk.k);
  if (rope) {
    q = ref::rope_rotate(q, ref::iota(static_cast<int>(q.rows())), 10000.0);
    k = ref::rope_rotate(k, ref::iota(static_cast<int>(k.rows())), 10000.0);
  }
  return ref::matmul(q, k.transpose()) / std::sqrt(static_cast<double>(q.cols()));
}

}  // namespace

TEST(SchemeProbe, QueriesAndKeysReproduceEveryHeadsScoresWithoutPositions) {
  const attn::PipelineConfig c = config(attn::Scheme::None);
  const attn::PipelineResult r = attn::run_pipeline(kEmail, c);
  for (int h = 0; h < c.heads; ++h) {
    const attn::HeadQueriesKeys qk = attn::head_queries_keys(r, c, h);
    ASSERT_EQ(qk.q.rows(), 9);
    ASSERT_EQ(qk.q.cols(), 4);
    ASSERT_EQ(qk.k.cols(), 4);
    EXPECT_ALLCLOSE(r.mha.head[static_cast<size_t>(h)].scores, scores_from(qk, false)) << "head " << h;
  }
}

TEST(SchemeProbe, SinusoidalInputsAreUsedAsTheyWereGiven) {
  const attn::PipelineConfig c = config(attn::Scheme::Sinusoidal);
  const attn::PipelineResult r = attn::run_pipeline(kEmail, c);
  const attn::HeadQueriesKeys qk = attn::head_queries_keys(r, c, 2);
  EXPECT_ALLCLOSE(r.mha.head[2].scores, scores_from(qk, false));
}

TEST(SchemeProbe, RotatingTheUnrotatedQueriesAndKeysGivesTheRopeScores) {
  const attn::PipelineConfig c = config(attn::Scheme::Rope);
  const attn::PipelineResult r = attn::run_pipeline(kEmail, c);
  for (int h = 0; h < c.heads; ++h) {
    const attn::HeadQueriesKeys qk = attn::head_queries_keys(r, c, h);
    const attn::Mat& scores = r.mha.head[static_cast<size_t>(h)].scores;
    EXPECT_ALLCLOSE(scores, scores_from(qk, true)) << "head " << h;
    // rope_score of the first query and the second key, at the positions they hold, is that cell
    EXPECT_NEAR(attn::rope_score(qk.q.row(0), qk.k.row(1), 0, 1), scores(0, 1), 1e-5);
  }
}

TEST(SchemeProbe, HeadOutOfRangeIsAnInputError) {
  const attn::PipelineConfig c = config(attn::Scheme::None);
  const attn::PipelineResult r = attn::run_pipeline(kEmail, c);
  EXPECT_THROW(attn::head_queries_keys(r, c, 4), attn::InputError);
  EXPECT_THROW(attn::head_queries_keys(r, c, -1), attn::InputError);
}

TEST(SchemeProbe, RepeatTokensWritesTheListEndToEndAndCuts) {
  const std::vector<std::string> abc = {"a", "b", "c"};
  EXPECT_EQ(attn::repeat_tokens(abc, 7), (std::vector<std::string>{"a", "b", "c", "a", "b", "c", "a"}));
  EXPECT_EQ(attn::repeat_tokens(abc, 2), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(attn::repeat_tokens(abc, 3), abc);
  const std::vector<std::string> long_email = attn::repeat_tokens(abc, 400);
  ASSERT_EQ(long_email.size(), 400u);
  for (size_t i = 0; i < long_email.size(); ++i) EXPECT_EQ(long_email[i], abc[i % 3]) << "token " << i;
}

TEST(SchemeProbe, RepeatTokensRejectsNothingToRepeatAndBadLengths) {
  EXPECT_THROW(attn::repeat_tokens({}, 5), attn::InputError);
  EXPECT_THROW(attn::repeat_tokens({"a"}, 0), attn::InputError);
}

TEST(SchemeProbe, The400TokenEmailRunsPastA128SlotLearnedTableOnlyForLearned) {
  const std::vector<std::string> email = attn::repeat_tokens({"Refund", "my", "cake", "."}, 400);
  attn::PipelineConfig c = config(attn::Scheme::Learned);
  ASSERT_TRUE(
      fx::throws_input_error_saying([&] { attn::run_pipeline(email, c); }, "position 128 is past the end"))
      << "a 128-slot table and 400 tokens";
  c.positions = attn::Scheme::Sinusoidal;
  EXPECT_EQ(attn::run_pipeline(email, c).tokens.size(), 400u);
  c.positions = attn::Scheme::Rope;
  EXPECT_EQ(attn::run_pipeline(email, c).tokens.size(), 400u);
}
