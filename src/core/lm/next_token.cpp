// The next token from a language model's logits: distribution, top k, choice, generation.
#include "core/lm/next_token.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::lm {

std::vector<double> next_distribution(const Mat& logits, int row, double temperature) {
  const auto v = static_cast<size_t>(logits.cols());
  std::vector<double> p(v);
  double top = -INFINITY;
  for (Eigen::Index i = 0; i < logits.cols(); ++i) top = std::max(top, static_cast<double>(logits(row, i)));
  double sum = 0;
  for (size_t i = 0; i < v; ++i) {
    p[i] = std::exp((static_cast<double>(logits(row, static_cast<Eigen::Index>(i))) - top) / temperature);
    sum += p[i];
  }
  for (double& x : p) x /= sum;
  return p;
}

std::vector<Candidate> top_next(const Mat& logits, int row, int k) {
  const std::vector<double> p = next_distribution(logits, row, 1.0);
  std::vector<int> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  const size_t n = std::min(static_cast<size_t>(std::max(k, 0)), order.size());
  const auto at = [&](int i) { return p[static_cast<size_t>(i)]; };
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](int a, int b) { return at(a) > at(b) || (at(a) == at(b) && a < b); });
  std::vector<Candidate> out;
  for (size_t i = 0; i < n; ++i) out.push_back({order[i], at(order[i])});
  return out;
}

int choose_next(const Mat& logits, int row, double temperature, Rng& rng) {
  int next = 0;
  if (temperature <= 0) {
    logits.row(row).maxCoeff(&next);
    return next;
  }
  const std::vector<double> p = next_distribution(logits, row, temperature);
  const double u = rng.uniform();
  double acc = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    acc += p[i];
    if (u < acc) return static_cast<int>(i);
  }
  return static_cast<int>(p.size()) - 1;
}

LmForward generate(const LmModel& model, std::vector<int>& ids, int n, double temperature, Rng& rng,
                   const HeadSwitch* off) {
  LmForward f = lm_forward(model, ids, off, true);
  generate_more(model, ids, n, temperature, rng, off, f);
  return f;
}

void generate_more(const LmModel& model, std::vector<int>& ids, int n, double temperature, Rng& rng,
                   const HeadSwitch* off, LmForward& f) {
  if (n <= 0) return;
  // every head's weights over all positions: (T + n, T + n), the steps' rows added as they come
  const auto t = static_cast<Eigen::Index>(ids.size()), end = t + n;
  std::vector<std::vector<Mat>> all(f.layers.size());
  // row i of grid `to` (end, end) = the i + 1 entries of `row` (row-major)
  const auto put_row = [](const float* row, Eigen::Index i, Mat& to) { std::copy_n(row, i + 1, &to(i, 0)); };
  for (size_t l = 0; l < f.layers.size(); ++l) {
    for (const Mat& w : f.layers[l].weights) {
      all[l].push_back(Mat::Zero(end, end));
      for (Eigen::Index i = 0; i < t; ++i) put_row(&w(i, 0), i, all[l].back());
    }
  }
  for (Eigen::Index i = t; i < end; ++i) {
    ids.push_back(choose_next(f.logits, static_cast<int>(f.logits.rows()) - 1, temperature, rng));
    lm_extend(model, {ids.back()}, f, off);
    for (size_t l = 0; l < f.layers.size(); ++l) {
      for (size_t h = 0; h < all[l].size(); ++h) put_row(f.layers[l].weights[h].data(), i, all[l][h]);
    }
  }
  for (size_t l = 0; l < f.layers.size(); ++l) f.layers[l].weights = std::move(all[l]);
}

}  // namespace attn::lm
