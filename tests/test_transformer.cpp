// The one transformer forward: heads switched off, layers in steps and stacked layers, each against an
// independent float64 recomputation (tests/reference.cpp) or the same maths done another way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allclose.hpp"
#include "core/attention.hpp"
#include "core/encoder.hpp"
#include "core/model/transformer.hpp"
#include "core/train/model.hpp"
#include "fixtures.hpp"
#include "reference.hpp"

namespace {

// w_o with the rows head h writes through (h*d_k .. (h+1)*d_k - 1) set to zero, in float64.
ref::MatD without_head(const attn::Mat& w_o, int head, int d_k) {
  ref::MatD w = ref::to_double(w_o);
  w.middleRows(head * d_k, d_k).setZero();
  return w;
}

// The bare attention layer (no norms, no feed-forward) of d_model and heads.
attn::TransformerConfig bare_layer(int d_model, int heads) {
  attn::TransformerConfig c;
  c.d_model = d_model;
  c.heads = heads;
  c.norm = attn::Norm::None;
  return c;
}

}  // namespace

TEST(Transformer, ASwitchedOffHeadAddsNothing) {
  struct Case {
    int d, heads, tokens, off;
    attn::Scheme scheme;
    bool causal;
  };
  for (const Case& c :
       {Case{8, 2, 5, 0, attn::Scheme::None, false}, Case{12, 3, 7, 2, attn::Scheme::Rope, true},
        Case{16, 4, 6, 1, attn::Scheme::Alibi, false}}) {
    SCOPED_TRACE("D " + std::to_string(c.d) + ", head " + std::to_string(c.off) + " off, " +
                 attn::scheme_name(c.scheme));
    const attn::MhaWeights w = ref::random_mha_weights(c.d, c.heads, 40 + static_cast<std::uint64_t>(c.d));
    const ref::MatD x = ref::random_matrix(c.tokens, c.d, 7);
    attn::AttentionOptions opt;
    opt.positions = c.scheme;
    opt.causal = c.causal;
    std::vector<char> off(static_cast<size_t>(c.heads), 0);
    off[static_cast<size_t>(c.off)] = 1;
    const attn::MhaResult r = attn::multi_head(ref::to_float(x), w, opt, &off);
    // the reference never switches a head off: the head's rows of W_O are zero instead
    const int d_k = c.d / c.heads;
    const ref::Mha expected =
        ref::multi_head(x, ref::to_double(w.w_qkv), without_head(w.w_o, c.off, d_k), c.heads, opt);
    EXPECT_ALLCLOSE(r.output, expected.output);
    EXPECT_TRUE(r.head[static_cast<size_t>(c.off)].output.isZero(0.0f));
    // its weights are still computed and shown
    EXPECT_ALLCLOSE(r.head[static_cast<size_t>(c.off)].weights,
                    expected.heads[static_cast<size_t>(c.off)].weights);
  }
}

TEST(Transformer, StepsGiveTheWholeLayerToTheBit) {
  attn::TransformerConfig c;
  c.d_model = 12;
  c.heads = 3;
  c.d_ff = 20;
  c.positions = attn::Scheme::Rope;
  c.causal = true;
  const attn::EncoderWeights e = attn::EncoderWeights::random(12, 3, 20, 5);
  const attn::LayerWeightsT<float> w = e.layer();
  const attn::Mat x = ref::to_float(ref::random_matrix(11, 12, 3));
  attn::LayerCaptureT<float> whole, stepped;
  attn::layer_forward(c, w, x, whole);
  attn::LayerSteps<float> steps(c, w, x, stepped, nullptr, nullptr, nullptr, 4);
  EXPECT_EQ(steps.steps_total(), 2 * 3 + 3 + 1);  // 3 blocks of 4 rows, twice; 3 heads; the norms
  while (!steps.done()) steps.step();
  EXPECT_TRUE(stepped.output == whole.output);
  EXPECT_TRUE(stepped.weights[2] == whole.weights[2]);
}

