// The scene table (from app/logic/scene_list.hpp) and the scene context's error box.
#include "app/scenes/scenes.hpp"

#include "app/logic/scene_list.hpp"
#include "app/widgets/widgets.hpp"

namespace app {

void SceneContext::fail(const std::string& message) {
  error = message;
  error_box(message);
}

void SceneContext::switch_to(const std::string& id) {
  SceneAction a;
  a.settings = switch_scene(settings, id);
  act(std::move(a));
}

const std::vector<SceneEntry>& scene_entries() {
#define ATTN_SCENE_ENTRY(id, title, draw, instruction) {#id, title, draw},
  static const std::vector<SceneEntry> entries = {ATTN_SCENE_LIST(ATTN_SCENE_ENTRY)};
#undef ATTN_SCENE_ENTRY
  return entries;
}

SceneDraw find_scene(const std::string& id) {
  const int at = scene_index(id);
  return at < 0 ? nullptr : scene_entries()[static_cast<size_t>(at)].draw;
}

int scene_index(const std::string& id) {
  const std::vector<SceneEntry>& entries = scene_entries();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (id == entries[i].id) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace app
