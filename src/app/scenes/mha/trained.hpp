// The multi-head attention scene's "trained model" mode: the weights switch, the note shown before any
// model exists, the heads' roles (the model's sizes and summary are in app/logic/trained_model.hpp).
#pragma once

#include "app/scenes/mha/panels.hpp"
#include "app/scenes/scenes.hpp"

namespace app::mha {

// The "weights: random | trained" switch of the multi-head scene; in trained mode also the text and layer
// controls and a line about the model. A model= link is asked for once (SceneAction::OpenLinkedModel).
// Returns true in trained mode.
bool draw_model_switch(SceneContext& ctx, MhaState& ms);
// A note with a button to the Train scene, for when no model has been trained yet.
void draw_no_model_note(SceneContext& ctx);
// "What each head does": first the learner predicts which head of `layer` follows the item to refund, then
// the roles of that layer's heads, measured over the held-out emails a few milliseconds a frame (as the
// Train scene's panel measures them), with the guess checked; ms.roles_shown for state().
void draw_roles(MhaState& ms, int layer);

}  // namespace app::mha
