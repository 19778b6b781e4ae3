// URL parameters <-> Settings: the one table the app, the JavaScript API and the README share.
#include "app/logic/settings.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "app/logic/lesson.hpp"
#include "app/logic/scene_list.hpp"
#include "app/logic/settings_table.hpp"
#include "app/logic/text.hpp"
#include "app/logic/url_encoding.hpp"
#include "core/input_limits.hpp"

namespace app {

using detail::find_param;
using detail::format_number;
using detail::Param;
using detail::params;
using detail::scene_list;
using detail::used_by;

const std::vector<Word<Training>>& words(Training) {
  static const std::vector<Word<Training>> w = {
      {Training::Run, "run"}, {Training::Pause, "pause"}, {Training::Reset, "reset"}};
  return w;
}

const std::vector<Word<ModelChoice>>& words(ModelChoice) {
  static const std::vector<Word<ModelChoice>> w = {{ModelChoice::Random, "random"},
                                                   {ModelChoice::Trained, "trained"}};
  return w;
}

const std::vector<Word<Theme>>& words(Theme) {
  static const std::vector<Word<Theme>> w = {
      {Theme::Dark, "dark"}, {Theme::Light, "light"}, {Theme::Auto, "auto"}};
  return w;
}

const std::vector<Word<Palette>>& words(Palette) {
  static const std::vector<Word<Palette>> w = {{Palette::Viridis, "viridis"}, {Palette::Cividis, "cividis"}};
  return w;
}

const std::vector<Word<PageView>>& words(PageView) {
  static const std::vector<Word<PageView>> w = {{PageView::Page, "page"}, {PageView::Figure, "figure"}};
  return w;
}

const std::vector<Word<HeadsView>>& words(HeadsView) {
  static const std::vector<Word<HeadsView>> w = {
      {HeadsView::Auto, "auto"}, {HeadsView::Grid, "grid"}, {HeadsView::Text, "text"}};
  return w;
}

const std::vector<Word<Ablation>>& words(Ablation) {
  static const std::vector<Word<Ablation>> w = {{Ablation::Zero, "zero"}, {Ablation::Mean, "mean"}};
  return w;
}

bool Settings::operator==(const Settings& o) const {
  for (const Param& p : params()) {
    if (p.write(p, *this) != p.write(p, o)) return false;
  }
  return true;
}

Settings defaults_for(const std::string& scene) {
  Settings s;
  s.scene = is_scene(scene) ? scene : "start";
  if (s.scene == "positions") s.d_model = 64, s.count = 100;
  if (s.scene == "word") s.pos = 1, s.pos2 = 3;
  if (s.scene == "mha") s.d_model = 16, s.heads = 4;
  if (s.scene == "order") s.d_model = 16, s.heads = 4;
  if (s.scene == "schemes") s.d_model = 16, s.heads = 2, s.head = 0, s.length = 400, s.pos = 10, s.pos2 = 7;
  if (s.scene == "encoder") s.d_model = 16, s.heads = 2;
  if (s.scene == "train") {
    s.d_model = 32, s.heads = 4, s.layers = 1, s.seed = 1;
    s.text = "Please refund the balloons, not the cake.";
  }
  if (s.scene == "induction") s.positions = attn::Scheme::Rope, s.seed = 1, s.max_steps = 2000;
  if (s.scene == "lm")
    s.seed = 1, s.text = "Once upon a time, there was a little girl named Lily. She liked to";
  return s;
}

const std::vector<ParamInfo>& param_table() {
  static const std::vector<ParamInfo> infos = [] {
    std::vector<ParamInfo> v;
    for (const Param& p : params()) v.push_back(p.info);
    return v;
  }();
  return infos;
}

const std::vector<SceneInfo>& scene_table() {
#define ATTN_SCENE_INFO(id, title, draw, instruction) {#id, title, instruction},
  static const std::vector<SceneInfo> scenes = {ATTN_SCENE_LIST(ATTN_SCENE_INFO)};
#undef ATTN_SCENE_INFO
  return scenes;
}

namespace {

// A path a link may name: no control or HTML characters, relative (or, with web, http(s)): a colon before
// the first slash names a scheme.
bool is_safe_path(const std::string& v, bool web) {
  for (const char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == '\\' || c == '<' || c == '>' || c == '"') return false;
  }
  const size_t colon = v.find(':'), slash = v.find('/');
  if (colon == std::string::npos || (slash != std::string::npos && slash < colon)) return true;
  const std::string scheme = v.substr(0, colon);
  return web && (scheme == "http" || scheme == "https");
}

}  // namespace

bool is_checkpoint_paths(const std::string& v) {
  if (v.empty() || v.size() > 2000) return false;
  for (const std::string& path : split_list(v, ',')) {
    if (path.empty() || !is_safe_path(path, false)) return false;
  }
  return true;
}

bool is_model_path(const std::string& v) {
  const std::string ext = ".json";
  if (v.size() <= ext.size() || v.size() > 500) return false;
  for (size_t i = 0; i < ext.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(v[v.size() - ext.size() + i])) != ext[i]) return false;
  }
  return is_safe_path(v, true);
}

bool figure_view(const Settings& s) {
  return s.view == PageView::Figure;
}

bool figure_section(const std::string& scene, const std::string& name) {
  if (name == "controls") return true;
  static const char* const kFigures[][2] = {
      {"clock", "dials"},   {"clock", "readings"}, {"order", "compare"},    {"schemes", "offsets"},
      {"encoder", "heads"}, {"train", "curves"},   {"induction", "curves"},
  };
  for (const auto& f : kFigures) {
    if (scene == f[0] && name == f[1]) return true;
  }
  return false;
}

bool uses_trained_model(const Settings& s) {
  return s.model != ModelChoice::Random;
}

