// The Real model scene's model holder (app/logic/lm_host): a llama2.c checkpoint and tokenizer written here,
// opened by name and answered exactly as the core's own forward answers (ids, pieces, every head's weights
// bit for bit, the top 10, greedy generation continued from the kept forward, RoPE scores by gap, heads off,
// roles); bad files and questions answered with their reason; files arriving one at a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "app/logic/lm_host.hpp"
#include "core/error.hpp"
#include "core/lm/next_token.hpp"
#include "core/rng.hpp"
#include "lm_fixtures.hpp"
#include "model_io/checkpoint.hpp"
#include "model_io/hf_folder.hpp"

namespace {

using lm_fixtures::ask;
using lm_fixtures::expect_same;
using lm_fixtures::files;
using lm_fixtures::kDim;
using lm_fixtures::kHeads;
using lm_fixtures::kHidden;
using lm_fixtures::kKvHeads;
using lm_fixtures::kLayers;
using lm_fixtures::kSeq;
using lm_fixtures::NamedFile;
using lm_fixtures::pieces;
using lm_fixtures::tokenizer_bin;

TEST(LmHost, AnswersAsTheCoreForwardDoes) {
  app::LmHost host;
  const app::LmInfo info = host.open(1, files());
  ASSERT_TRUE(info.ok()) << info.error;
  EXPECT_EQ(info.format, "llama2c");
  EXPECT_EQ(info.layers, kLayers);
  EXPECT_EQ(info.heads, kHeads);
  EXPECT_EQ(info.kv_heads, kKvHeads);
  EXPECT_EQ(info.max_len, kSeq);
  EXPECT_TRUE(info.has_tokenizer);
  EXPECT_EQ(info.source, "stories-test.bin, tokenizer.bin");
  const long long v = static_cast<long long>(pieces().size());
  const long long per_layer =
      2LL * kDim + 2LL * kDim * kDim + 2LL * kDim * (kDim / kHeads * kKvHeads) + 3LL * kDim * kHidden;
  EXPECT_EQ(info.parameters, v * kDim + kLayers * per_layer + kDim);

  const app::LmAnswer a = host.answer(ask("the cat sat on the mat"));
  ASSERT_EQ(a.error, "");
  const attn::model_io::Checkpoint c = attn::model_io::open_checkpoint(files());
  const std::vector<int> ids = c.encode("the cat sat on the mat");
  EXPECT_EQ(a.ids, ids);
  EXPECT_EQ(a.prompt, static_cast<int>(ids.size()));
  EXPECT_EQ(a.text, "the cat sat on the mat");
  const attn::lm::LmForward f = attn::lm::lm_forward(c.model, ids, nullptr, true);
  ASSERT_EQ(a.grids.size(), static_cast<size_t>(kLayers * kHeads));
  for (int l = 0; l < kLayers; ++l) {
    for (int h = 0; h < kHeads; ++h) {
      const attn::Mat& g = a.grids[static_cast<size_t>(l * kHeads + h)];
      EXPECT_TRUE(g == f.layers[static_cast<size_t>(l)].weights[static_cast<size_t>(h)]) << l << "." << h;
      EXPECT_NEAR(g.row(g.rows() - 1).sum(), 1.0f, 1e-5f);
    }
  }
  const std::vector<attn::lm::Candidate> top = attn::lm::top_next(f.logits, 0, 10);
  ASSERT_EQ(a.next.size(), top.size());
  for (size_t i = 0; i < top.size(); ++i) {
    EXPECT_EQ(a.next[i].id, top[i].id);
    EXPECT_EQ(a.next[i].p, top[i].p);
    if (i > 0) {
      EXPECT_GE(a.next[i - 1].p, a.next[i].p);
    }
  }
  EXPECT_TRUE(a.roles.empty());
}

TEST(LmHost, GeneratesGreedilyTokenByToken) {
  app::LmHost host;
  ASSERT_TRUE(host.open(1, files()).ok());
  app::LmRequest q = ask("the cat");
  q.generate = 4;
  const app::LmAnswer a = host.answer(q);
  ASSERT_EQ(a.error, "");
  const attn::model_io::Checkpoint c = attn::model_io::open_checkpoint(files());
  std::vector<int> ids = c.encode("the cat");
  ASSERT_EQ(a.ids.size(), ids.size() + 4);
  for (int g = 0; g < 4; ++g) {  // each new id is the most likely after the ids before it
    const attn::lm::LmForward f = attn::lm::lm_forward(c.model, ids, nullptr, true);
    int best = 0;
    f.logits.row(0).maxCoeff(&best);
    EXPECT_EQ(a.ids[ids.size()], best) << "token " << g;
    ids.push_back(best);
  }
  EXPECT_EQ(a.grids[0].rows(), static_cast<Eigen::Index>(ids.size()));
  // sampled: the same seed gives the same tokens, another seed (very likely) others
  q.temperature = 1.5;
  const app::LmAnswer s1 = host.answer(q), s1b = host.answer(q);
  EXPECT_EQ(s1.ids, s1b.ids);
}

TEST(LmHost, MoreTokensContinueTheLastAnswer) {
  // "Next token" asks for one more: the host continues its kept forward (a key/value cache) and answers
  // as a fresh host that generates them all at once, and its grids are a forward over all the ids
  const attn::model_io::Checkpoint c = attn::model_io::open_checkpoint(files());
  app::LmHost host;
  ASSERT_TRUE(host.open(1, files()).ok());
  for (const double temperature : {0.0, 1.5}) {
    SCOPED_TRACE("temperature " + std::to_string(temperature));
    app::LmRequest q = ask("the cat");
    q.temperature = temperature;
    q.seed = 7;
    for (const int n : {2, 3, 6}) {
      q.generate = n;
      const app::LmAnswer more = host.answer(q);
      app::LmHost fresh;
      ASSERT_TRUE(fresh.open(1, files()).ok());
      const app::LmAnswer all = fresh.answer(q);
      ASSERT_EQ(more.error, "");
      expect_same(more, all);
      EXPECT_EQ(more.prompt, static_cast<int>(c.encode("the cat").size()));
      const attn::lm::LmForward f = attn::lm::lm_forward(c.model, more.ids, nullptr, true);
      for (size_t g = 0; g < more.grids.size(); ++g) {
        const attn::Mat& w = f.layers[g / kHeads].weights[g % kHeads];
        EXPECT_TRUE(more.grids[g] == w) << "grid " << g << " of " << n << ": largest difference "
                                        << (more.grids[g] - w).cwiseAbs().maxCoeff();
      }
    }
  }
  // fewer tokens, other heads off or another text start again from the prompt
  app::LmRequest q = ask("the cat");
  q.generate = 6;
  const app::LmAnswer six = host.answer(q);
  q.generate = 3;
  const app::LmAnswer three = host.answer(q);
  EXPECT_EQ(three.ids, std::vector<int>(six.ids.begin(), six.ids.end() - 3));
  q.off = "1.0";
  app::LmHost fresh;
  ASSERT_TRUE(fresh.open(1, files()).ok());
  expect_same(host.answer(q), fresh.answer(q));
}

TEST(LmHost, TheEnlargedHeadsRopeScoresByGap) {
  // the last token's query and its favourite key, turned back and scored at every gap: at their own gap
  // the score is the one the model computed
  const attn::model_io::Checkpoint c = attn::model_io::open_checkpoint(files());
  app::LmHost host;
  ASSERT_TRUE(host.open(1, files()).ok());
  app::LmRequest q = ask("the cat sat on the mat");
  EXPECT_TRUE(host.answer(q).gap_scores.empty()) << "no head enlarged, no scores";
  for (const int grid : {0, kHeads + 3}) {  // layer 0 head 0 (group 0), layer 1 head 3 (group 1)
    q.grid = grid;
    const app::LmAnswer a = host.answer(q);
    ASSERT_EQ(a.error, "");
    ASSERT_EQ(a.gap_scores.size(), static_cast<size_t>(2 * app::kLmGaps + 1));
    const int last = static_cast<int>(a.ids.size()) - 1;
    int favourite = 0;
    a.grids[static_cast<size_t>(grid)].row(last).maxCoeff(&favourite);
    EXPECT_EQ(a.gap_key, favourite);
    const attn::lm::LmForward f = attn::lm::lm_forward(c.model, a.ids);
    const float model =
                    f.layers[static_cast<size_t>(grid / kHeads)].scores[static_cast<size_t>(grid % kHeads)](
                        last, favourite),
                ours = a.gap_scores[static_cast<size_t>(app::kLmGaps + last - favourite)];
    EXPECT_NEAR(ours, model, 1e-5 + 1e-5 * std::abs(model)) << "grid " << grid;
  }
  q.generate = 2;  // more tokens: the same head continued from the cache, still the model's own score
  const app::LmAnswer a = host.answer(q);
  const attn::lm::LmForward f = attn::lm::lm_forward(c.model, a.ids);
  const int last = static_cast<int>(a.ids.size()) - 1;
  const float model = f.layers[1].scores[3](last, a.gap_key);
  EXPECT_NEAR(a.gap_scores[static_cast<size_t>(app::kLmGaps + last - a.gap_key)], model,
              1e-5 + 1e-5 * std::abs(model));
}

TEST(LmHost, HeadsOffChangeTheNextTokenAndTheLaterLayers) {
  app::LmHost host;
  ASSERT_TRUE(host.open(1, files()).ok());
  app::LmRequest q = ask("the cat sat");
  const app::LmAnswer on = host.answer(q);
  q.off = "0.1,0.2";
  const app::LmAnswer off = host.answer(q);
  ASSERT_EQ(off.error, "");
  EXPECT_TRUE(on.grids[1] == off.grids[1]);             // layer 0's weights come before the heads' outputs
  EXPECT_FALSE(on.grids[kHeads] == off.grids[kHeads]);  // layer 1 reads a changed input
  EXPECT_NE(on.next[0].p, off.next[0].p);
  q.off = "2.0";
  EXPECT_NE(host.answer(q).error.find("layer"), std::string::npos) << host.answer(q).error;
}

TEST(LmHost, RolesForEveryHead) {
  app::LmHost host;
  ASSERT_TRUE(host.open(1, files()).ok());
  app::LmRequest q = ask("the");
  q.roles = true;
  const app::LmAnswer a = host.answer(q);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.segment, 32);
  ASSERT_EQ(a.roles.size(), static_cast<size_t>(kLayers * kHeads));
  for (const app::LmHeadScores& h : a.roles) {
    for (float v : {h.previous_token, h.induction, h.first_token}) {
      EXPECT_GE(v, 0.0f);
      EXPECT_LE(v, 1.0f);
    }
  }
}

