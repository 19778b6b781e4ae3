// A model file read in the compute worker (app/logic/model_messages): the page gets from the worker's
// answer exactly the model model_from_json builds from the file, bit for bit, and the current model it
// makes is that one; a refused file is refused in the reader's words; truncated or other bytes are
// refused as malformed; the seedless Params::init has init's shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "app/logic/model_messages.hpp"
#include "app/logic/trained_model.hpp"
#include "core/error.hpp"

namespace {

using attn::model_io::LoadedModel;

// A model file's text: d_model 16, 2 heads, 2 layers with a feed-forward, learned positions.
std::string model_file() {
  attn::train::ModelConfig c;
  c.d_model = 16, c.heads = 2, c.layers = 2, c.d_ff = 24, c.vocab = 5, c.classes = 3, c.max_len = 12;
  c.positions = attn::Scheme::Learned, c.seed = 7;
  const attn::train::Model model(c);
  attn::train::Vocab vocab;
  vocab.words = {"<unk>", "cake", "fee", "refund", "the"};
  return attn::model_io::model_to_json(model, vocab, {"cake", "fee", "none"}, {{"steps", 12}});
}

class TextBytes : public attn::model_io::ByteSource {
 public:
  explicit TextBytes(std::string s) : s_(std::move(s)) {}
  std::size_t read(char* dst, std::size_t cap) override {
    const std::size_t n = std::min(cap, s_.size() - at_);
    std::memcpy(dst, s_.data() + at_, n);
    at_ += n;
    return n;
  }

 private:
  std::string s_;
  std::size_t at_ = 0;
};

app::Bytes answer_to(const std::string& file, std::uint32_t load) {
  TextBytes bytes(file);
  return app::encode(app::read_model_file(bytes, static_cast<long long>(file.size()), load));
}

LoadedModel decoded(const app::Bytes& b) {
  app::Reader r(b, "model answer");
  return app::decode_model_answer(r);
}

void expect_same(const LoadedModel& got, const LoadedModel& want) {
  const auto& a = got.model.config;
  const auto& b = want.model.config;
  EXPECT_EQ(a.d_model, b.d_model);
  EXPECT_EQ(a.heads, b.heads);
  EXPECT_EQ(a.layers, b.layers);
  EXPECT_EQ(a.d_ff, b.d_ff);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(got.vocab.words, want.vocab.words);
  EXPECT_EQ(got.labels, want.labels);
  EXPECT_EQ(got.training_info, want.training_info);
  const auto g = got.model.params.named_tensors();
  const auto w = want.model.params.named_tensors();
  ASSERT_EQ(g.size(), w.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g[i].first, w[i].first);
    ASSERT_EQ(g[i].second->rows(), w[i].second->rows()) << g[i].first;
    ASSERT_EQ(g[i].second->cols(), w[i].second->cols()) << g[i].first;
    EXPECT_EQ(0, std::memcmp(g[i].second->data(), w[i].second->data(), sizeof(float) * g[i].second->size()))
        << g[i].first << " differs";
  }
}

TEST(ModelMessages, TheAnswerCarriesTheModelTheFileHolds) {
  const std::string file = model_file();
  const app::Bytes b = answer_to(file, 41);
  std::uint32_t head[2];
  std::memcpy(head, b.data(), sizeof head);
  EXPECT_EQ(head[0], app::kModelAnswerTag);
  EXPECT_EQ(head[1], 41u) << "the page's script reads the load's number at byte 4";
  expect_same(decoded(b), attn::model_io::model_from_json(file));
}

TEST(ModelMessages, TheAnswerBecomesTheCurrentModel) {
  const std::string file = model_file();
  const app::Bytes b = answer_to(file, 1);
  app::Reader r(b, "model answer");
  EXPECT_EQ(app::load_trained_model([&r] { return app::decode_model_answer(r); }, "model.json"), "");
  const app::TrainedModel* m = app::trained_model();
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->from_file);
  EXPECT_EQ(m->source, "model.json");
  EXPECT_TRUE(app::last_model_load().ok);
  LoadedModel current;
  current.model = m->model, current.vocab = m->vocab, current.labels = m->labels,
  current.training_info = m->info;
  expect_same(current, attn::model_io::model_from_json(file));
}

TEST(ModelMessages, ARefusedFileIsRefusedInTheReadersWords) {
  std::string file = model_file();
  file.replace(file.find("\"heads\":2"), 9, "\"heads\":3");
  std::string want;
  try {
    attn::model_io::model_from_json(file);
  } catch (const attn::InputError& e) {
    want = e.what();
  }
  ASSERT_FALSE(want.empty()) << "the edited file should be refused";
  const app::Bytes b = answer_to(file, 2);
  try {
    decoded(b);
    FAIL() << "a refused file was decoded";
  } catch (const attn::InputError& e) {
    EXPECT_EQ(std::string(e.what()), want);
  }
  app::Reader r(b, "model answer");
  const std::string error = app::load_trained_model([&r] { return app::decode_model_answer(r); }, "bad.json");
  EXPECT_EQ(error, "bad.json: " + want);
  EXPECT_FALSE(app::last_model_load().ok);
}

TEST(ModelMessages, TruncatedOrForeignBytesAreMalformed) {
  const app::Bytes b = answer_to(model_file(), 3);
  for (std::size_t cut : {std::size_t{0}, std::size_t{6}, b.size() / 2, b.size() - 1}) {
    const app::Bytes part(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_THROW(decoded(part), attn::InputError) << "cut at " << cut;
  }
  app::Bytes longer = b;
  longer.push_back(0);
  EXPECT_THROW(decoded(longer), attn::InputError) << "a byte too many";
  app::Bytes other = b;
  other[0] ^= 1;
  EXPECT_THROW(decoded(other), attn::InputError) << "another tag";
}

TEST(ModelMessages, SeedlessParamsHaveTheSeededShapes) {
  attn::train::ModelConfig c;
  c.d_model = 16, c.heads = 2, c.layers = 2, c.d_ff = 24, c.vocab = 5, c.classes = 3;
  c.positions = attn::Scheme::Learned;
  const attn::train::Params a = attn::train::Params::init(c);
  const attn::train::Params b = attn::train::Params::init(c, false);
  const auto seeded = a.named_tensors();
  const auto zero = b.named_tensors();
  ASSERT_EQ(seeded.size(), zero.size());
  for (std::size_t i = 0; i < seeded.size(); ++i) {
    EXPECT_EQ(seeded[i].first, zero[i].first);
    EXPECT_EQ(seeded[i].second->rows(), zero[i].second->rows());
    EXPECT_EQ(seeded[i].second->cols(), zero[i].second->cols());
  }
}

}  // namespace
