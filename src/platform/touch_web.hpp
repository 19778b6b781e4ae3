// Touch gestures on the browser's canvas (src/platform/touch_web.cpp).
#pragma once

namespace platform {

// Takes the canvas's touch events: swipes scroll, taps click, sideways drags drag. Call once.
void install_touch();

}  // namespace platform
