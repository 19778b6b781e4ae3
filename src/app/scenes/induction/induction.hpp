// The Induction scene's state and panels (its session is a train_ui::TrainClient of the induction task).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/logic/frame_pacer.hpp"
#include "app/logic/head_measure.hpp"
#include "app/logic/induction_view.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/settings.hpp"
#include "app/logic/train_client.hpp"
#include "app/scenes/scenes.hpp"

namespace app::induction {

struct InductionState : SceneState {
  train_ui::TrainClient session;
  train_ui::FramePacer pacer;
  std::string error;     // why the model for the current settings could not be built
  int last_frame = -10;  // ImGui frame of the last draw (a gap: the scene was re-entered)
  int max_steps = 0;     // the run's max steps, restored with it on re-entry
  // the snapshot's measures with the heads of s.off off, and every head's attention on a held-out sequence
  Memo<attn::train::InductionMetrics, long long, std::string> off_measure, on_measure;
  Memo<SequenceAttention, long long, std::string> grids;
  std::vector<Row> rows;    // the scheme comparison: one run per scheme, seed and step count
  bool comparing = false;   // training every scheme in turn
  int guess = -1;           // the learner's OffEffect guess, or -1
  std::string guess_heads;  // the heads the guess was about (off= text)
};

// The heads of s.off for a model of the scene's size, or why s.off does not fit it ("" then: every head on).
attn::HeadSwitch heads_off(const Settings& s, const attn::train::Model& model, std::string& error);

// [panels.cpp]
// Each half's loss and the strongest scores at every evaluation, live.
void draw_curves(const train_ui::TrainClient& ses);
// One row per head: its previous-token and prefix-matching scores at the last evaluation, its name, and a
// click that switches it off (s.off). Fills shown["heads"].
void draw_heads(Settings& s, const train_ui::TrainClient& ses, const attn::HeadSwitch& off,
                nlohmann::json& shown);
// Every head's attention on the first held-out sequence, with the heads of `off` switched off.
void draw_grids(InductionState& st, const TrainedModel& m, const attn::HeadSwitch& off,
                const std::string& off_text, const Settings& s, nlohmann::json& shown);
// [compare.cpp]
// Predict, then check: what switching the induction heads off does to the repeat's loss. Fills
// shown["prediction"] and shown["ablated"].
void draw_prediction(InductionState& st, Settings& s, const TrainedModel& m, bool training,
                     nlohmann::json& shown);
// The scheme comparison: each finished run's row; a button trains every scheme in turn. Fills shown["table"].
void draw_compare(InductionState& st, Settings& s, nlohmann::json& shown);

}  // namespace app::induction
