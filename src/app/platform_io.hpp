// What the app asks of the platform: free-text fields, the keyboard focus for the screen-reader mirror, the
// clipboard, saving files (download or disk) and opening a model file (a file picker in the browser, a path
// on the desktop).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace app {

// A one-line free-text field of the current item width, `label` after it ("##id" hides it), `hint` shown
// while it is empty. Browser: a real <input> laid over the canvas at the field's place, so paste, IME,
// dictation, phone keyboards, emoji and right-to-left text work as in any web form (src/platform/
// text_field_web.cpp). Desktop: ImGui's InputText. Returns whether the learner changed `value`; `entered`
// (when given) says whether they pressed Enter in the field.
bool text_field(const char* label, const char* hint, std::string& value, bool* entered = nullptr);

// The keyboard-focused ImGui item, caught by ImGui's item hooks (src/platform/imgui_hooks.cpp), for the
// screen-reader mirror (state().focus and the page's live region).
struct FocusedItem {
  bool present = false;  // an item has the keyboard focus and its focus rectangle is shown
  std::string label;     // what the item says ("position", "Next >"), without ImGui's ## suffix
  bool checkable = false, checked = false;
};
// The item ImGui's keyboard navigation has focused in the frame being built (or the last one).
FocusedItem focused_item();
// The focused control's value as the mirror says it (a slider's number, a text box's text); controls set
// it while drawn, and the app clears it before each frame.
std::string& focused_value();
// Called right after the scene's own panel begins: the page's skip link lands on its first tab stop.
void mark_scene_tab_stops();

// Puts text on the system clipboard (the browser's, or SDL's on the desktop).
void copy_text(const std::string& text);
// Saves bytes as a file: a download in the browser, a file in the working directory on the desktop.
// Returns where it went (a file path or "download"), or "" on failure.
std::string save_text_file(const std::string& name, const std::string& text);
// Saves an RGBA image (width x height, row 0 on top) as a PNG file, like save_text_file.
std::string save_png_file(const std::string& name, int width, int height,
                          const std::vector<std::uint8_t>& rgba);

// True in the browser: files are saved as downloads and opened with a file picker, not named by a path.
bool files_are_picked();
// Opens a model file. Desktop: reads `path` now (text, or error naming the path). Browser: opens the file
// picker and returns pending; the chosen file's text arrives later through the exported attn_load_model
// (src/platform/main_web.cpp), which calls app::load_trained_model.
struct OpenedFile {
  bool pending = false;
  std::string text, error;
};
OpenedFile open_model_file(const std::string& path);

// A model a link names (model=): a file path, which the browser fetches from the page's own site (its text
// arrives later through attn_load_model, a failure as that load's error) and the desktop reads now; or
// "trained", the model this browser tab remembered (remember_trained_model), loaded now if there is one.
void open_linked_model(const std::string& model);
// A lesson's steps file (steps=path.json). Desktop: read now. Browser: fetched from the page's own site and
// pending; the text (or the failure) arrives later through the exported attn_load_steps.
OpenedFile fetch_lesson_steps(const std::string& path);
// A pretrained model's files. Browser: the file picker, several files at once (web/checkpoint.js opens
// them in the compute worker); desktop: nothing (its files are named by checkpoint=). What was opened
// arrives in app/logic/lm_store.hpp.
void pick_checkpoint_files();
// The files a link names (checkpoint=, comma-separated paths): fetched from the page's own site in the
// browser, read now on the desktop; opened together.
void open_linked_checkpoint(const std::string& paths);

// Keeps a trained model's file text for this browser tab, so that a reload of its "Look inside" link
// finds it (sessionStorage; nothing on the desktop).
void remember_trained_model(const std::string& file_text);

}  // namespace app
