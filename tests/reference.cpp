// Independent float64 reference maths for the tests (plain loops), written from the lesson's formulas.
#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ref {

MatD to_double(const attn::Mat& m) {
  MatD out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = static_cast<double>(m(i, j));
  return out;
}

MatD to_double(const attn::RowVec& v) {
  MatD out(1, v.size());
  for (Eigen::Index j = 0; j < v.size(); ++j) out(0, j) = static_cast<double>(v(j));
  return out;
}

attn::Mat to_float(const MatD& m) {
  attn::Mat out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = static_cast<float>(m(i, j));
  return out;
}

std::uint64_t SplitMix64::next() {
  state += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

MatD random_matrix(int rows, int cols, std::uint64_t seed, double scale) {
  SplitMix64 g{seed ^ 0x5eed5eed12345678ULL};
  MatD out(rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const double u = static_cast<double>(g.next() >> 11) / 9007199254740992.0;  // [0, 1)
      out(i, j) = static_cast<double>(static_cast<float>((2.0 * u - 1.0) * scale));
    }
  }
  return out;
}

attn::MhaWeights random_mha_weights(int d, int heads, std::uint64_t seed) {
  attn::MhaWeights w;
  w.heads = heads;
  w.w_qkv = to_float(random_matrix(d, 3 * d, seed, 0.5));
  w.w_o = to_float(random_matrix(d, d, seed + 1, 0.5));
  return w;
}

std::vector<int> iota(int count) {
  std::vector<int> p(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) p[static_cast<size_t>(i)] = i;
  return p;
}

RandomPositions random_positions(SplitMix64& g, int max_width, int max_count) {
  RandomPositions r;
  r.width = 1 + static_cast<int>(g.next() % static_cast<std::uint64_t>(max_width));
  r.count = 1 + static_cast<int>(g.next() % static_cast<std::uint64_t>(max_count));
  for (int i = 0; i < r.count; ++i) r.positions.push_back(static_cast<int>(g.next() % 1024));
  return r;
}

MatD permute_rows(const MatD& m, const std::vector<int>& perm) {
  MatD out(static_cast<Eigen::Index>(perm.size()), m.cols());
  for (size_t i = 0; i < perm.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = m.row(perm[i]);
  return out;
}

double hand_speed(int hand, int d, double base) {
  return std::pow(base, -2.0 * static_cast<double>(hand) / static_cast<double>(d));
}

MatD sinusoidal(const std::vector<int>& positions, int d_model, double base) {
  MatD out(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r) {
    for (int c = 0; c < d_model; ++c) {
      const double angle = static_cast<double>(positions[r]) * hand_speed(c / 2, d_model, base);
      out(static_cast<Eigen::Index>(r), c) = (c % 2 == 0) ? std::sin(angle) : std::cos(angle);
    }
  }
  return out;
}

MatD rope_rotate(const MatD& m, const std::vector<int>& positions, double base) {
  const int d = static_cast<int>(m.cols());
  MatD out = m;
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (int i = 0; 2 * i + 1 < d; ++i) {
      const double theta = static_cast<double>(positions[static_cast<size_t>(r)]) * hand_speed(i, d, base);
      const double a = m(r, 2 * i), b = m(r, 2 * i + 1);
      out(r, 2 * i) = a * std::cos(theta) - b * std::sin(theta);
      out(r, 2 * i + 1) = a * std::sin(theta) + b * std::cos(theta);
    }
  }
  return out;
}

double alibi_slope(int head, int heads) {
  return std::pow(2.0, -8.0 * static_cast<double>(head + 1) / static_cast<double>(heads));
}