TEST(Transformer, TwoLayersAreTheEncoderBlockTwice) {
  const std::vector<attn::EncoderWeights> blocks = {attn::EncoderWeights::random(8, 2, 16, 11),
                                                    attn::EncoderWeights::random(8, 2, 16, 12)};
  attn::TransformerConfig c;
  c.d_model = 8;
  c.heads = 2;
  c.layers = 2;
  c.d_ff = 16;
  c.positions = attn::Scheme::Alibi;
  std::vector<attn::LayerWeightsT<float>> layers;
  for (const attn::EncoderWeights& e : blocks) layers.push_back(e.layer());
  const ref::MatD x = ref::random_matrix(6, 8, 21);
  std::vector<attn::LayerCaptureT<float>> capture;
  attn::transformer_forward(c, layers, ref::to_float(x), capture);
  attn::AttentionOptions opt;
  opt.positions = c.positions;
  const ref::Encoder first = ref::encoder_block(x, blocks[0], opt);
  const ref::Encoder second = ref::encoder_block(first.output, blocks[1], opt);
  EXPECT_ALLCLOSE(capture[0].output, first.output);
  EXPECT_ALLCLOSE(capture[1].output, second.output);
  EXPECT_ALLCLOSE(capture[1].weights[1], second.mha.heads[1].weights);
}

TEST(Transformer, TheRouterWithAHeadOffIsTheRouterWithoutItsRows) {
  namespace tr = attn::train;
  tr::ModelConfig c = fx::router_config(16, 4, 2, 8, attn::Scheme::Rope);
  c.vocab = 10, c.classes = 2;
  const tr::Model m(c);
  attn::HeadSwitch off;
  off.off = {{}, {0, 0, 1, 0}};  // layer 1, head 2
  const std::vector<int> ids = {1, 4, 2, 9, 3};
  tr::Forward f;
  m.forward(ids, f, &off);
  tr::Model cut = m;
  cut.params.layers[1].w_o.middleRows(2 * 4, 4).setZero();
  const tr::Forward expected = cut.forward(ids);
  EXPECT_ALLCLOSE(f.probs, ref::to_double(expected.probs));
  EXPECT_ALLCLOSE(f.layers[1].output, ref::to_double(expected.layers[1].output));
  // no gradient reaches the switched-off head's queries, keys and values
  tr::Params g = m.params.zeros_like();
  m.backward(f, 1, g);
  const int d = 16, d_k = 4;
  for (int block = 0; block < 3; ++block) {
    EXPECT_TRUE(g.layers[1].w_qkv.middleCols(block * d + 2 * d_k, d_k).isZero(0.0f)) << "block " << block;
    EXPECT_FALSE(g.layers[1].w_qkv.middleCols(block * d + 1 * d_k, d_k).isZero(0.0f)) << "block " << block;
  }
}

