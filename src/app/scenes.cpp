// Maps scene ids (the URL's scene=...) to their draw functions.
#include "scenes.hpp"

#include "widgets.hpp"

namespace app {

void SceneContext::fail(const std::string& message) {
  error = message;
  error_box(message);
}

SceneDraw find_scene(const std::string& id) {
  static const SceneEntry entries[] = {
      {"clock", draw_clock_scene},
      {"positions", draw_positions_scene},
      {"word", draw_word_scene},
      {"mha", draw_mha_scene},
      {"order", draw_order_scene},
      {"schemes", draw_schemes_scene},
      {"encoder", draw_encoder_scene},
      {"train", draw_train_scene},
      {"exercises", draw_exercises_scene},
  };
  for (const SceneEntry& e : entries) {
    if (id == e.id) return e.draw;
  }
  return nullptr;
}

}  // namespace app
