// The multi-head scene's recomputes in their byte form (app/logic/pipeline_messages): a job, a result, a
// span of heads and a second round survive their bytes bit for bit, and malformed bytes are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "app/logic/pipeline_messages.hpp"
#include "core/error.hpp"
#include "pipeline_results.hpp"

namespace {

using app::Bytes;
using namespace fx;  // words, wide, same, expect_same (pipeline_results.hpp)

TEST(PipelineMessages, AJobAndAResultSurviveTheirBytes) {
  app::PipelineJob job{41, "Refund the cake, not the fee.", wide()};
  job.config.learned_slots = 77, job.config.base = 500.0;
  const app::PipelineJob j2 = app::decode_pipeline_job(app::encode(job));
  EXPECT_EQ(j2.version, 41u);
  EXPECT_EQ(j2.text, job.text);
  EXPECT_EQ(j2.config.d_model, 256);
  EXPECT_EQ(j2.config.heads, 8);
  EXPECT_EQ(j2.config.positions, attn::Scheme::Rope);
  EXPECT_TRUE(j2.config.causal);
  EXPECT_EQ(j2.config.seed, 3u);
  EXPECT_EQ(j2.config.learned_slots, 77);
  EXPECT_EQ(j2.config.base, 500.0);

  app::PipelineAnswer a;
  a.version = 42, a.done = true, a.progress = 1.0f, a.compute_ms = 12.5;
  attn::PipelineConfig learned = wide();
  learned.positions = attn::Scheme::Learned;  // a position table, too
  a.result = attn::run_pipeline(words(20), learned);
  const Bytes bytes = app::encode(a);
  app::PipelineAnswer a2 = app::decode_pipeline_answer(bytes);
  EXPECT_EQ(a2.version, 42u);
  EXPECT_TRUE(a2.done);
  EXPECT_EQ(a2.part, 0);
  EXPECT_EQ(a2.compute_ms, 12.5);
  EXPECT_TRUE(a2.error.empty());
  // the heads' matrices travel as parts 1 .. H, one head each, then the layer's five (T, D) matrices one each
  ASSERT_EQ(app::answer_parts(a), 1 + 8 + app::kLayerMatrices);
  ASSERT_EQ(a2.result.mha.head.size(), 8u);
  EXPECT_EQ(a2.result.embeddings.size(), 0) << "part 0 carries no (T, D) matrix";
  for (int part = 1; part <= 8; ++part) {
    app::PipelineAnswer h = app::decode_pipeline_answer(app::encode(a, part));
    EXPECT_EQ(h.part, part);
    ASSERT_EQ(h.result.mha.head.size(), 1u);
    a2.result.mha.head[static_cast<std::size_t>(part - 1)] = std::move(h.result.mha.head.front());
  }
  for (int k = 0; k < app::kLayerMatrices; ++k) {
    app::PipelineAnswer m = app::decode_pipeline_answer(app::encode(a, 9 + k));
    EXPECT_EQ(m.part, -(k + 1));
    EXPECT_TRUE(m.result.mha.head.empty());
    app::layer_matrix(a2.result, k) = std::move(app::layer_matrix(m.result, k));
  }
  expect_same(a2.result, a.result);

  app::PipelineAnswer failed;
  failed.version = 43, failed.done = true, failed.error = "heads must divide d_model";
  EXPECT_EQ(app::decode_pipeline_answer(app::encode(failed)).error, failed.error);
  EXPECT_EQ(app::answer_parts(failed), 1);

  // every cut of the bytes, a wrong tag, a scheme past the table and a huge matrix are refused
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 3) {
    EXPECT_THROW(app::decode_pipeline_answer(Bytes(bytes.begin(), bytes.begin() + n)), attn::InputError) << n;
  }
  EXPECT_THROW(app::decode_pipeline_job(bytes), attn::InputError);
  Bytes job_bytes = app::encode(job);
  const std::size_t scheme_at = 4 + 8 + 4 + job.text.size() + 4 + 4;
  job_bytes[scheme_at] = 99;
  EXPECT_THROW(app::decode_pipeline_job(job_bytes), attn::InputError);
  // the embeddings' rows and columns (after the header, an empty error, the tokens and the dropped count)
  Bytes huge = bytes;
  std::size_t at = 4 + 8 + 1 + 4 + 4 + 8 + 4 + 4 + 4 + 1;  // ... the error's length, the span, output_rows
  std::uint32_t count = 0;
  std::memcpy(&count, huge.data() + at, 4);
  at += 4;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint32_t n = 0;
    std::memcpy(&n, huge.data() + at, 4);
    at += 4 + n;
  }
  at += 4;
  const std::int32_t big = 0x7fffffff;
  std::memcpy(huge.data() + at, &big, 4);
  std::memcpy(huge.data() + at + 4, &big, 4);
  EXPECT_THROW(app::decode_pipeline_answer(huge), attn::InputError);
}

