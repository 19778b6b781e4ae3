// The version counter behind Memo: one number per recompute, app-wide (kept in the LogicState).
#include "app/logic/memo.hpp"

#include "app/logic/logic_state.hpp"

namespace app {

std::uint64_t next_version() {
  return ++logic_state().last_version;
}

std::uint64_t versions_issued() {
  return logic_state().last_version;
}

}  // namespace app
