// Small ImGui helpers shared by the scenes: help markers, error boxes, section headers, number rows.
#pragma once

#include <imgui.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"
#include "app/widgets/number_input.hpp"
#include "core/types.hpp"
#include "gfx/colormap.hpp"

namespace app {

// A paragraph wrapped to the current wrap position (as ImGui::TextWrapped), but only at spaces, so a
// number is never split across lines; it is listed in frame_texts().
// The figure view (view=figure) draws none.
void paragraph(const std::string& text);
// paragraph() that the figure view draws too: a figure's caption.
void caption_paragraph(const std::string& text);
// `text` with line breaks (at spaces) where it passes `width`: a button label that fits a narrow screen.
std::string wrap_label(const std::string& text, float width);
// printf-style paragraph(), plain, in a colour, or in the disabled (grey) text colour.
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);
void text_wrapped_colored(const ImVec4& color, const char* fmt, ...) IM_FMTARGS(2);
void text_wrapped_disabled(const char* fmt, ...) IM_FMTARGS(1);
// Every paragraph drawn this frame, for window.attentionDemo.state().texts.
std::vector<std::string>& frame_texts();

// Rectangles of named items drawn this frame (screen pixels: x, y, w, h), for state().rects: tests find
// and check controls by name. mark_item(name) records the last item drawn.
struct NamedRect {
  std::string name;
  float x, y, w, h;
};
std::vector<NamedRect>& frame_rects();
void mark_item(const char* name);
// Records the current window (a tooltip, a popup) the same way.
void mark_window(const char* name);
// Right after BeginChild of a region that scrolls up and down: a wheel that would move it past either end
// scrolls its parent instead, as a browser chains scrolling (ImGui keeps the wheel in the child).
void chain_wheel_at_end();
// A widget or scene that has more to show without any input (a measurement spread over frames, a column
// that grew) calls this while it draws; the platform then draws the next frame at the display's rate
// instead of waiting for input (FrameOutput::next_frame).
void request_next_frame();
// How wide a tooltip's text may run before it wraps: 30 lines' height, or less on a narrow screen, so
// the tooltip fits on the screen.
float tooltip_wrap_width();

// Whether the window is narrower than kNarrowWidth CSS pixels (a phone, a small embed): the scene list
// folds into a menu and text fields put their label above a full-width box.
inline constexpr float kNarrowWidth = 900.0f;
bool narrow_screen();

// This frame's settings, for the controls (called by the app before the scene draws): the settings a lesson
// locks (lock=), each greyed out where a control edits it (LockScope), and the figure view (view=figure),
// which draws no paragraphs (paragraph()), only the scene's figure sections (section()) and no control
// of a locked setting (control_shown()).
void set_frame_settings(const Settings& s);
// Whether this frame shows the figure view.
bool figure_mode();
// Whether the control of the setting at `value` is drawn: not in the figure view when it is locked.
bool control_shown(const void* value);
// Around one control that edits the setting at `value`: greyed out (and its hover says "fixed by this
// lesson") when that setting is locked.
class LockScope {
 public:
  explicit LockScope(const void* value);
  ~LockScope();
  LockScope(const LockScope&) = delete;
  LockScope& operator=(const LockScope&) = delete;

 private:
  bool locked_;
};

// ImGui::BeginCombo whose name and choice the screen reader says when it has the keyboard focus.
bool begin_combo(const char* label, const char* preview);
// Puts the next item on the same line if it fits there (`width` wide, then its label), else on a new line:
// a row of controls wraps on a narrow screen instead of running off its edge.
void same_line_if_fits(float width, const char* label = nullptr);
// The width of a row of buttons with these labels, for same_line_if_fits.
float buttons_width(std::initializer_list<const char*> labels);
// A "(?)" marker with a wrapped tooltip.
void help_marker(const char* text);
// A red message shown in place of what could not be computed (also listed in frame_messages()).
void error_box(const std::string& message);
// A yellow note shown in place, e.g. that a text was cut (also listed in frame_messages()).
void note_box(const std::string& message);
// Every error and note shown in place this frame, for window.attentionDemo.state().messages.
std::vector<std::string>& frame_messages();
// The keyboard-focused control's value: platform::focused_value() (src/platform/imgui_hooks.hpp).
// A collapsing section that can be hidden by the URL's hide=NAME; returns true when open.
bool section(const char* title, const char* hide_name, const std::string& hide_list);
// "0.841, 0.540, ..." with `decimals` decimals.
std::string format_row(const attn::RowVec& v, int decimals);
// Horizontal bars for a short vector (one bar per entry, centred on zero), `height` pixels tall.
void value_bars(const char* id, const attn::RowVec& v, float limit, float height);
// The colormap chosen for weights and other non-negative values (URL colormap=viridis|cividis).
gfx::Colormap sequential_colormap(const Settings& s);

// The labels "0", "1", ... for positions or dimensions.
std::vector<std::string> index_labels(const std::vector<int>& indices);
std::vector<std::string> index_labels(int count);

}  // namespace app
