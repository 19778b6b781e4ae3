// The Train scene's panels (the session that trains is in app/logic/train_session.hpp).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/logic/head_measure.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/settings.hpp"
#include "app/logic/train_client.hpp"
#include "app/logic/trained_model.hpp"
#include "app/scenes/scenes.hpp"
#include "core/train/trainer.hpp"

namespace app::train_ui {

// What the Train scene's panels keep between frames (part of the scene's state).
struct PanelState {
  using PredictionMemo = Memo<attn::train::TextPrediction, long long, std::string>;  // model version, text
  PredictionMemo prediction;                                                         // draw_prediction's
  PredictionMemo pair_a, pair_b;                                                     // draw_pair's
  std::unique_ptr<HeadMeasure> heads;  // draw_heads's measures of the model of version heads_version
  long long heads_version = -1;
  PredictionMemo prediction_off;    // draw_heads's email with heads off (its text keyed with the heads off)
  std::string path = "model.json";  // draw_model_file's path field (desktop)
  OpenStatus open;                  // what its last save or open said
  long long seen_attempt = 0;       // the model load whose message `open` shows
};

// [controls.cpp] The Train and Induction scenes' shared controls.
// The positions combo over the schemes a model trains with, and its help text.
void scheme_combo(Settings& s, const char* help);
// The seed and max steps fields, and their help text.
void seed_and_steps(Settings& s, const char* help);
// Train (Continue training once it has steps; `mark` names it for state().rects), Pause and Reset, then
// the step, rate, loss and training time.
void run_buttons(Settings& s, const TrainClient& ses, const char* mark);
// Once stopped at max steps: how to train longer.
void max_steps_note(const Settings& s, const TrainClient& ses);
// Whether this draw is the first since the scene was entered (the last one was not the frame before).
bool entered_again(int& last_frame);
// A new session for `key` when asked (train=reset), when the key changed, or to train again after an error
// (none is kept in `error`); a model wider than max_width, or one the core cannot build, is said in `error`
// and the training paused. Returns whether a session started (or failed to).
bool sync_session(Settings& s, TrainClient& ses, const SessionKey& key, std::string& error, int max_width);

// [panels.cpp]
// The typed email through model m with the heads of `off` switched off (null: none), kept in `memo` until
// the model's version, the text or `off_key` (what names `off`) changes.
const PanelState::PredictionMemo& predict(PanelState::PredictionMemo& memo, const TrainedModel& m,
                                          const std::string& text, const attn::HeadSwitch* off = nullptr,
                                          const std::string& off_key = "");
// Class `label`'s name ("?" for none).
const std::string& label_name(const TrainedModel& m, int label);
// "99.5%", or "99.96%" rather than "100.0%" for less than all.
std::string percent(float x);
// Live loss and accuracy curves.
void draw_curves(const TrainClient& session);
// The typed email: tokens, label, confidence and every class probability as bars. Fills shown["prediction"];
// returns "" or the model's message for an email it cannot read (shown in place).
std::string draw_prediction(PanelState& ps, Settings& s, const TrainedModel& m, nlohmann::json& shown);
// A held-out email and its order-flipped twin side by side, with their exact difference. Fills shown["pair"].
void draw_pair(PanelState& ps, const TrainedModel& m, nlohmann::json& shown);
// Held-out accuracy with 8, 32 and 128 filler tokens in front (app/logic/longer_emails.hpp: in the compute
// worker, or here a few milliseconds a frame; only while not `training`), with the context-length advice;
// fills shown["longer"].
void draw_longer(const TrainedModel& m, bool training, nlohmann::json& shown);
// [heads.cpp] What each head does: its role scores on the held-out emails, named by the core's rule, beside
// the lesson's words; heads switched off (s.off, s.ablate) with the held-out measures and the typed email's
// label recomputed without them (measured a few milliseconds a frame, only while not `training`). Fills
// shown["head_roles"] and shown["heads_off"].
void draw_heads(PanelState& ps, Settings& s, const TrainedModel& m, bool training, nlohmann::json& shown);
// Save the model as a file, open one (SceneAction::OpenModelFile: the app opens it after the frame), and
// what the current model file says about its training.
void draw_model_file(SceneContext& ctx, PanelState& ps, const TrainedModel* m);

}  // namespace app::train_ui
