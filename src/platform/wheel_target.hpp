// Whether a mouse wheel at a point is the app's (a region that can still scroll that way, Ctrl + wheel
// zoom) or the page's: an embed lets the course page scroll when it has nothing to scroll itself.
#pragma once

namespace platform {

// (x, y): the point in the canvas' CSS pixels (ImGui's coordinates); dy > 0 scrolls down, dx > 0 right (a
// mostly sideways wheel is judged by dx: a region that scrolls sideways, such as the encoder's diagram).
// Uses the windows of the last frame.
bool wheel_wanted(float x, float y, float dx, float dy);

}  // namespace platform
