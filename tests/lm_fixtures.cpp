// The Real model scene's test checkpoint, tokenizer and answer comparison (lm_fixtures.hpp).
#include "lm_fixtures.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "core/rng.hpp"

namespace lm_fixtures {
namespace {

void put_i32(std::string& out, std::int32_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_f32(std::string& out, float v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_random(std::string& out, attn::Rng& rng, long long n, float scale) {
  for (long long i = 0; i < n; ++i) put_f32(out, scale * rng.normal());
}

}  // namespace

// A legacy llama2.c checkpoint (run.c's header and weight order) with seeded random weights, a shared
// output layer, and a vocabulary of the tokenizer's pieces.
std::string llama2c_checkpoint(int vocab) {
  attn::Rng rng(3);
  std::string out;
  for (int v : {kDim, kHidden, kLayers, kHeads, kKvHeads, vocab, kSeq}) put_i32(out, v);
  const int kv = kDim / kHeads * kKvHeads, head = kDim / kHeads;
  put_random(out, rng, static_cast<long long>(vocab) * kDim, 0.5f);
  for (int i = 0; i < kLayers * kDim; ++i) put_f32(out, 1.0f + 0.1f * rng.normal());  // rms_att
  put_random(out, rng, kLayers * kDim * kDim, 0.4f);                                  // wq
  put_random(out, rng, kLayers * kDim * kv, 0.4f);                                    // wk
  put_random(out, rng, kLayers * kDim * kv, 0.4f);                                    // wv
  put_random(out, rng, kLayers * kDim * kDim, 0.3f);                                  // wo
  for (int i = 0; i < kLayers * kDim; ++i) put_f32(out, 1.0f + 0.1f * rng.normal());  // rms_ffn
  put_random(out, rng, 3LL * kLayers * kDim * kHidden, 0.3f);                         // w1, w2, w3
  for (int i = 0; i < kDim; ++i) put_f32(out, 1.0f);                                  // rms_final
  put_random(out, rng, 2LL * kSeq * head / 2, 0.0f);  // run.c's unused freq_cis tables
  return out;
}

// tokenizer.bin: the 256 byte pieces' ids 3.., a few words, scores favouring longer pieces.
std::vector<std::string> pieces() {
  std::vector<std::string> p = {"<unk>", "<s>", "</s>"};
  for (int b = 0; b < 256; ++b) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "<0x%02X>", b);
    p.push_back(hex);
  }
  for (const char* w : {" ",    "e",  "t",  "a",    "o",  "n",   "c",  "k",    "r",  "h",    "he", " t",
                        " the", " c", "ca", " cat", " a", " on", "at", " mat", "ma", " sat", "sa"})
    p.push_back(w);
  for (char c = 'a'; c <= 'z'; ++c) p.push_back(std::string(1, c) + "_");
  return p;
}
std::string tokenizer_bin() {
  std::string out;
  const std::vector<std::string> p = pieces();
  put_i32(out, 8);
  for (size_t i = 0; i < p.size(); ++i) {
    put_f32(out, static_cast<float>(p[i].size()) - 0.001f * static_cast<float>(i));
    put_i32(out, static_cast<std::int32_t>(p[i].size()));
    out += p[i];
  }
  return out;
}

std::vector<NamedFile> files() {
  const int vocab = static_cast<int>(pieces().size());
  return {{"stories-test.bin", llama2c_checkpoint(vocab)}, {"tokenizer.bin", tokenizer_bin()}};
}

app::LmRequest ask(const std::string& text) {
  app::LmRequest q;
  q.serial = 1;
  q.model = 1;
  q.text = text;
  return q;
}

void expect_same(const app::LmAnswer& a, const app::LmAnswer& b) {
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.ids, b.ids);
  EXPECT_EQ(a.pieces, b.pieces);
  EXPECT_EQ(a.text, b.text);
  ASSERT_EQ(a.next.size(), b.next.size());
  for (size_t i = 0; i < a.next.size(); ++i) {
    EXPECT_EQ(a.next[i].id, b.next[i].id);
    EXPECT_EQ(a.next[i].p, b.next[i].p);
    EXPECT_EQ(a.next[i].piece, b.next[i].piece);
  }
  ASSERT_EQ(a.grids.size(), b.grids.size());
  for (size_t i = 0; i < a.grids.size(); ++i) EXPECT_TRUE(a.grids[i] == b.grids[i]) << "grid " << i;
  ASSERT_EQ(a.roles.size(), b.roles.size());
  EXPECT_EQ(a.gap_scores, b.gap_scores);
  EXPECT_EQ(a.gap_key, b.gap_key);
}

}  // namespace lm_fixtures
