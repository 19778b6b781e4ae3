// Lesson mode in the app: the caption above the figure, the guided steps with Back / Next, and the
// settings a lesson locks.
#pragma once

#include <string>
#include <vector>

#include "app/logic/lesson.hpp"
#include "app/logic/settings.hpp"

namespace app {

class LessonMode {
 public:
  // A link that names its step (step= in the URL) opens it as the URL says; otherwise the first frame
  // applies the step's settings.
  explicit LessonMode(bool url_names_step);
  // Before a frame: reads s.steps when it changed (JSON now; a path is fetched, see steps_loaded) and
  // opens s.step when it changed. Problems become notes.
  void update(Settings& s, std::vector<std::string>& notes);
  // A fetched steps file's text (or "" and the reason in `error`) for the path `source`.
  void steps_loaded(Settings& s, const std::string& source, const std::string& text, const std::string& error,
                    std::vector<std::string>& notes);
  // Above the scene: the caption, the steps' Back / Next and counter, and which settings are fixed.
  void draw(Settings& s) const;
  // Undoes a learner's change of a locked setting made while drawing a frame (`before`: the settings when
  // it began; set() between frames may change them).
  static void keep_locked(const Settings& before, Settings& s);

  int count() const { return static_cast<int>(steps_.size()); }
  bool pending() const { return pending_; }
  // The caption shown: the step's, else caption=.
  std::string caption(const Settings& s) const;

 private:
  std::string source_;  // the steps= value steps_ came from
  std::vector<LessonStep> steps_;
  int applied_ = 0;  // the step whose settings were opened last (0: none yet)
  bool pending_ = false;
};

}  // namespace app
