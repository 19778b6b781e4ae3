// Independent float64 reference for the tests: plain loops over Eigen::MatrixXd, never calling the core.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/encoder.hpp"
#include "core/types.hpp"

namespace ref {

using MatD = Eigen::MatrixXd;

// ---- conversions and test inputs -------------------------------------------------------------------

MatD to_double(const attn::Mat& m);
MatD to_double(const attn::RowVec& v);  // (1, n)
attn::Mat to_float(const MatD& m);

// The standard SplitMix64 generator, written out here so the core's Rng can be checked against it.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next();
};

// (rows, cols) entries uniform in [-scale, scale], already rounded to float so the core and the
// reference see exactly the same numbers. Uses SplitMix64 bits, not the core's Rng.
MatD random_matrix(int rows, int cols, std::uint64_t seed, double scale = 1.0);
// Fused attention weights from random_matrix (entries up to 0.5): w_qkv (d, 3d) from seed, w_o (d, d) from
// seed + 1.
attn::MhaWeights random_mha_weights(int d, int heads, std::uint64_t seed);
// 0, 1, ..., count - 1
std::vector<int> iota(int count);
// A random width and list of positions drawn from g in this order: width in 1 .. max_width, count in
// 1 .. max_count, then `count` positions in 0 .. 1023 (each a draw modulo its range, plus 1 for the sizes).
struct RandomPositions {
  int width, count;
  std::vector<int> positions;
};
RandomPositions random_positions(SplitMix64& g, int max_width, int max_count);
// Rows of m reordered: result row i = m row perm[i].
MatD permute_rows(const MatD& m, const std::vector<int>& perm);

// ---- positions -------------------------------------------------------------------------------------

// Radians per token of hand i: base^(-2i / d).
double hand_speed(int hand, int d, double base);
// Sinusoidal table (P, d): dim 2i = sin(pos * speed_i), dim 2i+1 = cos(pos * speed_i).
MatD sinusoidal(const std::vector<int>& positions, int d_model, double base = 10000.0);
// RoPE: pair (2i, 2i+1) of row r turned by theta = positions[r] * speed_i:
// (a, b) -> (a cos - b sin, a sin + b cos). An odd last dimension is left as is.
MatD rope_rotate(const MatD& m, const std::vector<int>& positions, double base);
// ALiBi slope of head h of H: 2^(-8 (h + 1) / H).
double alibi_slope(int head, int heads);
// (T, T): -slope * |pos_i - pos_j|
MatD alibi_bias(const std::vector<int>& positions, int head, int heads);
// T5's relative position bucket (Raffel et al., 2020; 32 buckets, max distance 128) of rel = key - query:
// both ways, half the buckets per side (keys after the query in the upper half); causal, all for keys before.
int relative_bucket(int rel, bool causal);
// (T, T): row(0, relative_bucket(pos_j - pos_i, causal)), row (1, 32) one head's biases.
MatD relative_bias(const std::vector<int>& positions, const MatD& row, bool causal);

// ---- attention -------------------------------------------------------------------------------------

MatD matmul(const MatD& a, const MatD& b);
// Stable row softmax; -inf entries get exactly 0.
MatD softmax_rows(const MatD& s);

struct Head {
  MatD output, scores, weights;
};
// q, k, v (T, d_k): optional RoPE on q and k, scores q.k / sqrt(d_k) + ALiBi or the relative scheme's bias
// (its untrained table), causal -inf above the diagonal.
Head attend(const MatD& q, const MatD& k, const MatD& v, const attn::AttentionOptions& opt, int head,
            int heads);

struct Mha {
  MatD output, concat;
  std::vector<Head> heads;
};
// Fused layout of PyTorch's view(B, T, H, d_k).transpose(1, 2): head h reads columns h*d_k .. of the
// Q block (0..D-1), the K block (D..2D-1) and the V block (2D..3D-1) of x w_qkv.
Mha multi_head(const MatD& x, const MatD& w_qkv, const MatD& w_o, int heads,
               const attn::AttentionOptions& opt);

// ---- encoder ---------------------------------------------------------------------------------------

// Each row: (x - mean) / sqrt(population variance + eps) * gain + bias. gain, bias: (1, D).
MatD layer_norm(const MatD& x, const MatD& gain, const MatD& bias, double eps);

struct Encoder {
  Mha mha;
  MatD residual1, norm1, hidden, ffn, residual2, output;
};
// MHA -> add -> LayerNorm -> ReLU FFN -> add -> LayerNorm, reading the weights from the core's struct.
Encoder encoder_block(const MatD& x, const attn::EncoderWeights& w, const attn::AttentionOptions& opt);

// ---- text ------------------------------------------------------------------------------------------

// Strict RFC 3629 check: no overlongs, no surrogates, nothing above U+10FFFF, no truncation.
bool valid_utf8(const std::string& s);

}  // namespace ref