TEST(LmHost, BadFilesAndQuestionsSayWhy) {
  app::LmHost host;
  EXPECT_NE(host.open(1, {{"notes.txt", "hello"}}).error.find("'notes.txt' is not a checkpoint's file"),
            std::string::npos);
  EXPECT_NE(host.open(2, {{"tokenizer.bin", tokenizer_bin()}}).error.find("tokenizer.bin alone"),
            std::string::npos);
  // a Hugging Face folder: its other files are passed over, not taken for a llama2.c checkpoint or refused
  EXPECT_NE(host.open(3, {{"config.json", "{}"}, {"pytorch_model.bin", "x"}, {"README.md", "x"}})
                .error.find("model.safetensors is missing"),
            std::string::npos);
  EXPECT_NE(host.open(3, {{"model-00001-of-00002.safetensors", "x"}}).error.find("config.json is missing"),
            std::string::npos);
  EXPECT_NE(host.open(3, {{"config.json", "{}"}, {"config.json", "{}"}, {"model.safetensors", "x"}})
                .error.find("two files are config.json"),
            std::string::npos);
  // a config field of the wrong type is refused in words, not thrown as a JSON error past the holder
  const std::string no_tensors = std::string("\x02\0\0\0\0\0\0\0", 8) + "{}";  // a header of no tensors
  for (const char* config :
       {R"({"model_type": 5})", R"({"model_type": "gpt2", "n_embd": 4, "n_layer": 1, "n_head": 2,
            "vocab_size": 5, "n_positions": 3, "activation_function": 7})"}) {
    app::LmInfo info;
    EXPECT_NO_THROW(info = host.open(3, {{"config.json", config}, {"model.safetensors", no_tensors}}));
    EXPECT_FALSE(info.ok());
    EXPECT_NE(info.error.find("config.json's"), std::string::npos) << config << ": " << info.error;
  }
  std::vector<NamedFile> two = files();
  two.push_back({"other.bin", "x"});
  EXPECT_NE(host.open(4, two).error.find("two files are"), std::string::npos);
  std::vector<NamedFile> cut = files();
  cut[0].bytes.resize(cut[0].bytes.size() / 2);
  const app::LmInfo truncated = host.open(5, cut);
  EXPECT_FALSE(truncated.ok());
  EXPECT_FALSE(truncated.error.empty());
  EXPECT_FALSE(host.has_model());
  EXPECT_NE(host.answer(ask("the")).error.find("no model is open"), std::string::npos);

  ASSERT_TRUE(host.open(6, files()).ok());
  app::LmRequest q = ask("");
  q.model = 6;
  q.use_text = false;
  q.ids = {1, 100000};
  EXPECT_FALSE(host.answer(q).error.empty());
  q.ids.assign(kSeq + 1, 5);
  EXPECT_FALSE(host.answer(q).error.empty());
  q.close = true;
  host.answer(q);
  EXPECT_FALSE(host.has_model());
}

