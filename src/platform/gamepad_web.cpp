// The browser build's three SDL game-controller calls, answered as SDL answers with no controller attached.
// Dear ImGui's SDL2 back end calls them each frame only with ImGuiConfigFlags_NavEnableGamepad, which the
// app never sets, and the page's SDL2 is built without joysticks (scripts/wasm_deps.sh: SDL_JOYSTICK=OFF),
// so it could never open one; yet for these names the linker would take SDL_gamecontroller.c whole, with
// its mapping parser and SDL_joystick.c.
#include <SDL.h>

extern "C" {

SDL_GameController* SDL_GameControllerOpen(int /*joystick_index*/) {
  return nullptr;
}

Uint8 SDL_GameControllerGetButton(SDL_GameController* /*controller*/, SDL_GameControllerButton /*button*/) {
  return 0;
}

Sint16 SDL_GameControllerGetAxis(SDL_GameController* /*controller*/, SDL_GameControllerAxis /*axis*/) {
  return 0;
}

}  // extern "C"
