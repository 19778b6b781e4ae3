// A fresh app::LogicState for one test: the logic's state while it lives, with no compute link when it ends.
#pragma once

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"

namespace fx {

struct FreshLogicState {
  app::LogicState state;
  FreshLogicState() { app::use_logic_state(&state); }
  ~FreshLogicState() {
    app::use_compute_link(nullptr);
    app::use_logic_state(nullptr);
  }
  FreshLogicState(const FreshLogicState&) = delete;
  FreshLogicState& operator=(const FreshLogicState&) = delete;
};

}  // namespace fx
