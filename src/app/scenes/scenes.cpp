// The scene table (from app/logic/scene_list.hpp), the scene context's error box and the next-frame request.
#include "app/scenes/scenes.hpp"

#include "app/logic/scene_list.hpp"
#include "app/widgets/widgets.hpp"

namespace app {

namespace {
bool g_next_frame_requested = false;
}  // namespace

void request_next_frame() {
  g_next_frame_requested = true;
}

bool take_next_frame_request() {
  const bool requested = g_next_frame_requested;
  g_next_frame_requested = false;
  return requested;
}

void SceneContext::fail(const std::string& message) {
  error = message;
  error_box(message);
}

const std::vector<SceneEntry>& scene_entries() {
#define ATTN_SCENE_ENTRY(id, title, draw, instruction) {#id, title, draw},
  static const std::vector<SceneEntry> entries = {ATTN_SCENE_LIST(ATTN_SCENE_ENTRY)};
#undef ATTN_SCENE_ENTRY
  return entries;
}

SceneDraw find_scene(const std::string& id) {
  for (const SceneEntry& e : scene_entries()) {
    if (id == e.id) return e.draw;
  }
  return nullptr;
}

}  // namespace app
