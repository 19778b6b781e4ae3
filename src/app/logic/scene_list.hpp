// The one list of scenes, in menu order: URL id, title and draw function. Expanded by the URL table
// (logic/settings.cpp: ids and titles) and by the scene table (scenes/scenes.cpp: draw functions).
#pragma once

// X(id, title, draw function): the draw functions are declared in app/scenes/scenes.hpp.
#define ATTN_SCENE_LIST(X)                             \
  X(clock, "Clock", draw_clock_scene)                  \
  X(positions, "Position table", draw_positions_scene) \
  X(word, "Word + position", draw_word_scene)          \
  X(mha, "Multi-head attention", draw_mha_scene)       \
  X(order, "Order blindness", draw_order_scene)        \
  X(schemes, "Position schemes", draw_schemes_scene)   \
  X(encoder, "Encoder block", draw_encoder_scene)      \
  X(train, "Train a router", draw_train_scene)         \
  X(exercises, "Exercises", draw_exercises_scene)