void keep_page_settings(const Settings& from, Settings& to) {
  for (const Param& p : params()) {
    if (std::string(p.info.name) != "scene" && std::string(p.info.scenes) == "*")
      p.read(p, to, p.write(p, from));
  }
}

Settings switch_scene(const Settings& from, const std::string& id) {
  Settings s = defaults_for(id);
  keep_page_settings(from, s);
  return s;
}

int scene_index(const std::string& id) {
  const std::vector<SceneInfo>& scenes = scene_table();
  for (size_t i = 0; i < scenes.size(); ++i) {
    if (id == scenes[i].id) return static_cast<int>(i);
  }
  return -1;
}

bool is_scene(const std::string& id) {
  return scene_index(id) >= 0;
}

bool apply_param(Settings& s, const std::string& name, const std::string& value, std::string& note) {
  note.clear();
  const Param* p = find_param(name);
  if (!p) {
    note = "ignored unknown setting '" + attn::one_line(name, 60) + "'";
    return false;
  }
  Settings trial = s;
  if (!p->read(*p, trial, value)) {
    note = "ignored " + name + "=" + attn::one_line(value, 60) + ": allowed " + p->info.allowed;
    std::vector<LessonStep> parsed;
    if (name == "steps") note += " (" + parse_steps(value, parsed) + ")";  // what is wrong with it
    return false;
  }
  if (name == "text" && value.size() > kMaxTextBytes) {
    note = "the text was cut to its first " + std::to_string(kMaxTextBytes) + " bytes of " +
           std::to_string(value.size()) + " (the core reads at most its first 1024 tokens)";
  }
  s = trial;
  return true;
}

std::string utf8_prefix(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // not inside a character
  return text.substr(0, end);
}

Settings parse_query(const std::string& query, std::vector<std::string>& notes) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string q = (!query.empty() && query[0] == '?') ? query.substr(1) : query;
  std::string scene = "start";  // a link without a scene opens the first screen
  for (const std::string& item : split_list(q, '&')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    std::string name = percent_decode(item.substr(0, eq));
    std::string value = eq == std::string::npos ? "" : percent_decode(item.substr(eq + 1));
    if (name == "scene") {
      if (is_scene(value)) {
        scene = value;
      } else {
        notes.push_back("ignored scene=" + attn::one_line(value, 60) + ": allowed " + scene_list());
      }
      continue;
    }
    pairs.emplace_back(std::move(name), std::move(value));
  }
  Settings s = defaults_for(scene);
  for (const auto& [name, value] : pairs) {
    std::string note;
    apply_param(s, name, value, note);
    if (!note.empty()) notes.push_back(note);
  }
  return s;
}

std::string to_query(const Settings& s) {
  std::string out;
  const Settings defaults = defaults_for(s.scene);
  for (const Param& p : params()) {
    if (!used_by(p.info, s.scene)) continue;
    const std::string v = p.write(p, s);
    // global switches appear only when set, so a plain link stays short
    const std::string n = p.info.name;
    if ((n == "embed" || n == "view" || n == "hide" || n == "colormap" || n == "theme" || n == "font_scale" ||
         n == "lock" || n == "caption" || n == "steps") &&
        v == p.write(p, defaults))
      continue;
    if (n == "step" && s.steps.empty()) continue;  // a step only means something with steps
    // train=run is an action (a link may start training); the address bar never keeps it, so a reload
    // or a copied link opens the scene paused
    if (n == "train") continue;
    // the token window appears only when one is chosen
    if ((n == "span" || n == "from" || n == "key_from") && s.span == 0) continue;
    if (n == "heads_view" && v == p.write(p, defaults)) continue;  // auto: the scene chooses
    // every head on, and zeros for a head switched off: the defaults stay out of a plain link
    if ((n == "off" || n == "ablate") && v == p.write(p, defaults)) continue;
    out += (out.empty() ? "" : "&") + n + "=" + percent_encode(v);
  }
  return out;
}

std::string param_value(const Settings& s, const std::string& name) {
  const Param* p = find_param(name);
  return p ? p->write(*p, s) : "";
}

const std::vector<SlotPreset>& learned_slot_presets() {
  static const std::vector<SlotPreset> presets = {
      {"Arjun's router: 128 slots", 128}, {"BERT: 512 slots", 512}, {"GPT-2: 1,024 slots", 1024}};
  return presets;
}

void apply_slot_preset(Settings& s, const SlotPreset& p) {
  s.slots = p.slots;
  s.length = p.slots + 1;
}

bool locked(const Settings& s, const std::string& name) {
  for (const std::string& item : split_list(s.lock, ',')) {
    if (item == name) return true;
  }
  return false;
}

const void* setting_address(const Settings& s, const std::string& name) {
  const Param* p = find_param(name);
  if (!p) return nullptr;
  if (p->int_member) return &(s.*p->int_member);
  if (p->bool_member) return &(s.*p->bool_member);
  if (name == "scene") return &s.scene;
  if (name == "base") return &s.base;
  if (name == "emb") return &s.emb;
  if (name == "text") return &s.text;
  if (name == "perm") return &s.perm;
  if (name == "model") return &s.model;
  if (name == "positions") return &s.positions;
  if (name == "train") return &s.train;
  if (name == "colormap") return &s.colormap;
  if (name == "theme") return &s.theme;
  if (name == "view") return &s.view;
  if (name == "heads_view") return &s.heads_view;
  if (name == "off") return &s.off;
  if (name == "ablate") return &s.ablate;
  if (name == "font_scale") return &s.font_scale;
  return nullptr;  // hide, lock, caption, steps: no control edits them
}

bool hidden(const Settings& s, const char* name) {
  for (const std::string& item : split_list(s.hide, ',')) {
    if (item == name) return true;
  }
  return false;
}

}  // namespace app