TEST(Transformer, GroupedQueryHeadsShareTheirGroupsKeysAndValues) {
  struct Case {
    int d, heads, kv_heads, tokens;
    attn::Scheme scheme;
    bool causal;
  };
  for (const Case& c :
       {Case{16, 4, 2, 6, attn::Scheme::None, false}, Case{16, 4, 1, 7, attn::Scheme::Rope, true},
        Case{12, 6, 3, 5, attn::Scheme::Alibi, false}, Case{8, 2, 2, 4, attn::Scheme::Rope, false}}) {
    SCOPED_TRACE(std::to_string(c.heads) + " heads, " + std::to_string(c.kv_heads) + " key/value heads, " +
                 attn::scheme_name(c.scheme));
    const int d_k = c.d / c.heads, group = c.heads / c.kv_heads, kv_cols = c.kv_heads * d_k;
    attn::TransformerConfig config;
    config.d_model = c.d;
    config.heads = c.heads;
    config.kv_heads = c.kv_heads;
    config.norm = attn::Norm::None;
    config.positions = c.scheme;
    config.causal = c.causal;
    attn::LayerWeightsT<float> w;
    w.w_qkv = ref::to_float(ref::random_matrix(c.d, c.d + 2 * kv_cols, 21, 0.5));  // (D, D + 2 G d_k)
    w.w_o = ref::to_float(ref::random_matrix(c.d, c.d, 22, 0.5));
    const ref::MatD x = ref::random_matrix(c.tokens, c.d, 23);
    attn::LayerCaptureT<float> out;
    attn::layer_forward(config, w, ref::to_float(x), out);
    // the reference is plain multi-head attention whose heads each get a copy of their group's key and
    // value columns: (D, 3D)
    const ref::MatD grouped = ref::to_double(w.w_qkv);
    ref::MatD copied(c.d, 3 * c.d);
    copied.leftCols(c.d) = grouped.leftCols(c.d);
    for (int h = 0; h < c.heads; ++h) {
      const int g = h / group;
      copied.middleCols(c.d + h * d_k, d_k) = grouped.middleCols(c.d + g * d_k, d_k);
      copied.middleCols(2 * c.d + h * d_k, d_k) = grouped.middleCols(c.d + kv_cols + g * d_k, d_k);
    }
    attn::AttentionOptions opt;
    opt.positions = c.scheme;
    opt.causal = c.causal;
    const ref::Mha expected = ref::multi_head(x, copied, ref::to_double(w.w_o), c.heads, opt);
    EXPECT_ALLCLOSE(out.attention, expected.output);
    for (int h = 0; h < c.heads; ++h) {
      EXPECT_ALLCLOSE(out.weights[static_cast<size_t>(h)], expected.heads[static_cast<size_t>(h)].weights);
    }
    if (c.kv_heads == c.heads) {  // one key/value head per head is multi-head attention, to the bit
      config.kv_heads = 0;
      attn::LayerCaptureT<float> plain;
      attn::layer_forward(config, w, ref::to_float(x), plain);
      EXPECT_TRUE(plain.attention == out.attention);
    }
  }
}

// Spans of the heads, each run on its own (as the page's workers run them), give each head's weights and
// concat slice to the bit of the whole layer, also where a span starts inside a key/value group; W_o of
// the joined concat gives the layer's output to the bit.
TEST(Transformer, SpansOfTheHeadsGiveTheWholeLayerToTheBit) {
  struct Case {
    int heads, kv_heads;
    attn::Scheme scheme;
    bool causal;
    std::vector<attn::HeadSpan> spans;
  };
  const int d = 24, tokens = 11;
  for (const Case& c : {Case{6, 0, attn::Scheme::None, false, {{0, 3}, {3, -1}}},
                        Case{6, 0, attn::Scheme::Alibi, true, {{0, 1}, {1, 4}, {4, 6}}},
                        Case{6, 3, attn::Scheme::Rope, true, {{0, 3}, {3, 5}, {5, -1}}},
                        Case{4, 1, attn::Scheme::Rope, false, {{1, 2}, {0, 1}, {2, 4}}}}) {
    SCOPED_TRACE(std::to_string(c.heads) + " heads, " + std::to_string(c.kv_heads) + " key/value heads, " +
                 attn::scheme_name(c.scheme));
    attn::TransformerConfig config = bare_layer(d, c.heads);
    config.kv_heads = c.kv_heads;
    config.positions = c.scheme;
    config.causal = c.causal;
    const int d_k = d / c.heads, kv_cols = config.kv_groups() * d_k;
    attn::LayerWeightsT<float> w;
    w.w_qkv = ref::to_float(ref::random_matrix(d, d + 2 * kv_cols, 31, 0.5));  // (D, D + 2 G d_k)
    w.w_o = ref::to_float(ref::random_matrix(d, d, 32, 0.5));
    const attn::MatT<float> x = ref::to_float(ref::random_matrix(tokens, d, 33));
    attn::LayerCaptureT<float> whole;
    attn::layer_forward(config, w, x, whole);
    attn::MatT<float> joined = attn::MatT<float>::Zero(tokens, d);  // (T, D)
    for (const attn::HeadSpan& span : c.spans) {
      attn::LayerCaptureT<float> part;
      attn::LayerSteps<float> steps(config, w, x, part, nullptr, nullptr, nullptr, 4, span);
      while (!steps.done()) steps.step();
      EXPECT_EQ(steps.steps_total(), 3 + span.end_of(c.heads) - span.begin);  // 3 row blocks, the heads
      EXPECT_EQ(part.attention.size(), 0) << "no W_o in a span";
      for (int h = 0; h < c.heads; ++h) {
        const auto hs = static_cast<size_t>(h);
        const bool mine = h >= span.begin && h < span.end_of(c.heads);
        EXPECT_EQ(part.weights[hs].size() > 0, mine) << "head " << h;
        if (!mine) {
          EXPECT_TRUE(part.concat.middleCols(h * d_k, d_k).isZero(0.0f)) << "head " << h;
          continue;
        }
        EXPECT_TRUE(part.weights[hs] == whole.weights[hs]) << "head " << h;
        EXPECT_TRUE(part.scores[hs] == whole.scores[hs]) << "head " << h;
        joined.middleCols(h * d_k, d_k) = part.concat.middleCols(h * d_k, d_k);
      }
    }
    EXPECT_TRUE(joined == whole.concat);
    attn::MatT<float> output;
    attn::ops::matmul_rows<float>(joined, w.w_o, output);
    EXPECT_TRUE(output == whole.attention);
  }
}

