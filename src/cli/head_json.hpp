// The per-head fields of `attention_cli train`: roles as JSON and the heads a run switches off.
#pragma once

#include <string>
#include <vector>

#include "core/train/head_roles.hpp"
#include "json_io.hpp"

namespace attn::cli {

// [{layer, head, role, scores: {name: value, ...}}, ...]
json roles_json(const std::vector<train::HeadRole>& roles);
// The heads of --off for a layers x heads model; with --ablate mean, each head's mean output (`means`,
// from train::mean_head_outputs) replaces it, else zeros. InputError for a bad list or --ablate value.
HeadSwitch heads_off(const std::string& off, const std::string& ablate, int layers, int heads);
// Every single head of the model in turn: its switch (zero or, with means given, mean ablation).
std::vector<HeadSwitch> single_heads(int layers, int heads,
                                     const std::vector<std::vector<std::vector<double>>>& means);

}  // namespace attn::cli
