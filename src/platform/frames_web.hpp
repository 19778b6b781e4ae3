// Frames on demand in the browser (src/platform/main_web.cpp), for input that reaches the app outside SDL:
// the page's text fields and the canvas's touch gestures.
#pragma once

namespace platform {

// Input arrived: draw frames now and for a short while after (ImGui's hover delays and two-frame layouts),
// as for any SDL event.
void wake_for_input();

}  // namespace platform
