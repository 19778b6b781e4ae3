// Per-head role scores, the naming rule, mean head outputs and the "L.H" list of switched-off heads.
#include "core/train/head_roles.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"

namespace attn::train {
namespace {

// Positions of every occurrence of the token sequence `needle` in `tokens`.
std::vector<int> occurrences(const std::vector<std::string>& tokens, const std::vector<std::string>& needle) {
  std::vector<int> at;
  if (needle.empty() || needle.size() > tokens.size()) return at;
  for (size_t i = 0; i + needle.size() <= tokens.size(); ++i) {
    if (std::equal(needle.begin(), needle.end(), tokens.begin() + static_cast<std::ptrdiff_t>(i))) {
      for (size_t k = 0; k < needle.size(); ++k) at.push_back(static_cast<int>(i + k));
    }
  }
  return at;
}

// Mean over the query rows of w (T, T) of the summed weight on the key positions `keys`.
double mean_on(const Mat& w, const std::vector<int>& keys) {
  double sum = 0;
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    for (int j : keys) sum += w(i, j);
  }
  return sum / static_cast<double>(w.rows());
}

}  // namespace

double previous_token_weight(const Mat& w) {
  const auto t = w.rows();
  double prev = 0;
  for (Eigen::Index i = 1; i < t; ++i) prev += w(i, i - 1);
  return t > 1 ? prev / static_cast<double>(t - 1) : 0.0;
}

std::string role_of(const std::vector<RoleScore>& scores) {
  if (scores.empty()) return "mixed";
  std::vector<double> v;
  for (const auto& s : scores) v.push_back(s.value);
  const auto top = std::max_element(v.begin(), v.end());
  double next = 0;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it != top) next = std::max(next, *it);
  }
  if (*top >= kRoleFloor && *top >= kRoleMargin * next)
    return scores[static_cast<size_t>(top - v.begin())].name;
  return "mixed";
}

namespace {
constexpr const char* kRouterScores[] = {"refunded_item", "excluded_item", "not", "previous_token",
                                         "first_token"};
constexpr int kRouterScoreCount = 5;
}  // namespace

RouterRoleTally::RouterRoleTally(int layers, int heads, std::vector<std::string> items)
    : layers_(layers), heads_(heads), sum_(static_cast<size_t>(layers * heads * kRouterScoreCount), 0.0) {
  for (const auto& item : items) item_tokens_.push_back(Vocab::tokens(item));
}

void RouterRoleTally::add(const Forward& f, const std::vector<std::string>& tokens, const Example& e) {
  const int items = static_cast<int>(item_tokens_.size());
  require_range(e.label, 0, items - 1, "the email's label");
  require_range(e.keep, 0, items - 1, "the email's kept item");
  if (static_cast<int>(f.layers.size()) != layers_ || f.tokens() != static_cast<int>(tokens.size())) {
    throw InputError("the forward pass does not belong to this email and model");
  }
  const std::vector<int> refunded = occurrences(tokens, item_tokens_[static_cast<size_t>(e.label)]);
  const std::vector<int> kept = occurrences(tokens, item_tokens_[static_cast<size_t>(e.keep)]);
  const std::vector<int> nots = occurrences(tokens, {"not"});
  ++counted_;
  with_not_ += nots.empty() ? 0 : 1;
  for (int l = 0; l < layers_; ++l) {
    for (int h = 0; h < heads_; ++h) {
      const Mat& w = f.weights(l, h);
      double* s = &sum_[static_cast<size_t>((l * heads_ + h) * kRouterScoreCount)];
      s[0] += mean_on(w, refunded);
      s[1] += mean_on(w, kept);
      if (!nots.empty()) s[2] += mean_on(w, nots);
      s[3] += previous_token_weight(w);
      s[4] += mean_on(w, {0});
    }
  }
}

std::vector<HeadRole> RouterRoleTally::roles() const {
  std::vector<HeadRole> roles;
  for (int l = 0; l < layers_; ++l) {
    for (int h = 0; h < heads_; ++h) {
      HeadRole r;
      r.layer = l, r.head = h;
      const double* s = &sum_[static_cast<size_t>((l * heads_ + h) * kRouterScoreCount)];
      for (int k = 0; k < kRouterScoreCount; ++k) {
        const int n = k == 2 ? with_not_ : counted_;
        r.scores.push_back({kRouterScores[k], n > 0 ? s[k] / n : 0.0});
      }
      r.role = role_of(r.scores);
      roles.push_back(std::move(r));
    }
  }
  return roles;
}

