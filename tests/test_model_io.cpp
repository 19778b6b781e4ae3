// Model files: a save -> load round trip is bit-identical, and every broken file is an InputError in words.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>

#include "core/error.hpp"
#include "core/train/trainer.hpp"
#include "fixtures.hpp"
#include "model_io/model_json.hpp"

namespace {

using attn::InputError;
using attn::Scheme;
using nlohmann::json;
namespace mio = attn::model_io;
namespace tr = attn::train;

using fx::Trained;

// A router trained for `steps` steps from seed 11.
Trained train_a_little(Scheme positions, int layers, int d_ff, int steps) {
  return fx::train_a_little(positions, layers, d_ff, steps, 11);
}

// Every field of a config, in declaration order, for comparing two configs in one assertion.
auto config_fields(const tr::ModelConfig& c) {
  return std::tie(c.d_model, c.heads, c.layers, c.d_ff, c.vocab, c.classes, c.max_len, c.positions, c.seed,
                  c.causal);
}

void expect_bit_identical(const tr::Model& a, const tr::Model& b) {
  const auto ta = a.params.named_tensors();
  const auto tb = b.params.named_tensors();
  ASSERT_EQ(ta.size(), tb.size());
  for (size_t i = 0; i < ta.size(); ++i) {
    SCOPED_TRACE(ta[i].first);
    EXPECT_EQ(ta[i].first, tb[i].first);
    ASSERT_EQ(ta[i].second->rows(), tb[i].second->rows());
    ASSERT_EQ(ta[i].second->cols(), tb[i].second->cols());
    EXPECT_EQ(0, std::memcmp(ta[i].second->data(), tb[i].second->data(),
                             sizeof(float) * static_cast<size_t>(ta[i].second->size())));
  }
}

TEST(ModelIo, RoundTripIsBitIdenticalForEveryScheme) {
  for (Scheme s : {Scheme::None, Scheme::Sinusoidal, Scheme::Learned, Scheme::Rope}) {
    SCOPED_TRACE(attn::scheme_name(s));
    const Trained t = train_a_little(s, s == Scheme::Learned ? 2 : 1, s == Scheme::Rope ? 24 : 0, 5);
    const json info = {{"steps", 5}, {"test_accuracy", 0.5}};
    const std::string text = mio::model_to_json(t.model, t.vocab, t.labels, info);
    const mio::LoadedModel back = mio::model_from_json(text);

    const tr::ModelConfig &a = t.model.config, &b = back.model.config;
    EXPECT_EQ(config_fields(a), config_fields(b));
    EXPECT_EQ(back.vocab.words, t.vocab.words);
    EXPECT_EQ(back.labels, t.labels);
    EXPECT_EQ(back.training_info, info);
    expect_bit_identical(t.model, back.model);

    // Same predictions, bit for bit, and saving again gives the same text.
    const auto p1 = tr::predict_text(t.model, t.vocab, "Refund the cake, not the candles.");
    const auto p2 = tr::predict_text(back.model, back.vocab, "Refund the cake, not the candles.");
    EXPECT_EQ(p1.prediction.label, p2.prediction.label);
    EXPECT_EQ(p1.prediction.probabilities, p2.prediction.probabilities);
    EXPECT_EQ(mio::model_to_json(back.model, back.vocab, back.labels, back.training_info), text);
  }
}

TEST(ModelIo, ExtremeFloatsRoundTrip) {
  Trained t = train_a_little(Scheme::Sinusoidal, 1, 0, 0);
  float* w = t.model.params.classifier_w.data();
  const float specials[] = {FLT_MIN, -FLT_MIN, FLT_MAX,     -FLT_MAX,    1e-45f /* denormal */,
                            -0.0f,   0.1f,     1.0f / 3.0f, 16777217.0f, std::nextafter(1.0f, 2.0f)};
  for (size_t i = 0; i < sizeof specials / sizeof *specials; ++i) w[i] = specials[i];
  const mio::LoadedModel back = mio::model_from_json(mio::model_to_json(t.model, t.vocab, t.labels));
  expect_bit_identical(t.model, back.model);
}

TEST(ModelIo, NoTrainingInfoMeansNull) {
  const Trained t = train_a_little(Scheme::None, 1, 0, 0);
  const json doc = mio::model_to_json_value(t.model, t.vocab, t.labels);
  EXPECT_FALSE(doc.contains("training"));
  EXPECT_EQ(doc["format"], "attention-demo-router");
  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["config"]["positions"], "none");
  EXPECT_TRUE(mio::model_from_json_value(doc).training_info.is_null());
}

