// The scene cache (app::Memo): recomputes only when an input changes, a new version each time, errors kept.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "app/logic/memo.hpp"
#include "core/error.hpp"

namespace {

TEST(Memo, RecomputesOnlyWhenAnInputChanges) {
  app::Memo<int, std::string, int> memo;
  int calls = 0;
  auto make = [&] { return ++calls * 10; };
  EXPECT_EQ(memo.get({"cake", 1}, make).value(), 10);
  const std::uint64_t first = memo.version();
  EXPECT_GT(first, 0u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(memo.get({"cake", 1}, make).value(), 10);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(memo.version(), first);
  EXPECT_EQ(memo.get({"cake", 2}, make).value(), 20);  // one input changed
  EXPECT_EQ(memo.get({"fee", 2}, make).value(), 30);   // the other one
  EXPECT_EQ(calls, 3);
  EXPECT_GT(memo.version(), first);
}

TEST(Memo, VersionsAreUniqueAcrossMemos) {
  app::Memo<int, int> a, b;
  a.get({1}, [] { return 1; });
  b.get({1}, [] { return 1; });
  EXPECT_NE(a.version(), b.version());  // heatmaps of two caches never share a key
  const std::uint64_t issued = app::versions_issued();
  a.get({1}, [] { return 1; });
  EXPECT_EQ(app::versions_issued(), issued);  // no recompute, no new version
  a.get({2}, [] { return 2; });
  EXPECT_EQ(app::versions_issued(), issued + 1);
}

TEST(Memo, KeepsTheCoresMessageInsteadOfAValue) {
  app::Memo<int, int> memo;
  memo.get({-1}, []() -> int { throw attn::InputError("d_model must be at least 2"); });
  EXPECT_FALSE(memo.ok());
  EXPECT_EQ(memo.error(), "d_model must be at least 2");
  EXPECT_EQ(memo.shared(), nullptr);
  memo.get({4}, [] { return 4; });  // a good input afterwards
  ASSERT_TRUE(memo.ok());
  EXPECT_EQ(memo.value(), 4);
  EXPECT_TRUE(memo.error().empty());
}

TEST(Memo, AnUnexpectedExceptionLeavesTheMemoAsItWas) {
  app::Memo<int, int> memo;
  memo.get({1}, [] { return 10; });
  const std::uint64_t version = memo.version();
  EXPECT_THROW(memo.get({2}, []() -> int { throw std::runtime_error("a bug"); }), std::runtime_error);
  ASSERT_TRUE(memo.ok());
  EXPECT_EQ(memo.value(), 10);
  EXPECT_EQ(memo.version(), version);
  int calls = 0;
  memo.get({2}, [&] { return ++calls; });  // input 2 was never computed: it is tried again
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(memo.value(), 1);
}

TEST(Memo, ValueWithoutAValueThrowsInsteadOfCrashing) {
  app::Memo<int, int> memo;
  EXPECT_THROW(memo.value(), std::logic_error);  // never computed
  memo.get({1}, []() -> int { throw attn::InputError("the text is empty"); });
  try {
    memo.value();
    FAIL() << "value() returned without a value";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("the text is empty"), std::string::npos) << e.what();
  }
}

TEST(Memo, SharedValueOutlivesTheNextRecompute) {
  app::Memo<std::string, int> memo;
  memo.get({1}, [] { return std::string("first"); });
  const auto kept = memo.shared();  // what a state() writer holds
  memo.get({2}, [] { return std::string("second"); });
  EXPECT_EQ(*kept, "first");
  EXPECT_EQ(memo.value(), "second");
}

}  // namespace
