// The next token of a language model from its logits: the distribution at a temperature, the k most likely,
// one drawn (or the most likely, greedy), and generation that appends them one at a time.
#pragma once

#include <vector>

#include "core/lm/lm_model.hpp"
#include "core/rng.hpp"

namespace attn::lm {

// Row `row` of logits (T, V) -> softmax(logits / temperature) (V), in double.
std::vector<double> next_distribution(const Mat& logits, int row, double temperature);

struct Candidate {
  int id = 0;
  double p = 0;
};

// The k most likely ids of row `row` (temperature 1), most likely first; ties keep the smaller id first.
std::vector<Candidate> top_next(const Mat& logits, int row, int k);

// The next id from row `row`: the most likely (the smallest id of a tie) when temperature is 0, else one
// drawn from next_distribution with one uniform number of `rng`.
int choose_next(const Mat& logits, int row, double temperature, Rng& rng);

// Appends n ids to `ids`, each chosen from the last position's logits, with the heads of `off` switched
// off; returns the forward over the final ids: the last position's logits, and each layer's weights of
// every position, (T + n, T + n) as one forward over all of them gives them. The prompt is read once, then
// each new id alone against the key/value cache (lm_extend); the other capture fields are the last step's.
LmForward generate(const LmModel& model, std::vector<int>& ids, int n, double temperature, Rng& rng,
                   const HeadSwitch* off = nullptr);

// The same, continuing f: a forward over `ids` with the same heads off (lm_forward with last_only, or
// generate), its weights (T, T).
void generate_more(const LmModel& model, std::vector<int>& ids, int n, double temperature, Rng& rng,
                   const HeadSwitch* off, LmForward& f);

}  // namespace attn::lm
