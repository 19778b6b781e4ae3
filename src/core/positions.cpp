// Positional schemes: tables that are added to embeddings, RoPE rotations and ALiBi biases.
#include "positions.hpp"

#include <cmath>

#include "error.hpp"
#include "ops.hpp"
#include "rng.hpp"

namespace attn {
namespace {

constexpr int kMaxPosition = 1000000;

struct SchemeName {
  Scheme scheme;
  const char* name;
};
constexpr SchemeName kSchemeNames[] = {{Scheme::None, "none"},        {Scheme::Sinusoidal, "sinusoidal"},
                                       {Scheme::Learned, "learned"},  {Scheme::Rope, "rope"},
                                       {Scheme::Alibi, "alibi"},      {Scheme::Raw, "raw"},
                                       {Scheme::Fraction, "fraction"}};

void require_base(double base) {
  if (!std::isfinite(base) || base <= 1.0 || base > 1e12) {
    throw InputError("the base is " + std::to_string(base) + "; allowed: a number above 1 (default 10000)");
  }
}

// Every entry of row r is value(positions[r]): the two naive schemes. (P, d_model)
template <typename F>
Mat constant_rows(const std::vector<int>& positions, int d_model, F value) {
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_positions(positions);
  Mat t(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r)
    t.row(static_cast<Eigen::Index>(r)).setConstant(value(positions[r]));
  return t;
}

}  // namespace

Scheme parse_scheme(const std::string& name, const std::vector<Scheme>& allowed) {
  for (Scheme s : allowed) {
    if (scheme_name(s) == name) return s;
  }
  throw InputError("unknown position scheme '" + name + "'; allowed: " + scheme_list(allowed));
}

std::string scheme_name(Scheme s) {
  for (const auto& n : kSchemeNames) {
    if (n.scheme == s) return n.name;
  }
  return "none";
}

std::string scheme_list(const std::vector<Scheme>& schemes) {
  std::string out;
  for (Scheme s : schemes) out += (out.empty() ? "" : "|") + scheme_name(s);
  return out;
}

void require_positions(const std::vector<int>& positions) {
  for (int p : positions) require_range(p, 0, kMaxPosition, "a position");
}

double rotation_speed(double base, int pair, int width) {
  return std::exp(-std::log(base) * (2.0 * pair) / static_cast<double>(width));
}

std::vector<int> range_positions(int count) {
  require_range(count, 0, kMaxPosition, "the number of positions");
  std::vector<int> p(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) p[static_cast<size_t>(i)] = i;
  return p;
}

Sinusoidal::Sinusoidal(int d, double b) : d_model(d), base(b) {
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_base(base);
}

std::vector<double> Sinusoidal::speeds() const {
  std::vector<double> s(static_cast<size_t>(hands()));
  for (int i = 0; i < hands(); ++i) s[static_cast<size_t>(i)] = rotation_speed(base, i, d_model);
  return s;
}

std::vector<double> Sinusoidal::wavelengths() const {
  std::vector<double> w = speeds();
  for (double& x : w) x = 2.0 * M_PI / x;
  return w;
}

Mat Sinusoidal::table(const std::vector<int>& positions) const {
  require_positions(positions);
  const std::vector<double> speed = speeds();
  Mat t(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r) {
    for (int dim = 0; dim < d_model; ++dim) {
      const double angle = positions[r] * speed[static_cast<size_t>(dim / 2)];
      // even dimension: sine; odd: cosine (an unpaired last dimension is even, so a sine)
      t(static_cast<Eigen::Index>(r), dim) =
          static_cast<float>(dim % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return t;
}

Learned::Learned(int s, int d, std::uint64_t seed) : slots(s), d_model(d) {
  require_range(slots, 1, 65536, "the number of learned slots");
  require_range(d_model, 1, kMaxDModel, "d_model");
  require_weight_count(static_cast<long long>(slots) * d_model, "a learned table (slots x d_model)");
  Rng rng(mix_seed(seed, 0x1ea4edULL));
  weights = rng.normal_matrix(slots, d_model, 0.1f);
}

Mat Learned::table(const std::vector<int>& positions) const {
  require_positions(positions);
  Mat t(static_cast<Eigen::Index>(positions.size()), d_model);
  for (size_t r = 0; r < positions.size(); ++r) {
    if (positions[r] >= slots) {
      throw_input_error({"position ", positions[r], " is past the end of the learned table: it has ", slots,
                         " slots (positions 0 to ", slots - 1,
                         "); a learned table cannot stretch to longer text"});
    }
    t.row(static_cast<Eigen::Index>(r)) = weights.row(positions[r]);
  }
  return t;
}

Mat raw_position_table(const std::vector<int>& positions, int d_model) {
  return constant_rows(positions, d_model, [](int p) { return static_cast<float>(p); });
}

Mat fraction_position_table(const std::vector<int>& positions, int length, int d_model) {
  require_range(length, 1, kMaxPosition, "the text length");
  for (int p : positions) {
    if (p >= length) {
      throw_input_error(
          {"position ", p, " is not inside a text of length ", length, "; allowed: 0 to ", length - 1});
    }
  }
  return constant_rows(positions, d_model,
                       [length](int p) { return static_cast<float>(static_cast<double>(p) / length); });
}

Mat Rope::rotate(const Mat& m, const std::vector<int>& positions) const {
  require_base(base);
  require_positions(positions);
  if (static_cast<Eigen::Index>(positions.size()) != m.rows()) {
    throw_input_error({"RoPE got ", positions.size(), " positions for ", m.rows(), " rows"});
  }
  const int width = static_cast<int>(m.cols());
  Mat out = m;
  ops::rope_rotate(out, 0, width, ops::RopeTable::for_positions(width, positions, base), false);
  return out;
}

float Alibi::slope(int head) const {
  require_range(heads, 1, kMaxDModel, "the number of heads");
  require_range(head, 0, heads - 1, "the head index");
  return static_cast<float>(std::exp2(-8.0 * (head + 1) / heads));
}

Mat Alibi::bias(const std::vector<int>& positions, int head) const {
  require_positions(positions);
  const auto n = static_cast<Eigen::Index>(positions.size());
  Mat b = Mat::Zero(n, n);
  ops::add_alibi_bias(b, positions, slope(head));
  return b;
}

}  // namespace attn
