// The logic's state in use: the App's, or one of its own when there is no App.
#include "app/logic/logic_state.hpp"

namespace app {
namespace {

// The one mutable file-scope state of the logic: which LogicState is in use (like Dear ImGui's current
// context), and the one used when no App gave its own.
LogicState g_own;
LogicState* g_current = &g_own;

}  // namespace

LogicState& logic_state() {
  return *g_current;
}

void use_logic_state(LogicState* s) {
  g_current = s ? s : &g_own;
}

}  // namespace app
