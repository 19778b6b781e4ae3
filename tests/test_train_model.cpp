// The trainable refund router (train::Model): config checks, clear errors, tensor names, the kept scores and
// weights, order blindness without positions, seeded initialisation and Adam.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include "core/error.hpp"
#include "core/ops.hpp"
#include "core/rng.hpp"
#include "core/train/adam.hpp"
#include "core/train/model.hpp"

namespace {

using attn::InputError;
using attn::Scheme;
namespace tr = attn::train;

tr::ModelConfig small(Scheme positions) {
  tr::ModelConfig c;
  c.vocab = 20;
  c.classes = 5;
  c.positions = positions;
  return c;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<int> random_ids(int n, int vocab, std::uint64_t seed) {
  attn::Rng rng(seed);
  std::vector<int> ids(static_cast<size_t>(n));
  for (int& id : ids) id = static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(vocab));
  return ids;
}

bool bit_identical(const tr::Params& a, const tr::Params& b) {
  const auto ta = a.named_tensors(), tb = b.named_tensors();
  if (ta.size() != tb.size()) return false;
  for (size_t i = 0; i < ta.size(); ++i) {
    if (ta[i].first != tb[i].first || ta[i].second->size() != tb[i].second->size()) return false;
    if (std::memcmp(ta[i].second->data(), tb[i].second->data(), sizeof(float) * ta[i].second->size()) != 0) {
      return false;
    }
  }
  return true;
}

TEST(TrainModel, ConfigErrorsAreInWords) {
  tr::ModelConfig c = small(Scheme::Sinusoidal);
  c.heads = 5;
  EXPECT_NE(error_of([&] { tr::Model m(c); }).find("not divisible by 5 heads"), std::string::npos);
  EXPECT_EQ(attn::parse_scheme("rope", tr::trainable_schemes()), Scheme::Rope);
  EXPECT_THROW(attn::parse_scheme("raw", tr::trainable_schemes()), InputError);
  c = small(Scheme::Raw);
  EXPECT_NE(error_of([&] { tr::Model m(c); }).find("none|sinusoidal|learned|rope|alibi"), std::string::npos);
  c = small(Scheme::None);
  c.classes = 1;
  EXPECT_NE(error_of([&] { tr::Model m(c); }).find("classes"), std::string::npos);
  c = small(Scheme::None);
  c.vocab = 0;
  EXPECT_THROW(tr::Model m(c), InputError);
}

TEST(TrainModel, ForwardErrors) {
  const tr::Model m(small(Scheme::Learned));
  EXPECT_NE(error_of([&] { m.forward({}); }).find("no tokens"), std::string::npos);
  EXPECT_NE(error_of([&] { m.forward({1, 20}); }).find("token id 20 at position 1"), std::string::npos);
  // the 400-token email: no slot 32
  const std::string long_email = error_of([&] { m.predict(random_ids(400, 20, 1)); });
  EXPECT_NE(long_email.find("position 32 is past the end of the learned table: it has 32 slots"),
            std::string::npos)
      << long_email;
  EXPECT_NO_THROW(m.forward(random_ids(32, 20, 1)));
  // a model without weights says so instead of reading past its tables
  EXPECT_NE(error_of([] { tr::Model().forward({1}); }).find("do not fit its config"), std::string::npos);
  // the clock and the rotation have no end
  for (Scheme s : {Scheme::Sinusoidal, Scheme::Rope, Scheme::None}) {
    const tr::Model other(small(s));
    const tr::Prediction p = other.predict(random_ids(400, 20, 2));
    EXPECT_NEAR(std::accumulate(p.probabilities.begin(), p.probabilities.end(), 0.0), 1.0, 1e-5);
  }
}

TEST(TrainModel, ForwardKeepsEveryHeadsWeights) {
  tr::ModelConfig c = small(Scheme::Rope);
  c.layers = 2;
  c.d_ff = 16;
  c.causal = true;
  const tr::Model m(c);
  const std::vector<int> ids = random_ids(9, 20, 3);
  const tr::Forward f = m.forward(ids);
  ASSERT_EQ(f.layers.size(), 2u);
  EXPECT_EQ(f.embedded.rows(), 9);
  EXPECT_EQ(f.layers[1].hidden.cols(), 16);
  for (int l = 0; l < 2; ++l) {
    ASSERT_EQ(static_cast<int>(f.layers[l].weights.size()), c.heads);
    ASSERT_EQ(static_cast<int>(f.layers[l].scores.size()), c.heads);
    for (int h = 0; h < c.heads; ++h) {
      const attn::Mat& w = f.weights(l, h);
      const attn::Mat& s = f.scores(l, h);
      ASSERT_EQ(w.rows(), 9);
      ASSERT_EQ(w.cols(), 9);
      ASSERT_EQ(s.rows(), 9);
      ASSERT_EQ(s.cols(), 9);
      for (int i = 0; i < 9; ++i) {
        EXPECT_NEAR(w.row(i).sum(), 1.0f, 1e-5f);
        for (int j = 0; j <= i; ++j) EXPECT_TRUE(std::isfinite(s(i, j)));
        for (int j = i + 1; j < 9; ++j) {
          EXPECT_EQ(w(i, j), 0.0f);  // causal
          EXPECT_EQ(s(i, j), -std::numeric_limits<float>::infinity());
        }
      }
      // the weights are the softmax of the kept scores, to the last bit
      attn::Mat again;
      attn::ops::softmax_forward(s, again);
      EXPECT_EQ(again, w) << "layer " << l << " head " << h;
    }
  }
  const tr::Prediction p = m.predict(ids);
  ASSERT_EQ(static_cast<int>(p.probabilities.size()), c.classes);
  EXPECT_EQ(p.confidence, *std::max_element(p.probabilities.begin(), p.probabilities.end()));
  EXPECT_EQ(p.probabilities[static_cast<size_t>(p.label)], p.confidence);
  ASSERT_EQ(p.weights.size(), 2u);
  EXPECT_EQ(p.weights[1][3], f.weights(1, 3));
}

TEST(TrainModel, NamedTensorsMatchTheExpectedShapes) {
  tr::ModelConfig c = small(Scheme::Learned);
  c.layers = 2;
  c.d_ff = 24;
  tr::Model m(c);
  const auto tensors = m.params.named_tensors();
  const auto shapes = tr::Params::expected_shapes(c);
  ASSERT_EQ(tensors.size(), shapes.size());
  EXPECT_EQ(tensors.front().first, "token_embedding");
  EXPECT_EQ(tensors[1].first, "position_table");
  EXPECT_EQ(tensors[2].first, "layers.0.w_qkv");
  EXPECT_EQ(tensors.back().first, "classifier.b");
  long long count = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    EXPECT_EQ(tensors[i].first, shapes[i].first);
    EXPECT_EQ(tensors[i].second->rows(), shapes[i].second.first) << tensors[i].first;
    EXPECT_EQ(tensors[i].second->cols(), shapes[i].second.second) << tensors[i].first;
    count += tensors[i].second->size();
  }
  EXPECT_EQ(m.params.parameter_count(), count);
  // without learned positions or a feed-forward there are no such tensors
  const auto plain = tr::Model(small(Scheme::Rope)).params.named_tensors();
  for (const auto& [name, t] : plain) {
    EXPECT_EQ(name.find("position"), std::string::npos);
    EXPECT_EQ(name.find("w1"), std::string::npos);
  }
  // a loader's wrong shape is named
  tr::Params broken = m.params;
  broken.layers[1].w_o.resize(3, 3);
  EXPECT_NE(
      error_of([&] { tr::Model x(c, broken); }).find("'layers.1.w_o' has shape (3, 3); expected (32, 32)"),
      std::string::npos);
  // float -> double -> float is exact
  EXPECT_TRUE(bit_identical(m.params.cast<double>().cast<float>(), m.params));
}

