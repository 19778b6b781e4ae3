// Frames on demand in the browser (src/platform/main_web.cpp), for the input that reaches the app (the
// canvas's mouse and keys, the page's text fields, touch gestures, the page's events), and the app itself.
#pragma once

namespace app {
class App;
}

namespace platform {

// The browser app (nullptr before main() made it or after a fatal error), for the page's exports.
app::App* web_app();
// Asks for n more frames (the app changed from outside a frame).
void request_app_frames(int n);

// Input arrived: draw frames now and for a short while after (ImGui's hover delays and two-frame layouts),
// as for any input event.
void wake_for_input();

}  // namespace platform
