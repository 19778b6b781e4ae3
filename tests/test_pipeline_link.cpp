// The multi-head scene's recomputes through the compute link (app/logic/pipeline_*; their byte form is
// test_pipeline_messages.cpp's): a large input is computed by a PipelineHost on the other side and the page
// gets exactly run_pipeline's result, shown once its last part has arrived; a job replaced by another is
// asked for again when it is wanted again, an answer to an entry evicted since is dropped, small inputs stay
// on the page, and a worker that stops or never comes leaves the page computing it itself, with the same
// numbers.
#include <gtest/gtest.h>

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
#include "pipeline_results.hpp"

namespace {

using app::Bytes;
using namespace fx;  // words, wide, same, expect_same (pipeline_results.hpp)

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
