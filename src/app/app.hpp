// The app shared by the browser and the desktop: settings, scene registry, frame, and the JSON API.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/app_state.hpp"
#include "app/lesson_mode.hpp"
#include "app/logic/settings.hpp"
#include "app/scenes/scenes.hpp"

namespace app {

struct FrameStats {
  double cpu_ms = 0.0;         // time to build the last frame on the CPU (ImGui + scenes + heatmap draws)
  double frame_ms = 0.0;       // the whole frame callback: cpu_ms plus the GL submission
  double interval_ms = 0.0;    // from the previous frame's start to this one's (0 after an idle pause)
  bool input_pending = false;  // ImGui holds input for the next frames (it trickles fast typing)
  int draw_calls = 0;          // ImGui draw commands plus heatmap draws
  int vertices = 0;            // ImGui vertices
  long long frame = 0;         // frames drawn so far
};

enum class UrlChange { None, Replace, Push };

class App {
 public:
  // query: the URL's "?..." part (may be empty); notes about ignored parameters are kept for display.
  explicit App(const std::string& query);
  // The logic and the widgets use this App's state while it lives (one App at a time).
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Builds one frame's UI between ImGui::NewFrame() and ImGui::Render(). Needs the GL context current.
  void frame();
  // Called by the platform after ImGui::Render() with the frame's CPU time, to fill frameStats();
  // frame_ms and interval_ms as in FrameStats (0 where the platform does not measure them).
  void finish_frame(double cpu_ms, double frame_ms = 0.0, double interval_ms = 0.0,
                    bool input_pending = false);
  // Whether another frame must follow without input: training runs, a scene has work left
  // (request_next_frame), or the settings changed after the frame drew them.
  bool wants_next_frame() const;

  // window.attentionDemo API (all JSON strings):
  std::string state_json() const;  // scene, settings, notes, error, and the values on screen
  // Heatmaps drawn in the last frame with rectangles (and values unless with_values is false); `only_id`
  // keeps one heatmap. Values of long texts are large: ask without them, or for one id.
  std::string heatmaps_json(bool with_values = true, const std::string& only_id = "") const;
  // frameStats(): the last frame's figures; `computing` also when the platform has work on the way
  // (platform_busy: the browser is drawing a font atlas).
  std::string frame_stats_json(bool platform_busy = false) const;
  // Applies {"name": value, ...} like URL parameters; returns {"ok": bool, "notes": [...]}.
  std::string set_json(const std::string& json);
  // {"ok": true, "csv": "..."} for a heatmap drawn in the last frame, or {"ok": false, "error": "..."}.
  std::string export_csv_json(const std::string& id) const;

  // The URL query for the current settings, and whether it changed since the last call to
  // take_url_change(): Push when the scene changed (a new browser history entry), else Replace.
  std::string query() const { return to_query(settings_); }
  UrlChange take_url_change();
  // Opens the view of a URL query ("?scene=clock&pos=44"), as at start-up, without a new history entry:
  // the browser's Back and Forward.
  void open_query(const std::string& query);

  const Settings& settings() const { return settings_; }

  // For the page around the canvas (main_web.cpp):
  // the height in CSS pixels the last frame's content needs, from the top of the canvas (an embed's
  // iframe follows it);
  float content_height() const { return content_height_; }
  // what the screen-reader mirror says: the scene, the keyboard-focused control and its value, or the
  // keyboard's cell in a focused grid;
  const std::string& announcement() const { return announcement_; }
  // the page's media queries: whether it prefers a dark scheme (theme=auto follows it) and reduced motion.
  void set_page_prefers(bool dark, bool reduced_motion);
  // a lesson steps file fetched for steps=`source`: its text, or "" and why not.
  void load_steps(const std::string& source, const std::string& text, const std::string& error);
  // the exercises checked in the last frame, as a JSON array of {"which", "answer", "right"} ("[]": none).
  std::string answers_json() const;

 private:
  void describe_focus();                          // fills announcement_ and the focus fields after a frame
  void start_lesson();                            // lesson steps and the theme before a frame
  void apply(std::vector<SceneAction>& actions);  // what the scene asked for, after it drew

  std::unique_ptr<AppState> state_;  // the one owner of what is kept between frames (app_state.hpp)

  Settings settings_;
  LessonMode lesson_;
  std::vector<std::string> notes_;  // visible notes (ignored URL parameters, etc.), the newest 20
  std::size_t notes_dropped_ = 0;   // older notes left out
  std::string last_query_;
  std::string scroll_scene_;  // the scene the scene panel's scroll belongs to
  std::string url_scene_;     // the scene of the URL last taken by take_url_change()
  // What the last frame showed, for state_json(): its settings, its scene's error and value writers.
  Settings shown_settings_;
  std::string shown_error_;
  std::vector<ShownFill> shown_fills_;
  FrameStats stats_;
  float content_height_ = 0.0f;
  bool page_dark_ = true, reduced_motion_ = false;
  std::string announcement_;
  std::string announced_scene_;            // the scene the last announcement named
  std::string focus_label_, focus_value_;  // the keyboard-focused control (state().focus)
  bool computing_ = false;  // the last frame left a long computation pending (frameStats().computing)
  bool next_frame_requested_ = false;  // a scene called request_next_frame() in the last frame
};

}  // namespace app
