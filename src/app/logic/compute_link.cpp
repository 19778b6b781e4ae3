// The compute worker's link and inbox, kept in the LogicState.
#include "app/logic/compute_link.hpp"

#include "app/logic/logic_state.hpp"

namespace app {

ComputeLink* compute_link() {
  return logic_state().worker.link;
}

void use_compute_link(ComputeLink* link, bool possible) {
  logic_state().worker.link = link;
  logic_state().worker.possible = link != nullptr || possible;
}

bool compute_worker_possible() {
  return logic_state().worker.possible;
}

void want_compute_worker() {
  logic_state().worker.wanted = true;
}

bool compute_worker_wanted() {
  return logic_state().worker.wanted;
}

void want_compute_helpers() {
  logic_state().worker.helpers_wanted = true;
}

bool compute_helpers_wanted() {
  return logic_state().worker.helpers_wanted;
}

void set_compute_helpers_starting(bool starting) {
  logic_state().worker.helpers_starting = starting;
}

bool compute_helpers_starting() {
  return logic_state().worker.helpers_starting;
}

void deliver_from_worker(std::vector<std::uint8_t> message) {
  logic_state().worker.inbox.push_back(std::move(message));
}

std::vector<std::vector<std::uint8_t>> take_from_worker(std::uint32_t tag) {
  std::vector<std::vector<std::uint8_t>> out, kept;
  for (auto& message : logic_state().worker.inbox)
    (message_tag(message) == tag ? out : kept).push_back(std::move(message));
  logic_state().worker.inbox.swap(kept);
  return out;
}

}  // namespace app
