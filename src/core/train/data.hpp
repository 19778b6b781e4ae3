// The generated refund-router data set: order-sensitive support emails built from templates and items.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

// One email. `label` is the index of the item the customer wants refunded (class = item index).
// `pair` numbers the unordered item pair {a, b} (a < b); `order` is 0 when the refunded item is the lower
// item index a, 1 when it is b. The order-flipped twin has the same pair and template_id, the other
// order, the same bag of words and the other label.
struct Example {
  std::string text;
  int label = 0;
  int pair = 0;
  int order = 0;
  int template_id = 0;
  int keep = 0;  // index of the item the customer does NOT want refunded
};

struct Dataset {
  std::vector<std::string> items;  // the item names; class c is items[c]
  std::vector<Example> train, test;
  // The class names, one per item (same as items).
  const std::vector<std::string>& label_names() const { return items; }
  int classes() const { return static_cast<int>(items.size()); }
};

// The items ("cake", "delivery fee", ...), in class order.
const std::vector<std::string>& refund_items();
// The email templates with X (refunded item) and Y (kept item) placeholders, e.g. "Refund the X, not the Y."
const std::vector<std::string>& refund_templates();
// Every unordered pair as (a, b) with a < b, in pair-index order.
std::vector<std::pair<int, int>> item_pairs(int items);

// Every template with every ordered item pair. A fixed, deterministic quarter of the unordered pairs
// (chosen by split_seed) is held out: both orders of a held-out pair, with every template, are in `test`;
// everything else is in `train`. Every item still appears in training. Built in code, no downloads.
Dataset make_refund_dataset(double test_fraction = 0.25, std::uint64_t split_seed = 7);

// The neutral, order-irrelevant filler words ("hello team , hope you are well .") used by lengthen().
const std::vector<std::string>& filler_tokens();
// Each email prefixed with exactly extra_tokens filler tokens (the filler sentence repeated and cut), so
// the label does not change; extra_tokens >= 0. Used for the long-email test.
std::vector<Example> lengthen(const std::vector<Example>& examples, int extra_tokens);

}  // namespace attn::train
