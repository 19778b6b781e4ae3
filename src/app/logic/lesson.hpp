// Lesson mode's guided steps (steps=): read from JSON and checked like URL settings, then applied.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace app {

struct Settings;

inline constexpr std::size_t kMaxSteps = 50;

// One step: a caption above the figure and the settings it opens (names and values as in a URL).
struct LessonStep {
  std::string caption;
  std::vector<std::pair<std::string, std::string>> settings;
};

// Reads [{"caption": "...", "settings": {"scene": "clock", "pos": 44}}, ...] (or {"steps": [...]}) into
// `steps`. Every setting must be one a URL takes, with a value it accepts; captions are one line of at most
// kMaxCaptionBytes; at most kMaxSteps steps. Returns "" or what is wrong, e.g. "step 2: ignored pos=x: ...".
std::string parse_steps(const std::string& json_text, std::vector<LessonStep>& steps);

// Opens step `step` in s: its scene first (keeping the page's and the lesson's settings), then its settings.
void apply_step(Settings& s, const LessonStep& step);

}  // namespace app
