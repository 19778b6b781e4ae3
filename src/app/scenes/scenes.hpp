// The scene table and what a scene gets each frame; each scene is one file (or folder) with one draw
// function.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/settings.hpp"

namespace app {

// Writes values on screen into state().shown. Runs when state() is asked for (between frames), so it may
// read only what it owns: copies, and cached values held through Memo::shared() (a memo frees its old value
// when it recomputes, so never capture a reference to memo.value()).
using ShownFill = std::function<void(nlohmann::json& shown)>;

// What a scene gets each frame: the settings to read and change, and where to report what it shows.
struct SceneContext {
  Settings& settings;
  std::vector<ShownFill>& fills;  // run in order by state()
  std::string& error;             // a message shown in place when the core rejects the settings

  // Reports the values on screen; nothing is built until state() is asked for.
  void report(ShownFill fill) { fills.push_back(std::move(fill)); }
  // Shows `message` in place (error_box) and reports it as the scene's error in state().
  void fail(const std::string& message);
};

using SceneDraw = void (*)(SceneContext&);

// A scene that has more to show without any input (a measurement spread over frames) calls this while it
// draws; the platform then draws the next frame at the display's rate instead of waiting for input.
void request_next_frame();
// Whether request_next_frame() was called since the last call of this (which clears it).
bool take_next_frame_request();

// The scene table: every scene of app/logic/scene_list.hpp with its title and draw function, in menu order.
struct SceneEntry {
  const char* id;
  const char* title;
  SceneDraw draw;
};
const std::vector<SceneEntry>& scene_entries();

void draw_start_scene(SceneContext& ctx);
void draw_clock_scene(SceneContext& ctx);
void draw_positions_scene(SceneContext& ctx);
void draw_word_scene(SceneContext& ctx);
void draw_mha_scene(SceneContext& ctx);
void draw_order_scene(SceneContext& ctx);
void draw_schemes_scene(SceneContext& ctx);
void draw_encoder_scene(SceneContext& ctx);
void draw_train_scene(SceneContext& ctx);
void draw_exercises_scene(SceneContext& ctx);

// id -> draw function, or nullptr for an unknown id.
SceneDraw find_scene(const std::string& id);

}  // namespace app