TEST(TrainModel, TheSeedDecidesTheWeights) {
  tr::ModelConfig c = small(Scheme::Learned);
  EXPECT_TRUE(bit_identical(tr::Model(c).params, tr::Model(c).params));
  tr::ModelConfig other = c;
  other.seed = 2;
  EXPECT_FALSE(bit_identical(tr::Model(c).params, tr::Model(other).params));
}

// Without positions the model reads a bag of words: any shuffle gives bit-identical outputs.
TEST(TrainModel, WithoutPositionsAShuffleChangesNothingAtAll) {
  for (int layers : {1, 2}) {
    tr::ModelConfig c = small(Scheme::None);
    c.layers = layers;
    c.d_ff = layers == 2 ? 16 : 0;
    const tr::Model m(c);
    for (int t : {2, 7, 13, 40}) {
      const std::vector<int> ids = random_ids(t, 20, static_cast<std::uint64_t>(t));
      const tr::Forward f = m.forward(ids);
      std::vector<int> shuffled = ids;
      attn::Rng rng(99);
      for (int i = t - 1; i > 0; --i) {
        std::swap(shuffled[static_cast<size_t>(i)],
                  shuffled[rng.next_u64() % static_cast<std::uint64_t>(i + 1)]);
      }
      std::reverse(shuffled.begin(), shuffled.end());
      const tr::Forward g = m.forward(shuffled);
      EXPECT_EQ((f.probs - g.probs).cwiseAbs().maxCoeff(), 0.0f) << t << " tokens, " << layers << " layers";
      // with positions the same shuffle does change the output
      tr::ModelConfig s = c;
      s.positions = Scheme::Sinusoidal;
      const tr::Model ms(s);
      if (shuffled != ids) {
        EXPECT_GT((ms.forward(ids).probs - ms.forward(shuffled).probs).cwiseAbs().maxCoeff(), 0.0f);
      }
    }
  }
}

TEST(TrainAdam, FirstStepMovesEveryWeightByTheLearningRate) {
  tr::Model m(small(Scheme::Sinusoidal));
  tr::Params g = m.params.zeros_like();
  m.backward(m.forward({1, 2, 3, 4}), 2, g);
  const tr::Params before = m.params;
  tr::AdamConfig ac;
  ac.learning_rate = 0.01f;
  tr::Adam adam(ac, m.params);
  adam.step(m.params, g);
  EXPECT_EQ(adam.steps(), 1);
  const auto a = before.named_tensors();
  const auto b = m.params.named_tensors();
  const auto gs = g.named_tensors();
  int moved = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    for (Eigen::Index j = 0; j < a[i].second->size(); ++j) {
      const float grad = gs[i].second->data()[j];
      const float step = b[i].second->data()[j] - a[i].second->data()[j];
      if (std::abs(grad) > 1e-4f) {  // (eps = 1e-8 shortens the step of a tiny gradient)
        // m_hat / sqrt(v_hat) = sign(g) on the first step
        EXPECT_NEAR(step, grad > 0 ? -0.01f : 0.01f, 1e-5f) << a[i].first;
        ++moved;
      } else if (grad == 0.0f) {
        EXPECT_EQ(step, 0.0f) << a[i].first;
      }
    }
  }
  EXPECT_GT(moved, 100);
}

}  // namespace
