// The Train scene's panels and the multi-head scene's "trained model" mode (the session that trains is in
// app/logic/train_session.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/logic/settings.hpp"
#include "app/logic/train_session.hpp"
#include "app/logic/trained_model.hpp"

namespace app::train_ui {

// [panels.cpp]
// Live loss and accuracy curves.
void draw_curves(const Session& session);
// The typed email: tokens, label, confidence and every class probability as bars. Fills shown["prediction"];
// returns "" or the model's message for an email it cannot read (shown in place).
std::string draw_prediction(Settings& s, const TrainedModel& m, nlohmann::json& shown);
// A held-out email and its order-flipped twin side by side, with their exact difference. Fills shown["pair"].
void draw_pair(const TrainedModel& m, nlohmann::json& shown);
// Held-out accuracy with 8, 32 and 128 filler tokens in front (one length measured per frame, only while
// not `training`), with the context-length advice; fills shown["longer"].
void draw_longer(const TrainedModel& m, bool training, nlohmann::json& shown);
// Save the model as a file, open one, and what the current model file says about its training.
// Returns true when it opened a model file (synchronously, on the desktop): the trained model was replaced,
// so pointers to the one shown before are stale.
bool draw_model_file(const TrainedModel* m);

// [the multi-head scene's trained mode: scenes/mha/trained.cpp]
// The "weights: random | trained" switch of the multi-head scene; in trained mode also the text and layer
// controls and a line about the model. Returns true in trained mode.
bool draw_model_switch(Settings& s);
// A note with a button to the Train scene, for when no model has been trained yet.
void draw_no_model_note(Settings& s);
// Sets s's d_model, heads, positions and causal to the model's own.
void apply_model_sizes(Settings& s, const TrainedModel& m);
// Settings with the trained model's d_model and heads (for the parameter panel), or `s` itself.
Settings with_model_sizes(const Settings& s);
// state().shown["trained_model"]: the model's sizes, scheme, steps and source (null when there is none).
nlohmann::json trained_model_json_summary();

}  // namespace app::train_ui
