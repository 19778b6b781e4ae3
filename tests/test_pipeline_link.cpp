// The multi-head scene's recomputes behind the compute link (app/logic/pipeline_*): a job and a result
// survive their byte form bit for bit and malformed bytes are refused; with a link, a large input is
// computed by a PipelineHost on the other side and the page gets exactly run_pipeline's result, shown once
// its last part has arrived; a job replaced by another is asked for again when it is wanted again, an
// answer to an entry evicted since is dropped, small inputs stay on the page, and a worker that stops or
// never comes leaves the page computing it itself, with the same numbers.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/logic/pipeline_host.hpp"
#include "app/logic/pipeline_messages.hpp"
#include "core/error.hpp"
#include "fresh_logic_state.hpp"

namespace {

using app::Bytes;

std::string words(int n) {
  static const char* w[] = {"refund", "the", "delivery", "fee", "not", "cake", "it", "was", "late"};
  std::string s;
  for (int i = 0; i < n; ++i) s += std::string(i ? " " : "") + w[i % 9];
  return s;
}

// Large enough to go to the worker (pipeline_cache.cpp's kLocalWork), small enough to be quick.
attn::PipelineConfig wide() {
  attn::PipelineConfig c;
  c.d_model = 256, c.heads = 8, c.positions = attn::Scheme::Rope, c.causal = true, c.seed = 3;
  return c;
}

bool same(const attn::Mat& a, const attn::Mat& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0);
}

// Every number of two results, bit for bit.
void expect_same(const attn::PipelineResult& a, const attn::PipelineResult& b) {
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.dropped_tokens, b.dropped_tokens);
  EXPECT_TRUE(same(a.embeddings, b.embeddings));
  EXPECT_TRUE(same(a.position_table, b.position_table));
  EXPECT_TRUE(same(a.inputs, b.inputs));
  EXPECT_TRUE(same(a.mha.output, b.mha.output));
  EXPECT_TRUE(same(a.mha.concat, b.mha.concat));
  ASSERT_EQ(a.mha.head.size(), b.mha.head.size());
  for (std::size_t h = 0; h < a.mha.head.size(); ++h) {
    EXPECT_TRUE(same(a.mha.head[h].output, b.mha.head[h].output)) << "head " << h;
    EXPECT_TRUE(same(a.mha.head[h].scores, b.mha.head[h].scores)) << "head " << h;
    EXPECT_TRUE(same(a.mha.head[h].weights, b.mha.head[h].weights)) << "head " << h;
  }
  ASSERT_EQ(a.stats.size(), b.stats.size());
  for (std::size_t h = 0; h < a.stats.size(); ++h)
    EXPECT_EQ(std::memcmp(&a.stats[h], &b.stats[h], sizeof a.stats[h]), 0) << "head " << h;
}

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

// One slice of a host's work, then its answers delivered to the page as the platform does: each as bytes,
// part by part.
void pump_host(app::PipelineHost& host) {
  host.work(1.0);
  while (auto a = host.take_answer()) {
    for (int part = 0; part < app::answer_parts(*a); ++part)
      app::deliver_pipeline_answer(app::decode_pipeline_answer(app::encode(*a, part)));
    if (a->done) break;
  }
}

// The other side of a link, worked when pumped.
class Loopback : public app::ComputeLink {
 public:
  virtual void pump() = 0;
};

// A PipelineHost that gets what the page posts.
class LoopbackHost : public Loopback {
 public:
  void post(const Bytes& message) override {
    ++posted;
    host.receive(app::decode_pipeline_job(message));
  }
  void pump() override { pump_host(host); }
  app::PipelineHost host;
  int posted = 0;
};

// Several workers on the other side: what the page posts to worker k goes to host k.
class LoopbackPool : public Loopback {
 public:
  explicit LoopbackPool(int n)
      : hosts(static_cast<std::size_t>(n)), posted(static_cast<std::size_t>(n)), up(n) {}
  void post(const Bytes& message) override { post_to(0, message); }
  int workers() const override { return up; }
  void post_to(int k, const Bytes& message) override {
    ++posted[static_cast<std::size_t>(k)];
    hosts[static_cast<std::size_t>(k)].receive(app::decode_pipeline_job(message));
  }
  // Each running host works a little and its answers are delivered, the last host first (answers
  // interleave).
  void pump() override {
    for (auto k = static_cast<std::size_t>(up); k-- > 0;) pump_host(hosts[k]);
  }
  std::vector<app::PipelineHost> hosts;
  std::vector<int> posted;
  int up;  // workers running: the first `up` hosts
};