TEST(ModelIo, SaveRejectsMismatchedVocabLabelsAndNaN) {
  Trained t = train_a_little(Scheme::Sinusoidal, 1, 0, 0);
  std::vector<std::string> few = {"cake"};
  EXPECT_THROW(mio::model_to_json(t.model, t.vocab, few), InputError);
  tr::Vocab small = t.vocab;
  small.words.pop_back();
  EXPECT_THROW(mio::model_to_json(t.model, small, t.labels), InputError);
  EXPECT_THROW(mio::model_to_json(t.model, t.vocab, t.labels, json::array()), InputError);
  t.model.params.classifier_b(0, 0) = std::nanf("");
  try {
    mio::model_to_json(t.model, t.vocab, t.labels);
    FAIL() << "a NaN weight was saved";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("classifier.b"), std::string::npos) << e.what();
  }
}

// [SECTION] broken files

class BrokenFile : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Trained t = train_a_little(Scheme::Learned, 1, 0, 0);
    good_ = new json(mio::model_to_json_value(t.model, t.vocab, t.labels, {{"steps", 0}}));
  }
  static void TearDownTestSuite() {
    delete good_;
    good_ = nullptr;
  }
  // Loads a damaged copy of the good document and expects an InputError whose message holds `words`.
  static void expect_error(const std::function<void(json&)>& damage, const std::string& words) {
    json doc = *good_;
    damage(doc);
    expect_text_error(doc.dump(), words);
  }
  static void expect_text_error(const std::string& text, const std::string& words) {
    try {
      mio::model_from_json(text);
      ADD_FAILURE() << "loaded a broken file; wanted an error with \"" << words << "\"";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(words), std::string::npos) << "message: " << msg << "\nwanted: " << words;
      EXPECT_EQ(msg.rfind("model file: ", 0), 0u) << msg;
    }
  }
  static json* good_;
};
json* BrokenFile::good_ = nullptr;

TEST_F(BrokenFile, TheGoodFileLoads) {
  EXPECT_NO_THROW(mio::model_from_json(good_->dump()));
}

TEST_F(BrokenFile, NotJson) {
  expect_text_error("", "not valid JSON");
  expect_text_error("{\"format\": ", "not valid JSON");
  expect_text_error("hello", "not valid JSON");
  expect_text_error("[1, 2]", "expected a JSON object at the top, not array");
}

TEST_F(BrokenFile, FormatAndVersion) {
  expect_error([](json& d) { d.erase("format"); }, "no \"format\": \"attention-demo-router\"");
  expect_error([](json& d) { d["format"] = "something-else"; }, "its format is \"something-else\"");
  expect_error([](json& d) { d["version"] = 2; }, "version 2 is not supported; this build reads version 1");
  expect_error([](json& d) { d["version"] = "1"; }, "version must be a whole number, not string");
  expect_error([](json& d) { d.erase("version"); }, "no \"version\" field");
}

