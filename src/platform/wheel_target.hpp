// Whether a mouse wheel at a point is the app's (a region that can still scroll that way, Ctrl + wheel
// zoom) or the page's: an embed lets the course page scroll when it has nothing to scroll itself.
#pragma once

namespace platform {

// (x, y): the point in the canvas' CSS pixels (ImGui's coordinates); dy > 0 scrolls down. Uses the windows
// of the last frame.
bool wheel_wanted(float x, float y, float dy);

}  // namespace platform