// Calls cached_pipeline as the scene does each frame (pumping the worker between) until it is done.
const app::CachedPipeline& until_done(const std::string& text, const attn::PipelineConfig& c,
                                      Loopback* worker, int* frames = nullptr) {
  for (int i = 0; i < 100000; ++i) {
    const app::CachedPipeline& e = app::cached_pipeline(text, c, 5.0);
    if (!e.pending()) return e;
    if (frames) ++*frames;
    if (worker) worker->pump();
  }
  return app::cached_pipeline(text, c, 5.0);
}

TEST(PipelineLink, ALargeInputIsComputedByTheWorkerWithRunPipelinesNumbers) {
  fx::FreshLogicState fresh;
  LoopbackHost worker;
  app::use_compute_link(&worker);
  const std::string text = words(96);
  const app::CachedPipeline& first = app::cached_pipeline(text, wide(), 5.0);
  EXPECT_TRUE(first.remote);
  EXPECT_EQ(first.job, nullptr) << "nothing of it is computed on the page";
  EXPECT_EQ(worker.posted, 1);
  int frames = 0;
  const app::CachedPipeline& e = until_done(text, wide(), &worker, &frames);
  ASSERT_TRUE(e.ok()) << e.error;
  EXPECT_TRUE(e.from_worker);
  EXPECT_GT(frames, 0);
  EXPECT_EQ(worker.posted, 1) << "asked once";
  EXPECT_GT(e.compute_ms, 0.0);
  expect_same(e.result, attn::run_pipeline(text, wide()));

  // a small input is computed on the page at once
  attn::PipelineConfig small;
  const app::CachedPipeline& s = app::cached_pipeline("Refund the cake.", small, 5.0);
  EXPECT_TRUE(s.ok());
  EXPECT_FALSE(s.from_worker);
  EXPECT_EQ(worker.posted, 1);
  // an error in the worker reaches the page as the core says it
  attn::PipelineConfig bad = wide();
  bad.positions = attn::Scheme::Learned, bad.learned_slots = 8;
  const app::CachedPipeline& b = until_done(text, bad, &worker);
  EXPECT_TRUE(b.from_worker);
  EXPECT_FALSE(b.error.empty());
  EXPECT_THROW(attn::run_pipeline(text, bad), attn::InputError);
}

TEST(PipelineLink, AReplacedJobIsAskedForAgainAndAStaleAnswerIsDropped) {
  fx::FreshLogicState fresh;
  LoopbackHost worker;
  app::use_compute_link(&worker);
  const std::string a = words(90), b = words(91);
  app::cached_pipeline(a, wide(), 5.0);
  app::cached_pipeline(b, wide(), 5.0);  // the worker drops a for b
  EXPECT_EQ(worker.posted, 2);
  const app::CachedPipeline& eb = until_done(b, wide(), &worker);
  ASSERT_TRUE(eb.ok());
  EXPECT_EQ(worker.posted, 2);
  const app::CachedPipeline& ea = until_done(a, wide(), &worker);  // wanted again: asked again
  ASSERT_TRUE(ea.ok());
  EXPECT_EQ(worker.posted, 3);
  expect_same(ea.result, attn::run_pipeline(a, wide()));

  // an answer to an entry no longer kept changes nothing
  const std::string c = words(92);
  const std::uint64_t v = app::cached_pipeline(c, wide(), 5.0).version;
  for (int i = 0; i < 12; ++i) app::cached_pipeline(words(i + 1), attn::PipelineConfig{}, 5.0);  // evicts c
  app::PipelineAnswer stale;
  stale.version = v, stale.done = true, stale.error = "stale";
  app::deliver_pipeline_answer(stale);
  const app::CachedPipeline& again = app::cached_pipeline(c, wide(), 5.0);
  EXPECT_NE(again.version, v);
  EXPECT_TRUE(again.remote);
  EXPECT_TRUE(again.error.empty());
}

TEST(PipelineLink, AResultIsShownOnlyOnceEveryHeadHasArrived) {
  fx::FreshLogicState fresh;
  LoopbackHost worker;
  app::use_compute_link(&worker);
  const std::string text = words(80);
  const std::uint64_t v = app::cached_pipeline(text, wide(), 5.0).version;
  app::PipelineAnswer a;
  a.version = v, a.done = true, a.progress = 1.0f, a.result = attn::run_pipeline(text, wide());
  const int parts = app::answer_parts(a);
  for (int part = 0; part < parts; ++part) {
    EXPECT_TRUE(app::cached_pipeline(text, wide(), 5.0).pending()) << "before part " << part;
    app::deliver_pipeline_answer(app::decode_pipeline_answer(app::encode(a, part)));
  }
  const app::CachedPipeline& e = app::cached_pipeline(text, wide(), 5.0);
  ASSERT_TRUE(e.ok());
  expect_same(e.result, a.result);
}

