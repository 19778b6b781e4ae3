// The page's compute worker played in-process for the training-session tests: one TrainHost per task, as
// src/platform/compute_web.cpp hands each command to its key's task; the updates are given back in bursts,
// every fifth pump, as a slow page takes them.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "app/logic/compute_link.hpp"
#include "app/logic/logic_state.hpp"
#include "app/logic/train_host.hpp"
#include "app/logic/train_messages.hpp"

namespace train_link {

class LoopbackWorker : public app::ComputeLink {
 public:
  void post(const std::vector<std::uint8_t>& m) override { commands.push_back(m); }
  void pump() {
    using app::train_ui::Task;
    while (!commands.empty()) {
      const app::train_ui::Command c = app::train_ui::decode_command(commands.front());
      (c.key.task == Task::Induction ? induction : router).receive(c);
      commands.pop_front();
    }
    for (app::train_ui::TrainHost* host : {&router, &induction}) {
      const bool more = host->work(2.0);
      if (auto u = host->take_update(!more)) {
        holding = holding || (hold_stops && u->stop != app::train_ui::Stop::None);
        held.push_back(app::train_ui::encode(*u));
      }
    }
    if (++ticks % 5 == 0 && !holding) {
      for (auto& m : held) app::deliver_from_worker(std::move(m));
      held.clear();
    }
  }
  app::train_ui::TrainHost router, induction;  // each task's session
  std::deque<std::vector<std::uint8_t>> commands;
  std::vector<std::vector<std::uint8_t>> held;
  int ticks = 0;
  bool hold_stops = false, holding = false;  // with hold_stops, an update with a stop is held (holding)
};

// A fresh LogicState with a LoopbackWorker linked, for one test.
struct Linked {
  app::LogicState state;
  LoopbackWorker worker;
  Linked() {
    app::use_logic_state(&state);
    app::use_compute_link(&worker);
  }
  ~Linked() {
    app::use_compute_link(nullptr);
    app::use_logic_state(nullptr);
  }
};

}  // namespace train_link