TEST(PipelineMessages, ASpanAndASecondRoundSurviveTheirBytes) {
  const attn::PipelineConfig c = wide();
  app::PipelineJob job{5, words(30), c};
  job.span = {3, 6};
  app::PipelineJob j2 = app::decode_pipeline_job(app::encode(job));
  EXPECT_EQ(j2.span.begin, 3);
  EXPECT_EQ(j2.span.end, 6);
  EXPECT_FALSE(j2.output_rows);
  app::PipelineJob rows{5, "", c};
  rows.output_rows = true, rows.first_row = 12;
  rows.concat = attn::Mat::Constant(4, 256, 0.25f);
  j2 = app::decode_pipeline_job(app::encode(rows));
  EXPECT_TRUE(j2.output_rows);
  EXPECT_EQ(j2.first_row, 12);
  EXPECT_TRUE(same(j2.concat, rows.concat));

  // a span's answer: part 0, the span's heads (on the wire as their own head numbers), and from the span
  // at head 0 the embeddings, the position table and the inputs
  for (const attn::HeadSpan span : {attn::HeadSpan{0, 3}, attn::HeadSpan{3, 8}}) {
    app::PipelineAnswer a;
    a.version = 6, a.done = true, a.span = span;
    attn::PipelineSteps steps(words(30), c, nullptr, 0, span);
    while (!steps.done()) steps.step();
    a.result = steps.take();
    const int matrices = span.begin == 0 ? 3 : 0;
    ASSERT_EQ(app::answer_parts(a), 1 + (span.end - span.begin) + matrices);
    const app::PipelineAnswer a0 = app::decode_pipeline_answer(app::encode(a, 0));
    EXPECT_EQ(a0.span.begin, span.begin);
    EXPECT_EQ(a0.result.stats.size(), static_cast<std::size_t>(span.end - span.begin));
    for (int part = 1; part <= span.end - span.begin; ++part)
      EXPECT_EQ(app::decode_pipeline_answer(app::encode(a, part)).part, span.begin + part);
    for (int k = 0; k < matrices; ++k)
      EXPECT_EQ(app::decode_pipeline_answer(app::encode(a, span.end - span.begin + 1 + k)).part, -(k + 1));
  }
  app::PipelineAnswer r;
  r.version = 7, r.done = true, r.output_rows = true, r.first_row = 9;
  r.result.mha.output = attn::Mat::Constant(3, 256, -1.5f);
  ASSERT_EQ(app::answer_parts(r), 1);
  const app::PipelineAnswer r2 = app::decode_pipeline_answer(app::encode(r));
  EXPECT_TRUE(r2.output_rows);
  EXPECT_EQ(r2.first_row, 9);
  EXPECT_TRUE(same(r2.result.mha.output, r.result.mha.output));
  const std::vector<attn::HeadSpan> spans = app::head_spans(12, 5);
  ASSERT_EQ(spans.size(), 5u);
  for (std::size_t k = 0; k < spans.size(); ++k) {
    EXPECT_EQ(spans[k].begin, k ? spans[k - 1].end : 0);
    EXPECT_GE(spans[k].end - spans[k].begin, 2);
  }
  EXPECT_EQ(spans.back().end, 12);
}

}  // namespace
