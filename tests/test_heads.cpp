// Heads with jobs in the core: the naming rule, the "L.H" list of switched-off heads, a mean-ablated head
// against its output put in by hand, and the induction task's sequences and targets.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/induction.hpp"
#include "fixtures.hpp"

namespace {

namespace tr = attn::train;

TEST(HeadRoles, ANameNeedsHalfTheWeightAndTwiceTheNext) {
  EXPECT_EQ(tr::role_of({{"a", 0.6}, {"b", 0.3}}), "a");
  EXPECT_EQ(tr::role_of({{"a", 0.6}, {"b", 0.31}}), "mixed");  // not twice the next
  EXPECT_EQ(tr::role_of({{"a", 0.45}, {"b", 0.1}}), "mixed");  // under 0.5
  EXPECT_EQ(tr::role_of({{"a", 0.1}, {"b", 0.9}, {"c", 0.2}}), "b");
  EXPECT_EQ(tr::role_of({}), "mixed");
}

TEST(HeadRoles, HeadsOffAreReadAndRefusedInWords) {
  const attn::HeadSwitch off = tr::parse_heads_off("1.2,0.3", 2, 4);
  EXPECT_TRUE(off.is_off(1, 2));
  EXPECT_TRUE(off.is_off(0, 3));
  EXPECT_FALSE(off.is_off(0, 2));
  EXPECT_EQ(tr::heads_off_names(off), (std::vector<std::string>{"0.3", "1.2"}));
  EXPECT_TRUE(tr::heads_off_names(tr::parse_heads_off("", 2, 4)).empty());
  for (const char* bad : {"1", "1.", ".2", "a.b", "1.2,", "1.-2", "12345.1"}) {
    EXPECT_THROW(tr::parse_heads_off(bad, 2, 4), attn::InputError) << bad;
  }
  try {
    tr::parse_heads_off("2.0", 2, 4);
    FAIL() << "layer 2 of 2 was accepted";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("there is no head 2.0: the model has 2 layer(s) of 4 heads"),
              std::string::npos)
        << e.what();
  }
}

// A head switched off with a mean output gives that vector on every row of its slice of concat; the other
// heads and the layer's input are untouched, and the layer's output is W_o applied to that concat.
TEST(HeadRoles, AMeanAblatedHeadOutputsItsMeanOnEveryRow) {
  tr::ModelConfig c = fx::router_config(8, 2, 1, 0, attn::Scheme::Rope);
  c.vocab = 9, c.classes = 3;
  const tr::Model model(c);
  const std::vector<int> ids = {3, 1, 4, 1, 5};
  const tr::Forward clean = model.forward(ids);
  attn::HeadSwitch off = tr::single_head_off(1, 2, 0, 1);
  off.mean = {{{}, {0.5, -1.0, 0.25, 2.0}}};  // head 1's d_k = 4 outputs
  tr::Forward f;
  model.forward(ids, f, &off);
  const auto& L = f.layers[0];
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(L.concat(i, 4 + j), static_cast<float>(off.mean[0][1][static_cast<size_t>(j)]));
      EXPECT_EQ(L.concat(i, j), clean.layers[0].concat(i, j));  // head 0 as before
    }
  }
  const attn::Mat by_hand = L.concat * model.params.layers[0].w_o;
  EXPECT_LT((L.attention - by_hand).cwiseAbs().maxCoeff(), 1e-5f);
  // zeros when no mean is given
  const attn::HeadSwitch zero = tr::parse_heads_off("0.1", 1, 2);
  model.forward(ids, f, &zero);
  EXPECT_EQ(f.layers[0].concat.rightCols(4).cwiseAbs().maxCoeff(), 0.0f);
}

TEST(HeadRoles, MeanHeadOutputsAverageEveryRowOfEverySequence) {
  tr::ModelConfig c = fx::router_config(8, 2, 2, 0, attn::Scheme::Sinusoidal);
  c.vocab = 9, c.classes = 3;
  const tr::Model model(c);
  const std::vector<std::vector<int>> set = {{1, 2, 3}, {4, 5, 6, 7, 8}};
  const auto mean = tr::mean_head_outputs(model, set);
  ASSERT_EQ(mean.size(), 2u);
  double want = 0;  // layer 1, head 0, output 2 by hand
  for (const auto& ids : set) {
    const tr::Forward f = model.forward(ids);
    for (int i = 0; i < f.tokens(); ++i) want += f.layers[1].concat(i, 2);
  }
  EXPECT_NEAR(mean[1][0][2], want / 8.0, 1e-12);
}

TEST(Induction, SequencesRepeatADistinctSegmentAtVaryingDistances) {
  attn::Rng rng(5);
  std::set<int> segments;
  for (int n = 0; n < 200; ++n) {
    const std::vector<int> ids = tr::training_sequence(rng, 16, 32);
    ASSERT_EQ(ids.size(), 32u);
    // the segment: the longest S in 8 .. 16 with ids[32 - S + i] == ids[32 - 2S + i]
    int found = 0;
    for (int s = 16; s >= 8 && !found; --s) {
      bool same = true;
      for (int i = 0; i < s; ++i)
        same = same && ids[static_cast<size_t>(32 - s + i)] == ids[static_cast<size_t>(32 - 2 * s + i)];
      if (same) found = s;
    }
    ASSERT_GT(found, 0) << "no repeated segment";
    const std::set<int> distinct(ids.end() - found, ids.end());
    EXPECT_EQ(static_cast<int>(distinct.size()), found);  // each token once in the segment
    segments.insert(found);
    for (int id : ids) ASSERT_TRUE(id >= 0 && id < 16);
  }
  EXPECT_GE(segments.size(), 5u);  // the distance varies
  const std::vector<int> held = tr::repeated_sequence(rng, 16, 32);
  EXPECT_TRUE(std::equal(held.begin(), held.begin() + 16, held.begin() + 16));
  EXPECT_EQ(tr::next_token_targets({4, 5, 6}), (std::vector<int>{5, 6, -1}));
  EXPECT_THROW(tr::repeated_sequence(rng, 16, 31), attn::InputError);
  // a segment longer than the vocabulary starts its draw again after every 16 ids
  const std::vector<int> longer = tr::repeated_sequence(rng, 16, 64);
  EXPECT_EQ(std::set<int>(longer.begin(), longer.begin() + 16).size(), 16u);
  EXPECT_EQ(std::set<int>(longer.begin() + 16, longer.begin() + 32).size(), 16u);
}

TEST(Induction, TheSameSeedTrainsTheSameModel) {
  tr::InductionConfig task;
  task.eval_sequences = 4;
  const tr::ModelConfig c = tr::induction_model_config(task, attn::Scheme::Rope, 3);
  tr::InductionTrainer a(task, c), b(task, c);
  a.train(3);
  b.train(3);
  EXPECT_EQ(a.last_loss(), b.last_loss());
  const tr::InductionMetrics ma = a.evaluate(), mb = b.evaluate();
  EXPECT_EQ(ma.loss_second_half, mb.loss_second_half);
  EXPECT_EQ(ma.induction, mb.induction);
  EXPECT_EQ(ma.length, 32);
  EXPECT_EQ(tr::induction_head_roles(ma).size(), 8u);
}

}  // namespace
