// How much training work a frame does: half the frame interval measured while not training, within bounds
// (the Train and Induction scenes' sessions, run here when no compute worker runs).
#pragma once

#include <algorithm>

#include "app/logic/clock.hpp"
#include "app/logic/train_session.hpp"

namespace app::train_ui {

// Half the frame interval measured while not training (60 Hz assumed until measured), in
// [kMinBudgetMs, kMaxBudgetMs]: at 60 Hz about 8 ms; on a page that draws slower, more per frame.
class FramePacer {
 public:
  double budget_ms(bool training) {
    const auto now = Clock::now();
    if (have_last_ && !trained_last_) {
      const double dt = ms_between(last_, now);
      if (dt < 250.0) {  // longer gaps: the scene was left or the tab hidden
        const double alpha = std::max(0.1, 1.0 / static_cast<double>(++samples_));  // mean, then moving
        idle_ms_ += alpha * (dt - idle_ms_);
      }
    }
    have_last_ = true, trained_last_ = training, last_ = now;
    return std::clamp(kBudgetShare * idle_ms_, kMinBudgetMs, kMaxBudgetMs);
  }
  double idle_ms() const { return idle_ms_; }

 private:
  double idle_ms_ = 1000.0 / 60.0;
  long long samples_ = 0;
  bool have_last_ = false, trained_last_ = false;
  Clock::time_point last_{};
};

}  // namespace app::train_ui
