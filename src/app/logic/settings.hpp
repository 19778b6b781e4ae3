// Every setting of the app, and the URL parameter table that reads and writes them (no UI code).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/positions.hpp"

namespace app {

// The settings that take one of a few words (their URL text is converted at the edge: settings_table.cpp).
// train=: the Train scene's training (reset is an action: it starts over, paused).
enum class Training { Run, Pause, Reset };
// model=: the multi-head scene's weights: random (seeded), the model trained in this tab, or a model file
// (its path in Settings::model_file).
enum class ModelChoice { Random, Trained, File };
// theme=: the page's look (auto: the page's prefers-color-scheme).
enum class Theme { Dark, Light, Auto };
// colormap=: the heatmaps' sequential colours.
enum class Palette { Viridis, Cividis };
// view=: the whole page, or the figure and its unlocked controls only.
enum class PageView { Page, Figure };
// heads_view=: the multi-head scene's heads as grids, as text, or chosen by the scene (text when a grid is
// too small).
enum class HeadsView { Auto, Grid, Text };
// ablate=: what a head the Train scene switches off (off=) outputs: zeros, or its mean output over the
// training emails.
enum class Ablation { Zero, Mean };

// Each value's URL word, in the README's order (a model file has no word: its path is its text).
template <class E>
struct Word {
  E value;
  const char* word;
};
const std::vector<Word<Training>>& words(Training);
const std::vector<Word<ModelChoice>>& words(ModelChoice);
const std::vector<Word<Theme>>& words(Theme);
const std::vector<Word<Palette>>& words(Palette);
const std::vector<Word<PageView>>& words(PageView);
const std::vector<Word<HeadsView>>& words(HeadsView);
const std::vector<Word<Ablation>>& words(Ablation);
// e's word ("" when it has none).
template <class E>
std::string word_of(E e) {
  for (const Word<E>& w : words(E{})) {
    if (w.value == e) return w.word;
  }
  return "";
}
// Sets `out` when `text` is one of E's words; false (out unchanged) otherwise.
template <class E>
bool from_word(const std::string& text, E& out) {
  for (const Word<E>& w : words(E{})) {
    if (text == w.word) return out = w.value, true;
  }
  return false;
}

// One place for all settings; each scene reads the ones it uses. Names match the URL parameters.
struct Settings {
  std::string scene = "start";
  int d_model = 4;
  double base = 10000.0;
  int pos = 1;
  int pos2 = 0;
  int count = 50;
  int heads = 2;
  std::string text = "Refund my eggless cake, it was cold.";
  attn::Scheme positions = attn::kLessonScheme;  // one of attn::pipeline_schemes()
  bool causal = false;
  int seed = 7;
  Palette colormap = Palette::Viridis;
  bool embed = false;
  PageView view = PageView::Page;
  std::string hide;                        // comma-separated panel names to hide
  std::string emb = "0.5,0.2,-0.1,0.3";    // the word scene's editable embedding
  int length = 300;                        // text length for the naive position schemes
  int answer = 0;                          // the learner's answer to a scene's exercise (0: none yet)
  int head = -1;                           // the enlarged (mha) or shown (schemes) head; -1: none / head 0
  int row = 0;                             // the query token of the row view
  int span = 0;                            // mha grids: tokens in the window shown (0: the whole text)
  int from = 0, key_from = 0;              // mha grids: the window's first query and first key
  HeadsView heads_view = HeadsView::Auto;  // mha
  std::string perm;                        // the shuffle test's permutation, e.g. "2,0,1"; empty: from seed
  int slots = 128;                         // slots of a learned position table
  int layers = 1;                          // attention layers of the trained router (train scene)
  Training train = Training::Pause;  // train scene: run | pause | reset (an action: starts over, paused)
  int max_steps = 3000;              // train scene: training stops at this step count
  std::string off;                   // train scene: heads switched off, "layer.head,..." from 0; empty: none
  Ablation ablate = Ablation::Zero;  // train scene: what a switched-off head outputs
  ModelChoice model = ModelChoice::Random;  // mha scene: random (seeded) weights, trained, or a model file
  std::string model_file;                   // model == File: the model file's path (else empty)
  int layer = 0;                            // mha scene, trained model: whose layer's heads are shown
  std::string checkpoint;    // lm scene: a pretrained model's files named by a link, comma-separated paths
  int generate = 0;          // lm scene: tokens generated after the text
  double temperature = 0;    // lm scene: 0 greedy, else sampled at this temperature (seeded by seed)
  std::string grid;          // lm scene: the enlarged head, "layer.head"; empty: none
  std::string find = "all";  // lm scene: the role whose heads the model view marks
  // the page and the lesson (kept when the scene changes)
  Theme theme = Theme::Dark;  // dark | light | auto (the page's prefers-color-scheme)
  double font_scale = 1.0;    // text size, times the default
  std::string lock;           // comma-separated settings the learner cannot change
  std::string caption;        // a short text above the figure
  std::string steps;          // a guided sequence: JSON text, or the path of a .json file
  int step = 1;               // the step of `steps` shown, from 1
  bool operator==(const Settings& o) const;
  bool operator!=(const Settings& o) const { return !(*this == o); }
};

// The defaults a scene starts from when a URL names it without other settings.
Settings defaults_for(const std::string& scene);

// One URL parameter: its name, what it holds and which scenes use it ("*" for all). What each one means
// is written beside the README's table (url_reference_markdown).
struct ParamInfo {
  const char* name;
  const char* allowed;  // e.g. "2 to 1024", "none|sinusoidal|..."
  const char* scenes;   // comma-separated scene ids, or "*"
};
const std::vector<ParamInfo>& param_table();

// The scenes a URL can name, in lesson order, with their titles and what to do in each.
struct SceneInfo {
  const char* id;
  const char* title;
  const char* instruction;
};
const std::vector<SceneInfo>& scene_table();
// id -> its place in scene_table(), or -1 for an unknown id.
int scene_index(const std::string& id);
bool is_scene(const std::string& id);
// Whether v names a model file for model=: ends in .json, at most 500 bytes, no control characters, and
// relative or http(s) (the page fetches it only from its own site).
bool is_model_path(const std::string& v);
// A pretrained model's files named by a link: comma-separated relative paths (no scheme, no control or
// HTML characters), at most 2,000 bytes.
bool is_checkpoint_paths(const std::string& v);
// Whether the multi-head scene shows a trained model (model=trained or a model file), not random weights.
bool uses_trained_model(const Settings& s);
// Copies the page-wide settings (those every scene uses: colours, look, hidden panels, embed mode and the
// lesson) from `from` into `to`.
void keep_page_settings(const Settings& from, Settings& to);
// The settings after moving to scene `id` (a known scene): its defaults, keeping the page-wide choices.
Settings switch_scene(const Settings& from, const std::string& id);

// The longest text kept (bytes, cut at a character boundary): far more than the 1024 tokens the core reads.
inline constexpr std::size_t kMaxTextBytes = 100000;

// Sets one parameter from its URL text. Returns false and fills `note` when the value is malformed or
// out of range (the setting keeps its value); an accepted value can have a note too (a text that was cut).
// Echoed names and values in notes are cut and kept on one line.
bool apply_param(Settings& s, const std::string& name, const std::string& value, std::string& note);
// The longest prefix of UTF-8 `text` of at most max_bytes that does not end inside a character.
std::string utf8_prefix(const std::string& text, std::size_t max_bytes);

// Parses "?scene=clock&d_model=4&pos=44": starts from the named scene's defaults, applies every known
// parameter, and adds a note for each one that is unknown or malformed (those are ignored).
Settings parse_query(const std::string& query, std::vector<std::string>& notes);

// "scene=clock&d_model=4&..." with every parameter the current scene uses, percent-encoded.
std::string to_query(const Settings& s);

// The text of setting `name` as it appears in the URL ("" for an unknown name).
std::string param_value(const Settings& s, const std::string& name);

// Real learned position tables' sizes, offered as presets in the schemes scene's limits panel: each sets
// `slots` and an email of slots + 1 tokens, whose last token needs the first slot past the end.
struct SlotPreset {
  const char* label;  // "BERT: 512 slots"
  int slots;
};
const std::vector<SlotPreset>& learned_slot_presets();
void apply_slot_preset(Settings& s, const SlotPreset& p);

// The longest caption= kept (bytes), and the longest steps= text.
inline constexpr std::size_t kMaxCaptionBytes = 300;
inline constexpr std::size_t kMaxStepsBytes = 20000;
// Is setting `name` in s.lock (the learner cannot change it)?
bool locked(const Settings& s, const std::string& name);
// Where setting `name` lives in s (for widgets that check whether the value they edit is locked), or
// nullptr for an unknown name.
const void* setting_address(const Settings& s, const std::string& name);

// Whether s shows the figure view (view=figure): a course page's figure, without paragraphs.
bool figure_view(const Settings& s);
// Whether the figure view of `scene` shows its section `name` (hide= name): the controls and the
// sections that are the scene's figure.
bool figure_section(const std::string& scene, const std::string& name);

// Is panel `name` listed in s.hide?
bool hidden(const Settings& s, const char* name);

// Markdown table of scenes and parameters with their meanings, for the README (kept equal to it by a test;
// src/app/logic/url_reference.cpp).
std::string url_reference_markdown();

}  // namespace app