TEST(Transformer, ASpanMustBeSomeOfTheHeadsOfABareLayer) {
  attn::TransformerConfig config = bare_layer(8, 2);
  attn::LayerWeightsT<float> w;
  w.w_qkv = attn::MatT<float>::Zero(8, 24);
  w.w_o = attn::MatT<float>::Zero(8, 8);
  const attn::MatT<float> x = attn::MatT<float>::Ones(3, 8);
  attn::LayerCaptureT<float> out;
  for (const attn::HeadSpan span : {attn::HeadSpan{1, 1}, attn::HeadSpan{0, 3}, attn::HeadSpan{-1, 1}}) {
    EXPECT_TRUE(fx::throws_input_error_saying(
        [&] { attn::LayerSteps<float> s(config, w, x, out, nullptr, nullptr, nullptr, 0, span); },
        "are not a span"));
  }
  config.norm = attn::Norm::PostLayerNorm;
  EXPECT_TRUE(fx::throws_input_error_saying(
      [&] {
        attn::LayerSteps<float> s(config, w, x, out, nullptr, nullptr, nullptr, 0, {0, 1});
      },
      "only the bare attention layer"));
}

TEST(Transformer, KeyValueHeadsMustDivideTheHeadsAndFitTheWeights) {
  attn::TransformerConfig config = bare_layer(8, 4);
  attn::LayerWeightsT<float> w;
  w.w_o = ref::to_float(ref::random_matrix(8, 8, 2));
  const attn::Mat x = ref::to_float(ref::random_matrix(3, 8, 3));
  attn::LayerCaptureT<float> out;
  config.kv_heads = 3;
  w.w_qkv = ref::to_float(ref::random_matrix(8, 8 + 2 * 3 * 2, 1));
  EXPECT_TRUE(
      fx::throws_input_error_saying([&] { attn::layer_forward(config, w, x, out); }, "do not divide"));
  config.kv_heads = -2;
  EXPECT_TRUE(
      fx::throws_input_error_saying([&] { attn::layer_forward(config, w, x, out); }, "do not divide"));
  config.kv_heads = 2;  // needs 8 + 2 * 2 * 2 = 16 columns
  EXPECT_TRUE(fx::throws_input_error_saying([&] { attn::layer_forward(config, w, x, out); }, "need 16"));
}

