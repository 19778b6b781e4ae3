// The FLOPs estimate of a training run (core/train/cost.hpp) against a count made here product by
// product, for small configs with and without a feed-forward layer.
#include <gtest/gtest.h>

#include <vector>

#include "core/train/cost.hpp"
#include "core/train/data.hpp"
#include "core/train/model.hpp"
#include "core/train/vocab.hpp"
#include "fixtures.hpp"

namespace {

namespace tr = attn::train;

// One matrix product (m, k) x (k, n): m * n dot products of length k, each k multiplies and k adds.
double product(double m, double k, double n) {
  return 2 * m * k * n;
}

// The router's default scheme at the given shape, 11 token ids, 3 classes.
tr::ModelConfig config(int d_model, int heads, int layers, int d_ff) {
  tr::ModelConfig c = fx::router_config(d_model, heads, layers, d_ff);
  c.vocab = 11, c.classes = 3;
  return c;
}

// The forward pass written out as its list of products, head by head (d_k = D / H).
double forward_by_hand(const tr::ModelConfig& c, int t) {
  const int d = c.d_model, dk = d / c.heads;
  std::vector<double> products;
  for (int l = 0; l < c.layers; ++l) {
    products.push_back(product(t, d, 3 * d));  // x W_qkv
    for (int h = 0; h < c.heads; ++h) {
      products.push_back(product(t, dk, t));  // q k^T
      products.push_back(product(t, t, dk));  // weights v
    }
    products.push_back(product(t, d, d));  // concat W_o
    if (c.d_ff > 0) {
      products.push_back(product(t, d, c.d_ff));  // norm1 W1
      products.push_back(product(t, c.d_ff, d));  // hidden W2
    }
  }
  products.push_back(product(1, d, c.classes));  // pooled W_classifier
  double sum = 0;
  for (double p : products) sum += p;
  return sum;
}

TEST(TrainCost, ForwardCountsEveryProduct) {
  for (const auto& c : {config(4, 2, 1, 0), config(8, 4, 2, 16), config(6, 3, 3, 5)}) {
    for (int t : {1, 5, 12}) EXPECT_DOUBLE_EQ(tr::forward_flops(c, t), forward_by_hand(c, t)) << t;
  }
  // d_model 4, 2 heads, 1 layer, no FFN, 3 tokens, 3 classes, counted by hand:
  // qkv 2*3*4*12 = 288, scores 2 x 2*3*2*3 = 72, weighted values 72, W_o 2*3*4*4 = 96, classifier 24.
  EXPECT_DOUBLE_EQ(tr::forward_flops(config(4, 2, 1, 0), 3), 288 + 72 + 72 + 96 + 24);
}

TEST(TrainCost, RunCountsStepsAdamAndEveryEvaluation) {
  const tr::ModelConfig c = config(8, 2, 1, 16);
  tr::TrainWork w;
  w.steps = 7;
  w.batch = 3;
  w.eval_every = 3;  // chunks of 3, 3 and 1 steps: evaluations at steps 0, 3, 6 and 7
  w.train_examples = 20;
  w.test_examples = 9;
  w.tokens = 6;
  w.longer = 4;
  const double f = forward_by_hand(c, 6);
  const double adam = tr::kAdamFlopsPerWeight * static_cast<double>(tr::weight_count(c));
  const double steps = 7 * (3 * (f + 2 * f) + adam);  // forward, backward (twice the products), Adam
  const double held_out = 4 * 9 * f + 9 * f;          // the curve's 4 evaluations and the final one
  const double final_train = 20 * f;
  const double longer = 9 * forward_by_hand(c, 6 + 4);
  EXPECT_DOUBLE_EQ(tr::train_flops(c, w), steps + held_out + final_train + longer);

  w.longer = 0;  // no longer-email evaluation
  EXPECT_DOUBLE_EQ(tr::train_flops(c, w), steps + held_out + final_train);
  w.steps = 0;  // no step: the evaluation before training and the final one
  EXPECT_DOUBLE_EQ(tr::train_flops(c, w), 9 * f + 9 * f + final_train);
}

TEST(TrainCost, GrowsWithEverySetting) {
  tr::TrainWork w;
  w.steps = 100;
  w.train_examples = 100;
  w.test_examples = 30;
  w.tokens = 10;
  const double base = tr::train_flops(config(32, 4, 1, 0), w);
  EXPECT_GT(tr::train_flops(config(64, 4, 1, 0), w), base);
  EXPECT_GT(tr::train_flops(config(32, 4, 2, 0), w), base);
  EXPECT_GT(tr::train_flops(config(32, 4, 1, 64), w), base);
  tr::TrainWork more = w;
  more.batch *= 2;
  EXPECT_GT(tr::train_flops(config(32, 4, 1, 0), more), base);
  more = w;
  more.eval_every = 1;
  EXPECT_GT(tr::train_flops(config(32, 4, 1, 0), more), base);
  // the largest settings pass what an int64 holds (9.2e18): a double does not wrap
  tr::TrainWork huge = w;
  huge.steps = 100000;
  huge.batch = 4096;
  huge.tokens = 1024;
  EXPECT_GT(tr::train_flops(config(1024, 1, 8, 4096), huge), 1e19);
}

// attention_cli train's budget: the defaults, up to the 100,000 steps its --steps allows, fit; the issue's
// runs of more than 5 minutes do not.
TEST(TrainCost, BudgetKeepsTheDefaultsAndRefusesHourLongRuns) {
  const tr::Dataset data = tr::make_refund_dataset();
  tr::ModelConfig c;  // d_model 32, 4 heads, 1 layer, no FFN: the CLI's and the page's defaults
  c.vocab = tr::Vocab::build(data).size();
  c.classes = data.classes();
  const tr::TrainWork defaults = tr::train_work(data, 400, 32, 50, 40);
  EXPECT_EQ(defaults.train_examples, static_cast<int>(data.train.size()));
  EXPECT_EQ(defaults.test_examples, static_cast<int>(data.test.size()));
  EXPECT_GE(defaults.tokens, 5);  // "Refund the X, not the Y." and longer
  EXPECT_LE(tr::train_flops(c, defaults), tr::kMaxTrainFlops / 100);
  EXPECT_LE(tr::train_flops(c, tr::train_work(data, 100000, 32, 50, 40)), tr::kMaxTrainFlops);
  EXPECT_GT(tr::train_flops(c, tr::train_work(data, 100000, 4096, 50, 40)), tr::kMaxTrainFlops);
  tr::ModelConfig wide = c;
  wide.d_model = 1024;
  wide.heads = 1;
  wide.d_ff = 4096;
  EXPECT_GT(tr::train_flops(wide, tr::train_work(data, 1, 4096, 50, 40)), tr::kMaxTrainFlops);
}

}  // namespace
