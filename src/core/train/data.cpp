// The refund-router emails: every template with every ordered pair of items, split by unordered pair.
#include "core/train/data.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace attn::train {
namespace {

// Replaces every X with `x` and every Y with `y` (the templates have no other capital X or Y).
std::string fill(const std::string& pattern, const std::string& x, const std::string& y) {
  std::string out;
  for (char c : pattern) {
    if (c == 'X') {
      out += x;
    } else if (c == 'Y') {
      out += y;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& refund_items() {
  static const std::vector<std::string> items = {
      "cake",     "delivery fee",  "candles", "hamper",     "gift box", "cookies",     "flowers",
      "balloons", "greeting card", "tea set", "chocolates", "mugs",     "photo frame", "napkins"};
  return items;
}

const std::vector<std::string>& refund_templates() {
  // X: the item to refund; Y: the item the customer keeps. The refunded item comes first in some
  // templates and second in others, so only word order tells them apart.
  static const std::vector<std::string> templates = {
      "Refund the X, not the Y.",
      "Please refund the X, not the Y.",
      "The Y looked lovely, refund the X.",
      "Do not refund the Y, refund the X.",
      "I want the X refunded, not the Y.",
      "Keep the Y, but refund the X please.",
      "Hello team, please refund the X and not the Y.",
      "The Y arrived fine, the X arrived broken, refund it.",
      "Not the Y: refund the X.",
      "Refund the X please, we kept the Y.",
  };
  return templates;
}

std::vector<std::pair<int, int>> item_pairs(int items) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < items; ++a) {
    for (int b = a + 1; b < items; ++b) pairs.emplace_back(a, b);
  }
  return pairs;
}

Dataset make_refund_dataset(double test_fraction, std::uint64_t split_seed) {
  if (!(test_fraction > 0.0 && test_fraction < 1.0)) {
    throw InputError("the held-out fraction is " + std::to_string(test_fraction) +
                     "; allowed: between 0 and 1");
  }
  Dataset data;
  data.items = refund_items();
  const int n_items = static_cast<int>(data.items.size());
  const auto pairs = item_pairs(n_items);
  const int n_pairs = static_cast<int>(pairs.size());
  const int n_test = std::max(1, static_cast<int>(std::lround(test_fraction * n_pairs)));
  if (n_test >= n_pairs) throw InputError("the held-out fraction leaves no pair for training");

  // Held-out pairs: the first n_test of a seeded shuffle, redrawn until every item is still in training.
  std::vector<char> held_out;
  for (std::uint64_t attempt = 0;; ++attempt) {
    Rng rng(mix_seed(split_seed, 0x5b117ULL + attempt));
    std::vector<int> order(static_cast<size_t>(n_pairs));
    for (int i = 0; i < n_pairs; ++i) order[static_cast<size_t>(i)] = i;
    for (int i = n_pairs - 1; i > 0; --i) {
      const int j = static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(i + 1));
      std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
    }
    held_out.assign(static_cast<size_t>(n_pairs), 0);
    for (int i = 0; i < n_test; ++i) held_out[static_cast<size_t>(order[static_cast<size_t>(i)])] = 1;
    std::vector<int> seen(static_cast<size_t>(n_items), 0);
    for (int p = 0; p < n_pairs; ++p) {
      if (held_out[static_cast<size_t>(p)]) continue;
      seen[static_cast<size_t>(pairs[static_cast<size_t>(p)].first)] = 1;
      seen[static_cast<size_t>(pairs[static_cast<size_t>(p)].second)] = 1;
    }
    bool all = true;
    for (int s : seen) all = all && s;
    if (all) break;
  }

  const auto& templates = refund_templates();
  for (int p = 0; p < n_pairs; ++p) {
    const auto [a, b] = pairs[static_cast<size_t>(p)];
    auto& out = held_out[static_cast<size_t>(p)] ? data.test : data.train;
    for (int t = 0; t < static_cast<int>(templates.size()); ++t) {
      for (int order = 0; order < 2; ++order) {
        const int refund = order == 0 ? a : b;
        const int keep = order == 0 ? b : a;
        Example e;
        e.text = fill(templates[static_cast<size_t>(t)], data.items[static_cast<size_t>(refund)],
                      data.items[static_cast<size_t>(keep)]);
        e.label = refund;
        e.pair = p;
        e.order = order;
        e.template_id = t;
        e.keep = keep;
        out.push_back(std::move(e));
      }
    }
  }
  return data;
}

const std::vector<std::string>& filler_tokens() {
  static const std::vector<std::string> words = {"hello", "team", ",", "hope", "you", "are", "well", "."};
  return words;
}

std::vector<Example> lengthen(const std::vector<Example>& examples, int extra_tokens) {
  require_range(extra_tokens, 0, kMaxTokens, "the number of extra tokens");
  std::string prefix;
  const auto& words = filler_tokens();
  for (int i = 0; i < extra_tokens; ++i) prefix += words[static_cast<size_t>(i) % words.size()] + " ";
  std::vector<Example> out = examples;
  for (auto& e : out) e.text = prefix + e.text;
  return out;
}

}  // namespace attn::train
