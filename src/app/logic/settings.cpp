// URL parameters <-> Settings: the one table the app, the JavaScript API and the README share.
#include "app/logic/settings.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "app/logic/scene_list.hpp"
#include "app/logic/text.hpp"
#include "app/logic/url_encoding.hpp"
#include "core/input_limits.hpp"

namespace app {
namespace {

const char* const kEnumSchemes = "none|sinusoidal|learned|rope|alibi";
const char* const kPanels =
    "controls|readings|compare|exercise|naive|similarity|notes|stats|rows|params|shuffle|mistake|offsets|"
    "rope|limits|"
    "heads|curves|predict|pair|file|breaks|longer";

bool parse_int(const std::string& v, long long lo, long long hi, int& out) {
  long long x = 0;
  const char* end = v.data() + v.size();
  auto [p, ec] = std::from_chars(v.data(), end, x);
  if (ec != std::errc() || p != end || x < lo || x > hi) return false;
  out = static_cast<int>(x);
  return true;
}

bool parse_number(const std::string& v, double lo, double hi, double& out) {
  if (v.empty()) return false;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || !std::isfinite(x) || x < lo || x > hi) return false;
  out = x;
  return true;
}

bool parse_bool(const std::string& v, bool& out) {
  if (v == "1" || v == "true") return out = true, true;
  if (v == "0" || v == "false") return out = false, true;
  return false;
}

bool one_of(const std::string& v, const std::string& allowed) {
  for (const std::string& item : split_list(allowed, '|')) {
    if (item == v) return true;
  }
  return false;
}

std::string format_number(double x) {
  return format("%.10g", x);  // what an ostream with precision(10) prints
}

// How one parameter is read and written: plain functions, given the Param for the member and limits
// they use (the helpers below), so the table holds no closures.
struct Param {
  ParamInfo info;
  bool (*read)(const Param&, Settings&, const std::string&);
  std::string (*write)(const Param&, const Settings&);
  int Settings::*int_member = nullptr;
  long long lo = 0, hi = 0;
  bool Settings::*bool_member = nullptr;
  std::string Settings::*string_member = nullptr;
};

// An integer setting held in member m, lo to hi.
Param int_param(ParamInfo info, int Settings::*m, long long lo, long long hi) {
  Param p{info,
          [](const Param& q, Settings& s, const std::string& v) {
            return parse_int(v, q.lo, q.hi, s.*q.int_member);
          },
          [](const Param& q, const Settings& s) { return std::to_string(s.*q.int_member); }};
  p.int_member = m, p.lo = lo, p.hi = hi;
  return p;
}

// A 0|1 setting held in member m.
Param bool_param(ParamInfo info, bool Settings::*m) {
  Param p{info,
          [](const Param& q, Settings& s, const std::string& v) { return parse_bool(v, s.*q.bool_member); },
          [](const Param& q, const Settings& s) { return std::string(s.*q.bool_member ? "1" : "0"); }};
  p.bool_member = m;
  return p;
}

// A setting held in string member m that takes one of `allowed`'s "a|b|c" words (the allowed text).
Param enum_param(ParamInfo info, std::string Settings::*m) {
  Param p{info,
          [](const Param& q, Settings& s, const std::string& v) {
            return one_of(v, q.info.allowed) ? (s.*q.string_member = v, true) : false;
          },
          [](const Param& q, const Settings& s) { return s.*q.string_member; }};
  p.string_member = m;
  return p;
}

std::string scene_list() {
  std::string s;
  for (const SceneInfo& sc : scene_table()) s += (s.empty() ? "" : "|") + std::string(sc.id);
  return s;
}

const std::vector<Param>& params() {
  static const std::string scenes_allowed = scene_list();
  static const std::vector<Param> table = {
      {{"scene", scenes_allowed.c_str(), "*"},
       [](const Param&, Settings& s, const std::string& v) {
         return is_scene(v) ? (s.scene = v, true) : false;
       },
       [](const Param&, const Settings& s) { return s.scene; }},
      int_param({"d_model", "2 to 1024", "clock,positions,mha,order,schemes,encoder,train"},
                &Settings::d_model, 2, 1024),
      {{"base", "a number from 2 to 1000000000", "clock,positions,word"},
       [](const Param&, Settings& s, const std::string& v) { return parse_number(v, 2.0, 1e9, s.base); },
       [](const Param&, const Settings& s) { return format_number(s.base); }},
      int_param({"pos", "0 to 100000", "clock,word,schemes"}, &Settings::pos, 0, 100000),
      int_param({"pos2", "0 to 100000", "clock,word,schemes"}, &Settings::pos2, 0, 100000),
      int_param({"count", "1 to 2048", "positions"}, &Settings::count, 1, 2048),
      int_param({"length", "1 to 100000", "positions,schemes"}, &Settings::length, 1, 100000),
      {{"emb", "1 to 16 comma-separated numbers", "word"},
       [](const Param&, Settings& s, const std::string& v) {
         int n = 0;
         for (const std::string& item : split_list(v, ',')) {
           double x = 0;
           if (!parse_number(item, -1e6, 1e6, x) || ++n > 16) return false;
         }
         return n >= 1 ? (s.emb = v, true) : false;
       },
       [](const Param&, const Settings& s) { return s.emb; }},
      int_param({"heads", "1 to 16", "mha,order,schemes,encoder,train"}, &Settings::heads, 1, 16),
      {{"text", "any UTF-8 text (up to 1024 tokens are used)", "mha,order,schemes,encoder,train"},
       [](const Param&, Settings& s, const std::string& v) {
         s.text = utf8_prefix(v, kMaxTextBytes);  // longer texts are cut (apply_param notes it)
         return true;
       },
       [](const Param&, const Settings& s) { return s.text; }},
      enum_param({"positions", kEnumSchemes, "mha,order,encoder,train"}, &Settings::positions),
      bool_param({"causal", "0|1", "mha,schemes,encoder"}, &Settings::causal),
      int_param({"seed", "0 to 2147483647", "mha,order,schemes,encoder,train"}, &Settings::seed, 0,
                2147483647),
      int_param({"head", "-1 to 15 (-1: none)", "mha,schemes"}, &Settings::head, -1, 15),
      int_param({"row", "0 to 1023", "mha"}, &Settings::row, 0, 1023),
      int_param({"span", "0 to 1024 (0: the whole text; at least 4 are shown)", "mha"}, &Settings::span, 0,
                1024),
      int_param({"from", "0 to 1023", "mha"}, &Settings::from, 0, 1023),
      int_param({"key_from", "0 to 1023", "mha"}, &Settings::key_from, 0, 1023),
      {{"perm", "empty (random from seed) or a permutation such as 2,0,1", "order"},
       [](const Param&, Settings& s, const std::string& v) {
         int n = 0;
         for (const std::string& item : split_list(v, ',')) {
           int x = 0;
           if (!parse_int(item, 0, 1023, x) || ++n > 1024) return false;
         }
         s.perm = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.perm; }},
      int_param({"slots", "1 to 4096", "mha,schemes,order"}, &Settings::slots, 1, 4096),
      int_param({"layers", "1 to 4", "train"}, &Settings::layers, 1, 4),
      enum_param({"train", "run|pause|reset", "train"}, &Settings::train),
      int_param({"max_steps", "1 to 100000", "train"}, &Settings::max_steps, 1, 100000),
      {{"model", "random|trained|a model file's path (.json, on the page's own site)", "mha"},
       [](const Param&, Settings& s, const std::string& v) {
         return one_of(v, "random|trained") || is_model_path(v) ? (s.model = v, true) : false;
       },
       [](const Param&, const Settings& s) { return s.model; }},
      int_param({"layer", "0 to 3", "mha"}, &Settings::layer, 0, 3),
      int_param({"answer", "0 to 100000", "clock"}, &Settings::answer, 0, 100000),
      enum_param({"colormap", "viridis|cividis", "*"}, &Settings::colormap),
      bool_param({"embed", "0|1", "*"}, &Settings::embed),
      {{"hide",
        "comma-separated panel names: "
        "controls,readings,compare,exercise,naive,similarity,notes,stats,rows,params,shuffle,mistake,offsets,"
        "rope,limits,heads,curves,predict,pair,file,breaks,longer",
        "*"},
       [](const Param&, Settings& s, const std::string& v) {
         for (const std::string& item : split_list(v, ',')) {
           if (!one_of(item, kPanels)) return false;
         }
         s.hide = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.hide; }},
  };
  return table;
}

const Param* find_param(const std::string& name) {
  for (const Param& p : params()) {
    if (name == p.info.name) return &p;
  }
  return nullptr;
}

bool used_by(const ParamInfo& info, const std::string& scene) {
  if (std::string(info.scenes) == "*") return true;
  for (const std::string& item : split_list(info.scenes, ',')) {
    if (item == scene) return true;
  }
  return false;
}

}  // namespace

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

