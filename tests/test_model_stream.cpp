// Model files read from a stream of chunks: the same model as from the whole text, and hostile streams
// refused after reading only what it takes to see they are wrong (bytes, junk at the top, too many numbers or
// values).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "fixtures.hpp"
#include "model_io/model_json.hpp"

namespace {

using attn::InputError;
namespace mio = attn::model_io;

// `head`, then `repeat` over and over (forever when `forever`), in chunks of at most `chunk` bytes; counts
// what it handed out.
class GeneratedSource : public mio::ByteSource {
 public:
  GeneratedSource(std::string head, std::string repeat, std::size_t chunk)
      : head_(std::move(head)), repeat_(std::move(repeat)), chunk_(chunk) {}
  std::size_t read(char* dst, std::size_t cap) override {
    const std::size_t n = std::min(cap, chunk_);
    for (std::size_t i = 0; i < n; ++i, ++pos_) {
      if (pos_ < head_.size()) {
        dst[i] = head_[pos_];
      } else if (repeat_.empty()) {
        return i;
      } else {
        dst[i] = repeat_[(pos_ - head_.size()) % repeat_.size()];
      }
    }
    handed_ += n;
    return n;
  }
  std::size_t handed() const { return handed_; }

 private:
  std::string head_, repeat_;
  std::size_t chunk_, pos_ = 0, handed_ = 0;
};

// A learned-table router trained for 3 steps from seed 3, saved.
std::string trained_file() {
  const fx::Trained t = fx::train_a_little(attn::Scheme::Learned, 1, 0, 3, 3);
  return mio::model_to_json(t.model, t.vocab, t.labels, {{"steps", 3}});
}

// The message of the InputError `read` throws ("" when it throws none).
template <class F>
std::string error_of(F read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelStream, ChunkedStreamGivesTheSameModelAsTheText) {
  const std::string text = trained_file();
  const mio::LoadedModel whole = mio::model_from_json(text);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 16}) {
    GeneratedSource source(text, "", chunk);
    const mio::LoadedModel streamed = mio::model_from_source(source, static_cast<long long>(text.size()));
    EXPECT_EQ(mio::model_to_json(streamed.model, streamed.vocab, streamed.labels, streamed.training_info),
              mio::model_to_json(whole.model, whole.vocab, whole.labels, whole.training_info))
        << "chunks of " << chunk;
  }
}

TEST(ModelStream, ADeclaredSizePastTheLimitIsRefusedBeforeReading) {
  GeneratedSource source("{", "", 1 << 16);
  const std::string msg =
      error_of([&] { mio::model_from_source(source, static_cast<long long>(attn::kMaxInputBytes) + 1); });
  EXPECT_NE(msg.find("larger than 64 MiB"), std::string::npos) << msg;
  EXPECT_EQ(source.handed(), 0u);
}

TEST(ModelStream, JunkAtTheTopIsRefusedAtOnce) {
  GeneratedSource source("[", "1,", 1 << 16);  // 50 MB of [1,1,1,... as in a hostile upload, never ending
  const std::string msg = error_of([&] { mio::model_from_source(source, -1); });
  EXPECT_NE(msg.find("expected a JSON object at the top, not array"), std::string::npos) << msg;
  EXPECT_LE(source.handed(), std::size_t{1} << 16);
}

TEST(ModelStream, MoreNumbersThanTheConfigsShapeStopTheRead) {
  const std::string text = trained_file();
  const std::string key = "\"classifier.b\":{\"data\":[";
  const auto at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  GeneratedSource source(text.substr(0, at + key.size()), "0.5,", 1 << 16);  // endless numbers
  const std::string msg = error_of([&] { mio::model_from_source(source, -1); });
  EXPECT_NE(msg.find("tensor 'classifier.b' has more than "), std::string::npos) << msg;
  EXPECT_LE(source.handed(), text.size() + (std::size_t{1} << 16));
}

TEST(ModelStream, TensorsBeforeTheConfigAreCappedAtTheWeightLimit) {
  GeneratedSource source("{\"tensors\":{\"x\":{\"data\":[", "0,", 1 << 16);  // 2 bytes a number
  const std::string msg = error_of([&] { mio::model_from_source(source, -1); });
  EXPECT_NE(msg.find("the tensors hold more than 16777216 numbers"), std::string::npos) << msg;
}

TEST(ModelStream, AnEndlessTreeOfValuesIsRefused) {
  GeneratedSource source("{\"format\":\"attention-demo-router\",\"training\":{\"x\":[", "1,", 1 << 16);
  const std::string msg = error_of([&] { mio::model_from_source(source, -1); });
  EXPECT_NE(msg.find("values outside the tensors' numbers"), std::string::npos) << msg;
  EXPECT_LE(source.handed(), std::size_t{8} << 20);
}

TEST(ModelStream, AnEndlessStreamStopsAtTheByteLimit) {
  GeneratedSource source("{\"format\":\"attention-demo-router\",\"x\":\"", "a",
                         1 << 16);  // one endless string
  const std::string msg = error_of([&] { mio::model_from_source(source, -1); });
  EXPECT_NE(msg.find("larger than 64 MiB"), std::string::npos) << msg;
  EXPECT_LE(source.handed(), attn::kMaxInputBytes + (std::size_t{1} << 16));
}

TEST(ModelStream, DeepNestingIsRefused) {
  GeneratedSource source("{\"x\":", "[", 1 << 16);
  const std::string msg = error_of([&] { mio::model_from_source(source, -1); });
  EXPECT_NE(msg.find("more than 64 levels deep"), std::string::npos) << msg;
}

// parse_json (the page's one JSON reader for set() and lesson steps) reads every document as nlohmann's own
// parser does, and says discarded where it does.
TEST(ParseJson, TheSameDocumentsAsNlohmannsParser) {
  const std::vector<std::string> texts = {
      "{}",
      "[]",
      "0",
      "-0.0",
      "1e300",
      "18446744073709551615",
      "-9223372036854775808",
      "\"\\u00e9\\ud83d\\ude00\"",
      R"({"a": [1, 2.5, true, false, null, "x"], "b": {"c": {"d": []}}, "a": "again"})",
      R"([{"scene": "clock", "pos": 44}, [[[]]], -1e-5])",
      "",
      "{",
      "[1,]",
      "{\"a\" 1}",
      "nul",
      "1 2",
      "\"\\x\"",
      "{\"a\":1}  ",
      "\xff",
      "[1e999]"};
  for (const std::string& t : texts) {
    const nlohmann::json mine = mio::parse_json(t);
    const nlohmann::json theirs = nlohmann::json::parse(t, nullptr, false);
    EXPECT_EQ(mine.is_discarded(), theirs.is_discarded()) << t;
    if (!theirs.is_discarded()) {
      EXPECT_EQ(mine, theirs) << t;
    }
  }
  EXPECT_TRUE(mio::parse_json(std::string(100, '[')).is_discarded()) << "deeper than 64 levels";
}

}  // namespace
