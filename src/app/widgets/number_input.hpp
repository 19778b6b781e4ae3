// Numeric settings' controls: sliders with - / + steppers, keys as in a web form, typed values, fine drags.
#pragma once

namespace app {

// ImGui::SliderInt with - / + steppers after it, for a setting from lo to hi. With the keyboard focus:
// arrows move one step, PageUp / PageDown a tenth of the range, Home / End to the ends; a digit (or Enter)
// opens the typed entry. Tab lands on it without opening the entry. A drag with Shift held, or after a
// finger rests on it for a moment, moves one step per 2 CSS pixels; a tap on a touch screen leaves it alone
// (only a drag moves it). Not drawn when the figure view hides its locked setting (control_shown()).
bool slider_int(const char* label, int* v, int lo, int hi, const char* format = "%d", int flags = 0);
// A typed whole number with - / + steppers of `step`, kept from lo to hi.
bool input_int(const char* label, int* v, int lo, int hi, int step = 1);
// A typed number with steppers that multiply or divide it by `factor`, kept from lo to hi.
bool input_number(const char* label, double* v, double lo, double hi, double factor, const char* format);

// What the numeric controls keep between frames (held by the UiState).
struct NumberInputState {
  unsigned int fresh =
      0;              // the entry opened last frame (an ImGuiID): its text goes before the typed characters
  int held = 0;       // the value when the active slider was pressed
  bool fine = false;  // the active slider's drag is a fine one
  int fine_v = 0;     // the fine drag's value and pointer x when it began
  float fine_x = 0.0f;
};

}  // namespace app