TEST(PipelineLink, WithoutAWorkerThePageComputesTheSameNumbers) {
  fx::FreshLogicState fresh;
  const std::string text = words(96);
  // none on this platform: computed here, over several calls
  const app::CachedPipeline& here = app::cached_pipeline(text, wide(), 0.001);
  EXPECT_FALSE(here.remote);
  const app::CachedPipeline& done = until_done(text, wide(), nullptr);
  ASSERT_TRUE(done.ok());
  EXPECT_FALSE(done.from_worker);
  expect_same(done.result, attn::run_pipeline(text, wide()));

  // one that is starting: the job waits for it, is posted once it runs; one that stops: computed here
  LoopbackHost worker;
  app::use_compute_link(nullptr, true);
  const std::string other = words(97);
  EXPECT_TRUE(app::cached_pipeline(other, wide(), 5.0).remote);
  EXPECT_TRUE(app::compute_worker_wanted());
  app::use_compute_link(&worker);
  app::cached_pipeline(other, wide(), 5.0);
  EXPECT_EQ(worker.posted, 1);
  app::use_compute_link(nullptr, false);
  const app::CachedPipeline& fallback = until_done(other, wide(), nullptr);
  ASSERT_TRUE(fallback.ok());
  EXPECT_FALSE(fallback.from_worker);
  expect_same(fallback.result, attn::run_pipeline(other, wide()));
}

// Three workers share a recompute: each runs a span of the heads, then a block of the output's rows, and
// the page shows exactly run_pipeline's result, with its progress rising on the way; the helpers that are
// still starting hold the job back; helpers that stop half way leave it to the compute worker, asked again
// under a new version; an error from the spans reaches the page as the core says it.
TEST(PipelineLink, WorkersSharingARecomputeGiveRunPipelinesNumbers) {
  fx::FreshLogicState fresh;
  LoopbackPool pool(3);
  app::use_compute_link(&pool);
  const std::string text = words(96);
  app::set_compute_helpers_starting(true);
  EXPECT_TRUE(app::cached_pipeline(text, wide(), 5.0).remote);
  EXPECT_TRUE(app::compute_helpers_wanted());
  EXPECT_EQ(pool.posted, (std::vector<int>{0, 0, 0})) << "held back while the helpers start";
  app::set_compute_helpers_starting(false);
  app::cached_pipeline(text, wide(), 5.0);
  EXPECT_EQ(pool.posted, (std::vector<int>{1, 1, 1}));
  float last = 0.0f;
  const app::CachedPipeline* e = nullptr;
  for (int i = 0; i < 100000; ++i) {
    e = &app::cached_pipeline(text, wide(), 5.0);
    if (!e->pending()) break;
    EXPECT_GE(e->progress(), last);
    last = e->progress();
    pool.pump();
  }
  ASSERT_TRUE(e->ok()) << e->error;
  EXPECT_TRUE(e->from_worker);
  EXPECT_EQ(e->shares, 3);
  EXPECT_EQ(pool.posted, (std::vector<int>{2, 2, 2})) << "a span of the heads, then a block of rows, each";
  expect_same(e->result, attn::run_pipeline(text, wide()));

  // the helpers stop half way: the compute worker is asked for all of it, under a new version
  const std::string other = words(97);
  const std::uint64_t asked = app::cached_pipeline(other, wide(), 5.0).version;
  pool.pump();
  pool.up = 1;
  const app::CachedPipeline& o = until_done(other, wide(), &pool);
  ASSERT_TRUE(o.ok()) << o.error;
  EXPECT_NE(o.version, asked);
  EXPECT_EQ(o.shares, 1);
  expect_same(o.result, attn::run_pipeline(other, wide()));
  pool.up = 3;

  attn::PipelineConfig bad = wide();
  bad.positions = attn::Scheme::Learned, bad.learned_slots = 8;
  const app::CachedPipeline& b = until_done(text, bad, &pool);
  EXPECT_TRUE(b.from_worker);
  EXPECT_NE(b.error.find("learned table"), std::string::npos) << b.error;
}

}  // namespace
