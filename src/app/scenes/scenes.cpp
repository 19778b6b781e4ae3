// The scenes' draw functions (from app/logic/scene_list.hpp) and the scene context's helpers.
#include "app/scenes/scenes.hpp"

#include "app/logic/scene_list.hpp"
#include "app/widgets/widgets.hpp"

namespace app {

void SceneContext::fail(const std::string& message) {
  error = message;
  error_box(message);
}

bool SceneContext::settings_open() {
  return section("Settings", "controls", settings.hide);
}

void SceneContext::switch_to(const std::string& id) {
  SceneAction a;
  a.settings = switch_scene(settings, id);
  act(std::move(a));
}

const std::vector<SceneDraw>& scene_draws() {
#define ATTN_SCENE_DRAW(id, title, draw, instruction) draw,
  static const std::vector<SceneDraw> draws = {ATTN_SCENE_LIST(ATTN_SCENE_DRAW)};
#undef ATTN_SCENE_DRAW
  return draws;
}

}  // namespace app
