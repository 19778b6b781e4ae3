// What the page around the canvas hears from the app after each frame: the address bar, and the window
// events web/shell.js and web/a11y.js listen to.
#pragma once

#include "app/app.hpp"

namespace platform {

// After a frame: rewrites the address bar when the settings changed (a new history entry for a new scene)
// and dispatches on `window`, each only when it has news:
//   attention:layout   detail: the CSS-pixel height the content needs (a number)
//   attention:change   detail: the new URL query, without "?"
//   attention:answer   detail: {"which", "answer", "right"} as JSON text, one event per checked exercise
//   attention:announce detail: the screen-reader mirror's sentence
void tell_page_after_frame(app::App& app);

}  // namespace platform
