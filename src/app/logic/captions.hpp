// Sentences whose wording depends on what the core computed (no UI code): the scenes draw them and the
// tests check them, so a caption can never claim more than the numbers show.
#pragma once

#include <array>
#include <string>

#include "core/analysis.hpp"

namespace app {

// Position table: what the diagonals of PE . PE show. offset_error: attn::offset_dependence_error() of
// the similarity. Only an even d_model pairs every sine with its cosine, so only then does the similarity
// depend on the distance alone. positions: the similarity's rows (with one there is no diagonal).
std::string similarity_caption(int d_model, int positions, float offset_error);

// Two outputs that differ only by word order, compared: "identical" for a difference of exactly 0, else
// the difference named as float rounding.
std::string order_difference(double difference);

// The per-head statistics' legend for T tokens. even: attn::even_stats(T, causal),
// the values of attention spread evenly over the keys each row may see (row i: i + 1 keys when causal).
std::string stats_legend(int tokens, bool causal, const attn::HeadStats& even);
// "ln 9 = 2.197", or with the causal mask "1.280 (row i spreads over its i + 1 keys)": the entropy of
// even attention over T tokens.
std::string even_entropy(int tokens, bool causal, const attn::HeadStats& even);
// The enlarged head's baselines: "(0 when ...; X when it spreads evenly ...)" and the first-token one.
std::string entropy_baseline(int tokens, bool causal, const attn::HeadStats& even);
std::string first_token_baseline(bool causal, const attn::HeadStats& even);

// The encoder's LayerNorm check: row 0 (`label`) and the extremes over all rows of the first LayerNorm's
// output (attn::row_moments: mean and population variance per row).
std::string layer_norm_check(const std::string& label, float mean0, float var0, int rows, float worst_mean,
                             float var_min, float var_max);

// Multi-head attention's opening paragraph (random seeded weights or the trained router's).
std::string heads_intro(bool trained);

// The lesson's "same confidence: 0.87", set beside what this app's routers without positions give the
// two emails: `untrained` (the seeded router, both emails) and, when a trained order-blind router exists,
// `trained` (its confidences for the two emails; negative: none yet).
std::string lesson_confidence_note(const std::array<float, 2>& untrained, int seed,
                                   const std::array<float, 2>& trained);

}  // namespace app
