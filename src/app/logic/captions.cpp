// Sentences whose wording depends on what the core computed.
#include "app/logic/captions.hpp"

#include "app/logic/text.hpp"

namespace app {

std::string similarity_caption(int d_model, int positions, float offset_error) {
  const double dev = static_cast<double>(offset_error);
  if (positions < 2) return "With one position there is no pair of positions to compare: show at least two.";
  if (d_model % 2 == 0) {
    return format(
        "Every diagonal has one value: the similarity of two positions depends only on their distance "
        "(largest deviation along a diagonal: %s). Each hand adds sin a sin b + cos a cos b = cos(a - b), "
        "and a - b is the distance times the hand's speed.",
        dev == 0.0 ? "0, exact" : format("%.2g, float rounding", dev).c_str());
  }
  return format(
      "d_model %d is odd, so the last dimension is a sine with no cosine partner. The %d paired dimensions "
      "depend only on the distance, but the unpaired one adds sin a sin b, which depends on where the two "
      "positions are: the diagonals are not constant (largest deviation along a diagonal: %.2g). With an "
      "even d_model every diagonal has one value.",
      d_model, d_model - 1, dev);
}

std::string order_difference(double difference) {
  if (difference == 0.0) return "identical, to the last bit";
  if (difference > 1e-5) return format("different by %.3g", difference);
  return format(
      "different by only %.3g, which is float rounding: the same numbers added in another order can change "
      "a float's last bits",
      difference);
}

std::string stats_legend(int tokens, bool causal, const attn::HeadStats& even) {
  if (tokens == 1) {
    return "Under each head: entropy of its weights (nats; with one key all the weight is on it: 0), mean "
           "distance |i - j|, weight on the first token (1 with one token).";
  }
  if (!causal) {
    return format(
        "Under each head: entropy of its weights (nats; an even spread over %d keys gives ln %d = %.2f), "
        "mean "
        "distance |i - j|, weight on the first token (even attention gives 1 / %d = %.3f).",
        tokens, tokens, static_cast<double>(even.entropy), tokens,
        static_cast<double>(even.first_token_mass));
  }
  return format(
      "Under each head: entropy of its weights (nats), mean distance |i - j|, weight on the first token. "
      "With "
      "the causal mask row i sees only the i + 1 keys up to itself, so even attention gives row i an entropy "
      "of ln(i + 1) and 1 / (i + 1) on the first token: %.2f and %.3f averaged over the %d rows (not ln %d "
      "and 1 / %d).",
      static_cast<double>(even.entropy), static_cast<double>(even.first_token_mass), tokens, tokens, tokens);
}

std::string even_entropy(int tokens, bool causal, const attn::HeadStats& even) {
  if (!causal) return format("ln %d = %.3f", tokens, static_cast<double>(even.entropy));
  return format("%.3f, as the causal mask leaves row i only i + 1 keys", static_cast<double>(even.entropy));
}

std::string entropy_baseline(int tokens, bool causal, const attn::HeadStats& even) {
  if (!causal) {
    return format("(0 when every query looks at one key; %.3f = ln %d when it spreads evenly over all keys)",
                  static_cast<double>(even.entropy), tokens);
  }
  return format(
      "(0 when every query looks at one key; %.3f when each row spreads evenly over the keys the causal mask "
      "leaves it: row i has i + 1 keys, so ln(i + 1), from ln 1 = 0 for the first row to ln %d for the last)",
      static_cast<double>(even.entropy), tokens);
}

std::string first_token_baseline(bool causal, const attn::HeadStats& even) {
  return format(
      causal ? "(even attention over the keys each row may see would give %.3f: row i puts 1 / (i + 1) "
               "on it)"
             : "(even attention would give %.3f)",
      static_cast<double>(even.first_token_mass));
}

std::string layer_norm_check(const std::string& label, float mean0, float var0, int rows, float worst_mean,
                             float var_min, float var_max) {
  const std::string over = rows == 1 ? std::string("Over the one row") : format("Over all %d rows", rows);
  const bool hair = 1.0 - static_cast<double>(var_min) <= 1e-4;
  return format(
             "LayerNorm standardises each row: it subtracts the row's mean and divides by its standard "
             "deviation (then applies a learned gain and bias, 1 and 0 here). Check: row 0 ('%s') has mean "
             "%.2g and variance %.6f. %s the largest |mean| is %.2g and the variances run from %.6f to "
             "%.6f: ",
             label.c_str(), static_cast<double>(mean0), static_cast<double>(var0), over.c_str(),
             static_cast<double>(worst_mean), static_cast<double>(var_min), static_cast<double>(var_max)) +
         (hair ? "a hair under 1, because LayerNorm adds a tiny epsilon (0.00001) to the variance before "
                 "dividing, so it never divides by zero."
               : "under 1, because LayerNorm adds a tiny epsilon (0.00001) to the variance before dividing, "
                 "so "
                 "it never divides by zero: a row of variance v comes out at v / (v + 0.00001), furthest "
                 "under "
                 "1 for the rows that varied least.");
}

std::string heads_intro(bool trained) {
  const std::string common =
      "Several attention heads read the same sentence at once. Each has its own query, key and value "
      "projections, so each makes its own grid of weights (row i says how query token i spreads its "
      "attention over the keys, and sums to 1) and hands over its own blend of values. W_O then mixes the "
      "heads' outputs into one. ";
  return common + (trained
                       ? "These weights were learned: they belong to the refund router trained in the Train "
                         "scene, so the patterns are what its heads found useful."
                       : "The weights here are random (seeded), not trained: the patterns come from the "
                         "words and their positions, not from meaning.");
}

namespace {

// "0.744" when the two confidences print alike, else "0.744 and 0.745".
std::string both(const std::array<float, 2>& c) {
  const std::string a = format("%.3f", static_cast<double>(c[0])),
                    b = format("%.3f", static_cast<double>(c[1]));
  return a == b ? "both " + a : a + " and " + b;
}

}  // namespace

std::string lesson_confidence_note(const std::array<float, 2>& untrained, int seed,
                                   const std::array<float, 2>& trained) {
  const std::string given = both(untrained);
  std::string s = format(
      "In the lesson the router gave both emails the same label with the same confidence, 0.87: an "
      "illustration, from a router with other weights. This untrained router (seed %d) gives %s%s.",
      seed, given.c_str(), given == "both 0.870" ? ", the lesson's number" : ", not 0.87");
  if (trained[0] >= 0.0f) {
    s += format(
        " The router trained without positions in the Train scene gives %s: that is the number to point at, "
        "a trained order-blind router's confidence for two opposite emails.",
        both(trained).c_str());
  } else {
    s += " Train a router without positions in the Train scene and it too gives both orders one confidence: "
         "that trained value is the one to point at.";
  }
  return s;
}

}  // namespace app
