// The one owner of the app's state between frames: the logic's (caches, the trained model), the widgets'
// (what a frame drew, measured columns, the look) and one state per scene, held by the App.
#pragma once

#include <memory>
#include <vector>

#include "app/logic/logic_state.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/ui_state.hpp"

namespace app {

struct AppState {
  LogicState logic;
  UiState ui;
  std::vector<std::unique_ptr<SceneState>> scenes;  // (scene_draws().size(),) made on a scene's first draw
};

}  // namespace app
