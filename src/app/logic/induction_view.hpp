// The Induction scene's measures of its session (no UI code): each evaluation's scores as the core's
// InductionMetrics, when each kind of head formed, a finished run's row of the scheme comparison, the
// attention of a held-out sequence, and the prediction about switching the induction heads off.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/logic/train_session.hpp"
#include "core/train/induction.hpp"

namespace app::induction {

// The task the scene trains (core/train/induction.hpp's defaults, as attention_cli's --task induction).
const attn::train::InductionConfig& task();

// Evaluation e of a session's curves as the core's measures of a model of layers x heads (the losses and
// scores were sent as floats).
attn::train::InductionMetrics evaluation(const train_ui::Curves& c, std::size_t e, int layers, int heads);

// The first evaluated steps at which a layer-0 previous-token head and a later layer's induction head had
// formed (attn::train::has_previous_token_head, has_induction_head), or -1.
struct Formed {
  int previous_token = -1, induction = -1;
};
Formed formed(const train_ui::Curves& c, int layers, int heads);

// The second half's loss at a longer length than the training one, or why the model cannot read it.
struct AtLength {
  int length = 0;
  double loss_second_half = 0.0;
  std::string error;
};

// One row of the scheme comparison: a run at its last evaluation, as bench/induction_bench.sh prints it.
struct Row {
  attn::Scheme positions = attn::Scheme::None;
  int seed = 0, steps = 0;
  Formed formed;
  double best_previous = 0.0;   // the strongest layer-0 previous-token score
  double best_induction = 0.0;  // the strongest last-layer prefix-matching score
  double loss_first_half = 0.0, loss_second_half = 0.0;
  std::vector<AtLength> longer;  // at train_ui::kInductionLengths
};
// The row of a session for `key` whose last evaluation (of step `steps`, with its snapshot's `info`) also
// measured the longer lengths; nothing when it did not (a run still training).
std::optional<Row> row_of(const train_ui::SessionKey& key, const train_ui::Curves& c,
                          const nlohmann::json& info, int layers, int heads);
// What a row shows in words: which heads formed and when, the repeat's loss against the first half's, and
// what happened without positions (some order from the causal mask alone: Haviv et al., 2022).
std::string row_summary(const Row& r);
nlohmann::json row_json(const Row& r);

// The first held-out sequence and every head's attention on it: weights[layer * heads + head] (T, T).
struct SequenceAttention {
  std::vector<int> ids;  // (T)
  std::vector<attn::Mat> weights;
};
SequenceAttention sequence_attention(const attn::train::Model& model, const attn::HeadSwitch* off = nullptr);

// The model's measures on the held-out sequences at the training length with the heads of `off` off.
attn::train::InductionMetrics measure(const attn::train::Model& model, const attn::HeadSwitch* off = nullptr);

// The prediction: the heads of a later layer with a prefix-matching score of at least kSwitchFloor (as the
// issue's check names them), and what switching them all off does to the repeat's loss.
inline constexpr double kSwitchFloor = 0.3;
attn::HeadSwitch induction_heads(const attn::train::InductionMetrics& m);
enum class OffEffect { BackUp, Rises, Stays };
// BackUp: the repeat's loss with them off is at least 3/4 of the first half's (the repeat is no longer
// read); Rises: at least 1.5 times what it was with every head on; else Stays.
OffEffect off_effect(const attn::train::InductionMetrics& on, const attn::train::InductionMetrics& off);
const char* off_effect_text(OffEffect e);

}  // namespace app::induction
