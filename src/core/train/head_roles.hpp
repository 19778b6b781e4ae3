// What each head of a trained model does, measured: per-head mean attention on named targets, the rule
// that names a head by its largest score, and the mean output of each head (for mean ablation).
#pragma once

#include <string>
#include <vector>

#include "core/model/transformer.hpp"
#include "core/train/data.hpp"
#include "core/train/model.hpp"
#include "core/train/vocab.hpp"

namespace attn::train {

struct RoleScore {
  std::string name;  // e.g. "refunded_item", "previous_token"
  double value = 0;  // a mean attention weight, 0 .. 1
};

struct HeadRole {
  int layer = 0, head = 0;
  std::string role;  // the name of the score that names the head, or "mixed"
  std::vector<RoleScore> scores;
};

// A head is named by its largest score when that score is at least kRoleFloor and at least kRoleMargin
// times the next one; otherwise it is "mixed".
inline constexpr double kRoleFloor = 0.5;
inline constexpr double kRoleMargin = 2.0;
std::string role_of(const std::vector<RoleScore>& scores);

// The previous-token score of one head's weights w (T, T): the mean over queries i = 1 .. T-1 of the
// weight on key i - 1 (0 for a single token).
double previous_token_weight(const Mat& w);

// The router's role scores, one email at a time (so a caller can stop between emails).
class RouterRoleTally {
 public:
  RouterRoleTally(int layers, int heads, std::vector<std::string> items);
  // The attention weights of one forward pass of the model on e's tokens (T of them).
  void add(const Forward& f, const std::vector<std::string>& tokens, const Example& e);
  int emails() const { return counted_; }
  // The scores and roles of the emails added so far (all zero, "mixed", before the first).
  std::vector<HeadRole> roles() const;

 private:
  int layers_, heads_;
  std::vector<std::vector<std::string>> item_tokens_;  // (items) each item's tokens
  std::vector<double> sum_;                            // (layers x heads x 5) running sums
  int counted_ = 0, with_not_ = 0;
};

// The router's scores per layer and head, each a mean over `emails` of the mean over every query position
// of the weight on: the refunded item's token(s) ("refunded_item"), the kept item's ("excluded_item"),
// the word "not" ("not", over the emails that have it), the token before the query ("previous_token",
// queries 1 .. T-1) and the first token ("first_token"). Items are found by their tokens in the email.
std::vector<HeadRole> router_head_roles(const Model& model, const Vocab& vocab,
                                        const std::vector<std::string>& items,
                                        const std::vector<Example>& emails);

// Per layer and head (d_k): the head's output averaged over every position of every sequence in `ids`
// (the data a mean ablation replaces the head's output with). [layer][head][d_k]
std::vector<std::vector<std::vector<double>>> mean_head_outputs(const Model& model,
                                                                const std::vector<std::vector<int>>& ids);

// Heads parsed from "L.H,L.H,..." (0-based layer and head, e.g. "1.2,0.3"); InputError in words for a
// malformed list or a head the model does not have. An empty text switches nothing off.
HeadSwitch parse_heads_off(const std::string& text, int layers, int heads);
// Only head (layer, head) of a layers x heads model switched off.
HeadSwitch single_head_off(int layers, int heads, int layer, int head);
// The heads of `off` as "L.H" strings, in order.
std::vector<std::string> heads_off_names(const HeadSwitch& off);

}  // namespace attn::train
