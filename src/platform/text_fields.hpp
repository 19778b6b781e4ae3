// The browser's free-text fields (src/platform/text_field_web.cpp): after each frame, the page's <input>
// elements follow the fields the frame drew.
#pragma once

namespace platform {

// Creates, moves, updates and removes the page's <input> elements to match the fields drawn since the last
// call (nothing is sent to the page when nothing changed). Call once per frame, after ImGui::Render().
void sync_text_fields();

}  // namespace platform