TEST(LmHost, FilesArriveOneAtATimeTheCheckpointReadInRanges) {
  // the page's worker: the tokenizer whole, then the checkpoint last, read a range at a time as it opens
  app::LmHost host, whole;
  std::vector<NamedFile> f = files();
  const std::string bytes = f[0].bytes;
  size_t reads = 0, largest = 0;
  NamedFile ranged;
  ranged.name = f[0].name;
  ranged.range = {bytes.size(), [&](void* dst, size_t at, size_t n) {
                    ASSERT_LE(at + n, bytes.size());
                    std::memcpy(dst, bytes.data() + at, n);
                    ++reads, largest = std::max(largest, n);
                  }};
  EXPECT_FALSE(host.add_file(7, 0, 2, f[1]).has_value());
  const auto info = host.add_file(7, 1, 2, ranged);
  ASSERT_TRUE(info.has_value());
  EXPECT_TRUE(info->ok()) << info->error;
  EXPECT_EQ(info->model, 7);
  EXPECT_GT(reads, 10u);
  // one tensor at a time: the largest read is the token embedding, never the whole file
  EXPECT_EQ(largest, pieces().size() * kDim * sizeof(float));
  ASSERT_TRUE(whole.open(7, files()).ok());
  app::LmRequest q = ask("the cat");
  q.model = 7;
  expect_same(host.answer(q), whole.answer(q));
  // a truncated ranged checkpoint is refused as the whole one is
  ranged.range.size = bytes.size() - 4;
  EXPECT_NE(host.open(8, {f[1], ranged}).error.find("bytes"), std::string::npos);
}

}  // namespace