TEST_F(BrokenFile, Config) {
  expect_error([](json& d) { d.erase("config"); }, "no \"config\" field");
  expect_error([](json& d) { d["config"] = 3; }, "\"config\" must be an object");
  expect_error([](json& d) { d["config"].erase("heads"); }, "config has no \"heads\" field");
  expect_error([](json& d) { d["config"]["d_model"] = 16.5; },
               "config.d_model must be a whole number, not 16.5");
  expect_error(
      [](json& d) { d["config"]["positions"] = "raw"; },
      "config.positions: unknown position scheme 'raw'; allowed: none|sinusoidal|learned|rope|alibi");
  expect_error([](json& d) { d["config"]["heads"] = 5; },
               "the config cannot build a model: d_model 16 is not divisible by 5 heads");
  expect_error([](json& d) { d["config"]["causal"] = "no"; }, "config.causal must be true or false");
  expect_error([](json& d) { d["config"]["seed"] = -1; }, "config.seed = -1 is out of range; allowed: 0 to ");
  expect_error([](json& d) { d["config"]["seed"] = 9007199254740992LL; },
               "config.seed = 9007199254740992 is out");
  expect_error([](json& d) { d["config"]["layers"] = 0; }, "the number of layers");
}

TEST_F(BrokenFile, VocabAndLabels) {
  expect_error([](json& d) { d["vocab"].erase(d["vocab"].size() - 1); }, "but config.vocab is");
  expect_error([](json& d) { d["vocab"] = "words"; }, "vocab must be a list of strings, not string");
  expect_error([](json& d) { d["vocab"][3] = 7; }, "vocab[3] must be a string, not number");
  expect_error([](json& d) { d["vocab"][0] = "hello"; }, "vocab[0] must be \"<unk>\"");
  expect_error([](json& d) { d["vocab"][2] = d["vocab"][1]; }, "twice");
  expect_error([](json& d) { d["labels"].erase(0); }, "labels but config.classes is");
  expect_error([](json& d) { d.erase("labels"); }, "no \"labels\" field");
}

TEST_F(BrokenFile, Tensors) {
  expect_error([](json& d) { d["tensors"].erase("layers.0.w_o"); }, "tensor 'layers.0.w_o' is missing");
  expect_error([](json& d) { d["tensors"].erase("position_table"); }, "tensor 'position_table' is missing");
  expect_error([](json& d) { d["tensors"]["layers.1.w_o"] = d["tensors"]["layers.0.w_o"]; },
               "unexpected tensor 'layers.1.w_o'");
  expect_error(
      [](json& d) {
        d["tensors"]["classifier.b"]["shape"] = {1, 4};
      },
      "tensor 'classifier.b' has shape [1, 4] but this config needs [1, ");
  expect_error([](json& d) { d["tensors"]["classifier.b"]["shape"] = {3}; }, "needs \"shape\": [rows, cols]");
  expect_error([](json& d) { d["tensors"]["classifier.b"]["data"].erase(0); },
               "numbers in \"data\"; its shape");
  expect_error([](json& d) { d["tensors"]["classifier.b"]["data"][1] = nullptr; },
               "tensor 'classifier.b' data[1] is null (NaN or infinite when saved), not a number");
  expect_error([](json& d) { d["tensors"]["classifier.b"]["data"][0] = "0.5"; }, "not a number");
  expect_error([](json& d) { d["tensors"]["classifier.b"]["data"][0] = 1e39; }, "is not a finite float32");
  expect_error([](json& d) { d["tensors"]["classifier.b"] = 1; },
               "must be an object with \"shape\" and \"data\"");
  expect_error([](json& d) { d["tensors"] = json::array(); }, "\"tensors\" must be an object");
  expect_error([](json& d) { d["training"] = 3; }, "\"training\" must be an object");
}

// Whole numbers far outside any range, written as floats: refused in words before any conversion to an
// integer (in wasm such a conversion traps and stops the page).
TEST_F(BrokenFile, HugeWholeNumbersAreOutOfRange) {
  const std::vector<std::string> values = {"1e300",  "-1e300",  "1e19",
                                           "9.3e18", "-9.3e18", "9007199254740994.0"};
  const std::vector<std::string> fields = {"\"version\":1", "\"seed\":11", "\"d_model\":16", "\"heads\":4"};
  for (const std::string& field : fields) {
    for (const std::string& v : values) {
      std::string text = good_->dump();
      const auto at = text.find(field);
      ASSERT_NE(at, std::string::npos) << field;
      const auto colon = field.find(':');
      text.replace(at, field.size(), field.substr(0, colon + 1) + v);
      SCOPED_TRACE(field + " -> " + v);
      expect_text_error(text, " is out of range");
    }
  }
  for (const std::string& v : values) {
    json doc = *good_;
    doc["tensors"]["classifier.b"]["shape"][1] = json::parse(v);
    SCOPED_TRACE("shape -> " + v);
    expect_text_error(doc.dump(), "tensor 'classifier.b' columns = ");
  }
}