bool is_model_path(const std::string& v) {
  const std::string ext = ".json";
  if (v.size() <= ext.size() || v.size() > 500) return false;
  for (size_t i = 0; i < ext.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(v[v.size() - ext.size() + i])) != ext[i]) return false;
  }
  for (const char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == '\\' || c == '<' || c == '>' || c == '"') return false;
  }
  // relative, or http(s): no other scheme (a colon before the first slash names one)
  const size_t colon = v.find(':'), slash = v.find('/');
  if (colon == std::string::npos || (slash != std::string::npos && slash < colon)) return true;
  const std::string scheme = v.substr(0, colon);
  return scheme == "http" || scheme == "https";
}

bool uses_trained_model(const Settings& s) {
  return s.model != "random";
}

Settings switch_scene(const Settings& from, const std::string& id) {
  Settings s = defaults_for(id);
  s.colormap = from.colormap;
  s.hide = from.hide;
  s.embed = from.embed;
  return s;
}

bool is_scene(const std::string& id) {
  for (const SceneInfo& s : scene_table()) {
    if (id == s.id) return true;
  }
  return false;
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
    if ((n == "embed" || n == "hide" || n == "colormap") && v == p.write(p, defaults)) continue;
    // train=run is an action (a link may start training); the address bar never keeps it, so a reload
    // or a copied link opens the scene paused
    if (n == "train") continue;
    // the token window appears only when one is chosen
    if ((n == "span" || n == "from" || n == "key_from") && s.span == 0) continue;
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

bool hidden(const Settings& s, const char* name) {
  for (const std::string& item : split_list(s.hide, ',')) {
    if (item == name) return true;
  }
  return false;
}

}  // namespace app
