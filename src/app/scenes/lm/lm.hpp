// The Real model scene's parts (app/scenes/lm/): its state, and the panels lm.cpp draws in order.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/logic/lm_messages.hpp"
#include "app/logic/settings.hpp"
#include "app/scenes/scenes.hpp"
#include "core/attention.hpp"

namespace app::lm_scene {

struct LmSceneState : SceneState {
  std::string linked;  // the checkpoint= paths already opened
  // The answer the last frame drew: its grids stay alive until the next frame draws, whatever arrives.
  std::shared_ptr<const LmAnswer> drawn;
};

// The head `grid` names ("layer.head") inside `info`'s model, or false.
bool parse_grid(const std::string& grid, const LmInfo& info, int& layer, int& head);

// Every layer x head as a small grid on the answer's tokens (a click enlarges one); heads switched off and
// heads of the role `s.find` are marked.
void draw_model_view(Settings& s, const LmInfo& info, const LmAnswer& a, const attn::HeadSwitch& off,
                     nlohmann::json& shown);
// The head s.grid names, large, with the tokens on its axes, and its switch.
void draw_enlarged(Settings& s, const LmInfo& info, const LmAnswer& a, attn::HeadSwitch& off,
                   nlohmann::json& shown);
// Every head's role scores (a click switches the head off or on), sorted by s.find's score.
void draw_roles(Settings& s, const LmInfo& info, attn::HeadSwitch& off, nlohmann::json& shown);

}  // namespace app::lm_scene