std::vector<HeadRole> router_head_roles(const Model& model, const Vocab& vocab,
                                        const std::vector<std::string>& items,
                                        const std::vector<Example>& emails) {
  if (emails.empty()) throw InputError("there are no emails to measure the heads on");
  RouterRoleTally tally(model.config.layers, model.config.heads, items);
  Forward f;
  for (const Example& e : emails) {
    const std::vector<std::string> tokens = Vocab::tokens(e.text);
    std::vector<int> ids;
    for (const auto& t : tokens) ids.push_back(vocab.id(t));
    model.forward(ids, f);
    tally.add(f, tokens, e);
  }
  return tally.roles();
}

std::vector<std::vector<std::vector<double>>> mean_head_outputs(const Model& model,
                                                                const std::vector<std::vector<int>>& ids) {
  const int layers = model.config.layers, heads = model.config.heads, dk = model.config.d_model / heads;
  std::vector<std::vector<std::vector<double>>> mean(
      static_cast<size_t>(layers),
      std::vector<std::vector<double>>(static_cast<size_t>(heads),
                                       std::vector<double>(static_cast<size_t>(dk), 0.0)));
  long long rows = 0;
  Forward f;
  for (const auto& seq : ids) {
    model.forward(seq, f);
    rows += static_cast<long long>(seq.size());
    for (int l = 0; l < layers; ++l) {
      const Mat& concat = f.layers[static_cast<size_t>(l)].concat;  // (T, D): heads side by side
      for (Eigen::Index i = 0; i < concat.rows(); ++i) {
        for (int h = 0; h < heads; ++h) {
          for (int j = 0; j < dk; ++j) {
            mean[static_cast<size_t>(l)][static_cast<size_t>(h)][static_cast<size_t>(j)] +=
                concat(i, h * dk + j);
          }
        }
      }
    }
  }
  if (rows == 0) throw InputError("there is no data to average the heads' outputs over");
  for (auto& layer : mean) {
    for (auto& head : layer) {
      for (double& v : head) v /= static_cast<double>(rows);
    }
  }
  return mean;
}

HeadSwitch parse_heads_off(const std::string& text, int layers, int heads) {
  HeadSwitch off;
  off.off.assign(static_cast<size_t>(layers), std::vector<char>(static_cast<size_t>(heads), 0));
  for (size_t start = 0; !text.empty() && start <= text.size();) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const size_t dot = item.find('.');
    const auto whole = [](const std::string& s, int& v) {
      if (s.empty() || s.size() > 4 ||
          !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return false;
      }
      v = std::atoi(s.c_str());
      return true;
    };
    int l = 0, h = 0;
    if (dot == std::string::npos || !whole(item.substr(0, dot), l) || !whole(item.substr(dot + 1), h)) {
      throw_input_error({"'", item, "' is not a head: write layer.head, e.g. 1.2 (counting from 0)"});
    }
    if (l >= layers || h >= heads) {
      throw_input_error({"there is no head ", item, ": the model has ", layers, " layer(s) of ", heads,
                         " heads (layer 0 to ", layers - 1, ", head 0 to ", heads - 1, ")"});
    }
    off.off[static_cast<size_t>(l)][static_cast<size_t>(h)] = 1;
    start = end + 1;  // past the text's end after its last item
  }
  return off;
}

HeadSwitch single_head_off(int layers, int heads, int layer, int head) {
  HeadSwitch off;
  off.off.assign(static_cast<size_t>(layers), std::vector<char>(static_cast<size_t>(heads), 0));
  off.off[static_cast<size_t>(layer)][static_cast<size_t>(head)] = 1;
  return off;
}

std::vector<std::string> heads_off_names(const HeadSwitch& off) {
  std::vector<std::string> names;
  for (size_t l = 0; l < off.off.size(); ++l) {
    for (size_t h = 0; h < off.off[l].size(); ++h) {
      if (off.off[l][h]) names.push_back(std::to_string(l) + "." + std::to_string(h));
    }
  }
  return names;
}

}  // namespace attn::train