MatD alibi_bias(const std::vector<int>& positions, int head, int heads) {
  const auto n = static_cast<Eigen::Index>(positions.size());
  MatD out(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      out(i, j) =
          -alibi_slope(head, heads) * std::abs(static_cast<double>(positions[static_cast<size_t>(i)] -
                                                                   positions[static_cast<size_t>(j)]));
  return out;
}

int relative_bucket(int rel, bool causal) {
  // T5's _relative_position_bucket with num_buckets 32, max_distance 128; n is how far back the key is
  int buckets = 32, ret = 0;
  long n = -rel;
  if (!causal) {
    buckets /= 2;
    if (n < 0) ret += buckets;
    n = std::labs(n);
  } else {
    n = std::max(n, 0L);
  }
  const int max_exact = buckets / 2;
  if (n < max_exact) return ret + static_cast<int>(n);
  const double large = max_exact + std::log(static_cast<double>(n) / max_exact) /
                                       std::log(128.0 / max_exact) * (buckets - max_exact);
  return ret + std::min(static_cast<int>(std::floor(large)), buckets - 1);
}

MatD relative_bias(const std::vector<int>& positions, const MatD& row, bool causal) {
  const auto n = static_cast<Eigen::Index>(positions.size());
  MatD out(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      out(i, j) = row(
          0, relative_bucket(positions[static_cast<size_t>(j)] - positions[static_cast<size_t>(i)], causal));
  return out;
}

MatD matmul(const MatD& a, const MatD& b) {
  MatD out = MatD::Zero(a.rows(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index k = 0; k < a.cols(); ++k)
      for (Eigen::Index j = 0; j < b.cols(); ++j) out(i, j) += a(i, k) * b(k, j);
  return out;
}

MatD softmax_rows(const MatD& s) {
  MatD out(s.rows(), s.cols());
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    double mx = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < s.cols(); ++j) mx = std::max(mx, s(i, j));
    double sum = 0.0;
    for (Eigen::Index j = 0; j < s.cols(); ++j) {
      out(i, j) = std::isinf(s(i, j)) && s(i, j) < 0 ? 0.0 : std::exp(s(i, j) - mx);
      sum += out(i, j);
    }
    for (Eigen::Index j = 0; j < s.cols(); ++j) out(i, j) /= sum;
  }
  return out;
}

Head attend(const MatD& q, const MatD& k, const MatD& v, const attn::AttentionOptions& opt, int head,
            int heads) {
  const auto t = q.rows();
  const auto dk = q.cols();
  const std::vector<int> pos = opt.position_ids.empty() ? iota(static_cast<int>(t)) : opt.position_ids;
  MatD qq = q, kk = k;
  if (opt.positions == attn::Scheme::Rope) {
    qq = rope_rotate(q, pos, opt.rope_base);
    kk = rope_rotate(k, pos, opt.rope_base);
  }
  Head h;
  h.scores = MatD(t, t);
  for (Eigen::Index i = 0; i < t; ++i) {
    for (Eigen::Index j = 0; j < t; ++j) {
      double dot = 0.0;
      for (Eigen::Index c = 0; c < dk; ++c) dot += qq(i, c) * kk(j, c);
      h.scores(i, j) = dot / std::sqrt(static_cast<double>(dk));
    }
  }
  if (opt.positions == attn::Scheme::Alibi) h.scores += alibi_bias(pos, head, heads);
  if (opt.positions == attn::Scheme::Relative) {  // the seeded models' table: the scheme's untrained values
    const MatD table =
        to_double(attn::initial_distance_table(attn::scheme_def(attn::Scheme::Relative), heads));
    h.scores += relative_bias(pos, table.row(head), opt.causal);
  }
  if (opt.causal) {
    for (Eigen::Index i = 0; i < t; ++i)
      for (Eigen::Index j = i + 1; j < t; ++j) h.scores(i, j) = -std::numeric_limits<double>::infinity();
  }
  h.weights = softmax_rows(h.scores);
  h.output = matmul(h.weights, v);
  return h;
}

Mha multi_head(const MatD& x, const MatD& w_qkv, const MatD& w_o, int heads,
               const attn::AttentionOptions& opt) {
  const auto d = x.cols();
  const auto dk = d / heads;
  const MatD qkv = matmul(x, w_qkv);  // (T, 3D)
  Mha m;
  m.concat = MatD(x.rows(), d);
  for (int h = 0; h < heads; ++h) {
    const MatD q = qkv.block(0, h * dk, x.rows(), dk);
    const MatD k = qkv.block(0, d + h * dk, x.rows(), dk);
    const MatD v = qkv.block(0, 2 * d + h * dk, x.rows(), dk);
    m.heads.push_back(attend(q, k, v, opt, h, heads));
    m.concat.block(0, h * dk, x.rows(), dk) = m.heads.back().output;
  }
  m.output = matmul(m.concat, w_o);
  return m;
}

MatD layer_norm(const MatD& x, const MatD& gain, const MatD& bias, double eps) {
  MatD out(x.rows(), x.cols());
  const double n = static_cast<double>(x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double mean = 0.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) mean += x(i, j);
    mean /= n;
    double var = 0.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) var += (x(i, j) - mean) * (x(i, j) - mean);
    var /= n;
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      out(i, j) = (x(i, j) - mean) / std::sqrt(var + eps) * gain(0, j) + bias(0, j);
  }
  return out;
}

Encoder encoder_block(const MatD& x, const attn::EncoderWeights& w, const attn::AttentionOptions& opt) {
  Encoder e;
  e.mha = multi_head(x, to_double(w.attention.w_qkv), to_double(w.attention.w_o), w.attention.heads, opt);
  e.residual1 = x + e.mha.output;
  e.norm1 = layer_norm(e.residual1, to_double(w.ln1_gain), to_double(w.ln1_bias), 1e-5);
  e.hidden = matmul(e.norm1, to_double(w.w1));
  const MatD b1 = to_double(w.b1);
  for (Eigen::Index i = 0; i < e.hidden.rows(); ++i)
    for (Eigen::Index j = 0; j < e.hidden.cols(); ++j)
      e.hidden(i, j) = std::max(0.0, e.hidden(i, j) + b1(0, j));
  e.ffn = matmul(e.hidden, to_double(w.w2));
  const MatD b2 = to_double(w.b2);
  for (Eigen::Index i = 0; i < e.ffn.rows(); ++i)
    for (Eigen::Index j = 0; j < e.ffn.cols(); ++j) e.ffn(i, j) += b2(0, j);
  e.residual2 = e.norm1 + e.ffn;
  e.output = layer_norm(e.residual2, to_double(w.ln2_gain), to_double(w.ln2_bias), 1e-5);
  return e;
}

bool valid_utf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int len = 0;
    std::uint32_t cp = 0, min = 0;
    if (b0 < 0x80) {
      ++i;
      continue;
    } else if ((b0 & 0xE0) == 0xC0) {
      len = 2, cp = b0 & 0x1Fu, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3, cp = b0 & 0x0Fu, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4, cp = b0 & 0x07u, min = 0x10000;
    } else {
      return false;
    }
    if (i + static_cast<size_t>(len) > s.size()) return false;
    for (int k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += static_cast<size_t>(len);
  }
  return true;
}

}  // namespace ref
