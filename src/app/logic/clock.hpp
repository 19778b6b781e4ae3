// The app's steady clock, in milliseconds: performance.now() (emscripten_get_now) in the browser,
// std::chrono::steady_clock elsewhere. The page does not use steady_clock: libc++'s now() may throw
// std::system_error, which links the error categories and libc's table of error messages into the wasm.
#pragma once

#include <chrono>
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

namespace app {

struct Clock {
  using rep = double;
  using period = std::milli;
  using duration = std::chrono::duration<rep, period>;
  using time_point = std::chrono::time_point<Clock>;
  static constexpr bool is_steady = true;
  static time_point now() noexcept {
#ifdef __EMSCRIPTEN__
    return time_point(duration(emscripten_get_now()));
#else
    return time_point(
        std::chrono::duration_cast<duration>(std::chrono::steady_clock::now().time_since_epoch()));
#endif
  }
};

// Milliseconds from a to b, and from t0 to now.
inline double ms_between(Clock::time_point a, Clock::time_point b) {
  return (b - a).count();
}
inline double ms_since(Clock::time_point t0) {
  return ms_between(t0, Clock::now());
}

}  // namespace app
