// The scene table and what a scene gets each frame; each scene is one file (or folder) with one draw
// function.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/settings.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/ui_state.hpp"

namespace app {

// Writes values on screen into state().shown. Runs when state() is asked for (between frames), so it may
// read only what it owns: copies, and cached values held through Memo::shared() (a memo frees its old value
// when it recomputes, so never capture a reference to memo.value()).
using ShownFill = std::function<void(nlohmann::json& shown)>;

// A scene's state between frames (its caches, a drag under way, what it measured): each scene derives
// its own struct, and the App's scene table holds one per scene (SceneContext::state()).
struct SceneState {
  virtual ~SceneState() = default;
};
// The State in `slot`, made the first time it is asked for (always ask a slot for the same State type). A
// scene's state can hold its panels' states in slots of their own, each panel's type private to its file.
template <class State>
State& state_in(std::unique_ptr<SceneState>& slot) {
  if (!slot) slot = std::make_unique<State>();
  return static_cast<State&>(*slot);
}

// A scene state that is one value (SceneContext::kept()).
template <class T>
struct Kept : SceneState {
  T value;
};

// What opening a model file said, for the panel that asked (SceneAction::status).
struct OpenStatus {
  std::string text;  // "" when the file was read (the load's own message follows), else why not, or
                     // that the browser's dialog is open
  bool ok = true;
};

// What a draw asks of the app, applied after the frame (a draw does not load files or switch scenes
// itself).
struct SceneAction {
  enum class Kind {
    OpenSettings,     // settings = `settings` (made with switch_scene(): a scene change keeps the lesson)
    OpenLinkedModel,  // open_linked_model(path): the model a link names (model=)
    OpenModelFile,    // open_model_file(path), and the model in it becomes the current one
  };
  Kind kind = Kind::OpenSettings;
  Settings settings;              // OpenSettings
  std::string path;               // OpenLinkedModel, OpenModelFile
  bool remember_trained = false;  // OpenSettings: keep the trained model for this tab first
  OpenStatus* status = nullptr;   // OpenModelFile: where to say what the opening gave
};

// What a scene gets each frame: the settings to read and change, its state, and where to report what it
// shows and what it asks the app to do.
struct SceneContext {
  Settings& settings;
  std::vector<ShownFill>& fills;      // run in order by state()
  std::string& error;                 // a message shown in place when the core rejects the settings
  std::unique_ptr<SceneState>& slot;  // the scene table's state of this scene (made on first use)
  std::vector<SceneAction>& actions;  // applied by the app, in order, after the frame
  FrameOutput& out;                   // what this frame drew and reported (the widgets write into it too)

  // Reports the values on screen; nothing is built until state() is asked for.
  void report(ShownFill fill) { fills.push_back(std::move(fill)); }
  // Shows `message` in place (error_box) and reports it as the scene's error in state().
  void fail(const std::string& message);
  // The scene's "Settings" section (widgets' section(), kept open or shut as settings.hide says): true when
  // open.
  bool settings_open();
  // True when `memo` holds its value; otherwise fails with the memo's error (the scene then stops drawing).
  template <class M>
  bool ready(const M& memo) {
    if (memo.ok()) return true;
    fail(memo.error());
    return false;
  }
  // Reports an exercise checked this frame (the page's answer event).
  void answered(AnswerEvent e) { out.answers.push_back(std::move(e)); }
  // Asks the app to do `a` after the frame.
  void act(SceneAction a) { actions.push_back(std::move(a)); }
  // Asks for scene `id` through the scene switch (switch_scene: its defaults, the page's settings kept).
  void switch_to(const std::string& id);
  // This scene's state (each scene asks for its one State type), made the first time it is asked for.
  template <class State>
  State& state() {
    return state_in<State>(slot);
  }
  // The state of a scene that keeps one value (a cache): its T, made the first time it is asked for.
  template <class T>
  T& kept() {
    return state<Kept<T>>().value;
  }
};

using SceneDraw = void (*)(SceneContext&);

// The draw function of every scene of app/logic/scene_list.hpp, in the order of scene_table() (scene_index).
const std::vector<SceneDraw>& scene_draws();

void draw_start_scene(SceneContext& ctx);
void draw_clock_scene(SceneContext& ctx);
void draw_positions_scene(SceneContext& ctx);
void draw_word_scene(SceneContext& ctx);
void draw_mha_scene(SceneContext& ctx);
void draw_order_scene(SceneContext& ctx);
void draw_schemes_scene(SceneContext& ctx);
void draw_encoder_scene(SceneContext& ctx);
void draw_train_scene(SceneContext& ctx);
void draw_induction_scene(SceneContext& ctx);
void draw_lm_scene(SceneContext& ctx);
void draw_exercises_scene(SceneContext& ctx);

}  // namespace app