TEST_F(BrokenFile, HugeNumberLiteralIsNotFinite) {
  std::string text = good_->dump();
  const std::string key = "\"classifier.b\":{\"data\":[";
  const auto at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + key.size(), "1e999,");
  expect_text_error(text, "number overflow parsing '1e999'");
}

TEST(ModelIoFiles, SaveLoadAndMissingFile) {
  const Trained t = train_a_little(Scheme::Rope, 1, 0, 3);
  const std::string path = ::testing::TempDir() + "model_io_test.json";
  mio::save_model_file(path, t.model, t.vocab, t.labels);
  expect_bit_identical(t.model, mio::load_model_file(path).model);
  std::remove(path.c_str());
  try {
    mio::load_model_file(path);
    FAIL() << "loaded a missing file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open the model file '" + path + "'"), std::string::npos)
        << e.what();
  }
  {
    std::ofstream f(path);
    f << "{\"format\": \"attention-demo-router\", \"version\": 1}";
  }
  try {
    mio::load_model_file(path);
    FAIL() << "loaded a file without a config";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "model file '" + path + "': the file has no \"config\" field");
  }
  std::remove(path.c_str());
}

}  // namespace

// [SECTION] hostile files: refused from their config or their sizes, before any weight is allocated

TEST_F(BrokenFile, HugeDeclaredSizesAreRefusedBeforeAllocating) {
  // a small file declaring 100,000 classes at d_model 1,024 (about 10^8 weights)
  expect_error([](json& d) { d["config"]["classes"] = 100000, d["config"]["d_model"] = 1024; },
               "weights; allowed");
  // a vocabulary of 10^6 words at d_model 128 (1.28 x 10^8 weights)
  expect_error([](json& d) { d["config"]["vocab"] = 1000000, d["config"]["d_model"] = 128; },
               "weights; allowed");
  // within the weight limit, but the tensors' data do not hold what the config declares
  expect_error(
      [](json& d) {
        d["config"]["classes"] = 1000;
        d["labels"] = json::array();
        for (int i = 0; i < 1000; ++i) d["labels"].push_back("item " + std::to_string(i));
      },
      "tensor 'classifier.w' has shape");
}

TEST_F(BrokenFile, DeepNestingAnywhereIsRefusedBeforeParsing) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  for (const char* field : {"training", "labels"}) {
    std::string text = good_->dump();
    const std::string key = std::string("\"") + field + "\":";
    const size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << field;
    text.insert(at + key.size(), deep + ",\"x\":");  // a deep value for the field, then a dummy key
    expect_text_error(text, "levels deep");
  }
}

TEST(ModelWeights, WeightCountMatchesTheShapesAndIsCapped) {
  for (const auto scheme : {Scheme::None, Scheme::Learned}) {
    for (int d_ff : {0, 64}) {
      tr::ModelConfig c;
      c.vocab = 50, c.classes = 14, c.layers = 2, c.d_ff = d_ff, c.positions = scheme;
      long long sum = 0;
      for (const auto& [name, shape] : tr::Params::expected_shapes(c))
        sum += 1LL * shape.first * shape.second;
      EXPECT_EQ(tr::weight_count(c), sum) << "d_ff " << d_ff;
    }
  }
  tr::ModelConfig huge;
  huge.vocab = 1000000, huge.classes = 14, huge.d_model = 128;
  EXPECT_GT(tr::weight_count(huge), attn::kMaxWeights);
  EXPECT_THROW(tr::validate_config(huge), InputError);
}