TEST(Transformer, AKeyValueCacheContinuesTheForwardToTheBit) {
  // every layer fed the first P tokens, then the rest in two more calls, against one forward over all T
  struct Case {
    attn::Norm norm;
    attn::Activation activation;
    attn::Scheme scheme;
    int kv_heads;
    bool biases;
  };
  const int d = 12, heads = 4, d_ff = 10, layers = 2, tokens = 9, d_k = d / heads;
  for (const Case& c :
       {Case{attn::Norm::PreRMSNorm, attn::Activation::SwiGLU, attn::Scheme::Rope, 2, false},
        Case{attn::Norm::PreLayerNorm, attn::Activation::Gelu, attn::Scheme::None, 0, true},
        Case{attn::Norm::PreLayerNorm, attn::Activation::Relu, attn::Scheme::Alibi, 0, false},
        Case{attn::Norm::PostLayerNorm, attn::Activation::Relu, attn::Scheme::Relative, 1, true}}) {
    SCOPED_TRACE(attn::scheme_name(c.scheme) + ", " + std::to_string(c.kv_heads) + " key/value heads");
    attn::TransformerConfig config;
    config.d_model = d, config.heads = heads, config.kv_heads = c.kv_heads, config.layers = layers;
    config.d_ff = d_ff, config.norm = c.norm, config.activation = c.activation, config.positions = c.scheme;
    config.causal = true;
    const int qkv = d + 2 * config.kv_groups() * d_k;
    std::vector<attn::LayerWeightsT<float>> w(layers);
    std::uint64_t seed = 50;
    const auto random = [&seed](int r, int k, double scale) {
      return ref::to_float(ref::random_matrix(r, k, ++seed, scale));
    };
    for (auto& L : w) {
      L.w_qkv = random(d, qkv, 0.5), L.w_o = random(d, d, 0.5);
      L.ln1_gain = random(1, d, 0.2).array() + 1.0f, L.ln2_gain = random(1, d, 0.2).array() + 1.0f;
      if (c.norm != attn::Norm::PreRMSNorm) L.ln1_bias = random(1, d, 0.1), L.ln2_bias = random(1, d, 0.1);
      L.w1 = random(d, d_ff, 0.5), L.w2 = random(d_ff, d, 0.5);
      if (c.activation == attn::Activation::SwiGLU) L.w3 = random(d, d_ff, 0.5);
      if (c.biases) L.b_qkv = random(1, qkv, 0.1), L.b_o = random(1, d, 0.1), L.b1 = random(1, d_ff, 0.1);
    }
    const attn::Mat x = random(tokens, d, 1.0);
    std::vector<attn::LayerCapture> whole, cached;
    attn::transformer_forward(config, w, x, whole);
    int done = 0;
    for (const int n : {4, 1, 4}) {  // positions 0-3, then 4, then 5-8
      attn::transformer_forward(config, w, attn::Mat(x.middleRows(done, n)), cached, nullptr, nullptr,
                                done > 0);
      for (size_t l = 0; l < whole.size(); ++l) {
        EXPECT_EQ(cached[l].qkv.rows(), done + n) << "the cache grows by the new rows";
        EXPECT_TRUE(cached[l].output == whole[l].output.middleRows(done, n))
            << "layer " << l << " from " << done;
        for (size_t h = 0; h < static_cast<size_t>(heads); ++h) {
          const attn::Mat expected = whole[l].weights[h].block(done, 0, n, done + n);
          EXPECT_TRUE(cached[l].weights[h] == expected)
              << "layer " << l << " head " << h << " from " << done << ": largest difference "
              << (cached[l].weights[h] - expected).cwiseAbs().maxCoeff();
        }
      }
      done += n;
    }
    EXPECT_TRUE(cached[0].qkv == whole[0].qkv);
    // a cache from another width of W_qkv is refused
    attn::LayerCaptureT<float> other;
    other.qkv = attn::Mat::Zero(2, qkv + 1);
    EXPECT_TRUE(fx::throws_input_error_saying(
        [&] { attn::layer_forward(config, w[0], x, other, nullptr, nullptr, nullptr, nullptr, true); },
        "key/value cache"));
  }
}
