// The URL parameter table: each setting's name, allowed values, scenes, and how it is read and written.
#include "app/logic/settings_table.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "app/logic/lesson.hpp"
#include "app/logic/scene_list.hpp"
#include "app/logic/text.hpp"
#include "app/logic/url_encoding.hpp"
#include "core/input_limits.hpp"
#include "core/pipeline.hpp"

namespace app::detail {
namespace {

// The schemes positions= takes (the pipeline's).
const std::vector<attn::Scheme>& setting_schemes() {
  return attn::pipeline_schemes();
}

// "a|b|c": the schemes' names, or an enum's words.
std::string scheme_choices() {
  std::string out;
  for (const attn::Scheme s : setting_schemes()) out += (out.empty() ? "" : "|") + attn::scheme_name(s);
  return out;
}
template <class E>
std::string word_choices() {
  std::string out;
  for (const Word<E>& w : words(E{})) out += (out.empty() ? "" : "|") + std::string(w.word);
  return out;
}
// What hide= takes: the scenes' panels, and the parts of the page around them (with what each is).
const char* const kPanels =
    "controls|dials|readings|compare|exercise|naive|similarity|notes|stats|rows|params|shuffle|mistake|"
    "offsets|rope|limits|heads|curves|predict|pair|file|breaks|longer|grids|next|enlarged";
struct PagePart {
  const char* name;
  const char* what;  // null: the name says it
};
const PagePart kPageParts[] = {{"menu", "the menu bar"},
                               {"scenes", "the scene list"},
                               {"path", "Back / Next between scenes"},
                               {"caption", nullptr}};

bool parse_int(const std::string& v, long long lo, long long hi, int& out) {
  long long x = 0;
  const char* end = v.data() + v.size();
  auto [p, ec] = std::from_chars(v.data(), end, x);
  if (ec != std::errc() || p != end || x < lo || x > hi) return false;
  out = static_cast<int>(x);
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

bool hideable(const std::string& name) {
  if (one_of(name, kPanels)) return true;
  for (const PagePart& part : kPageParts) {
    if (name == part.name) return true;
  }
  return false;
}

// hide='s allowed text, from the same two lists.
std::string hide_allowed() {
  std::string out = "comma-separated panel names: ";
  for (const char* c = kPanels; *c; ++c) out += *c == '|' ? ',' : *c;
  const char* sep = "; ";
  for (const PagePart& part : kPageParts) {
    out += sep + std::string(part.name) + (part.what ? " (" + std::string(part.what) + ")" : "");
    sep = ", ";
  }
  return out;
}

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

// A setting held in enum member M, read and written as its words (settings.hpp).
template <class E, E Settings::*M>
Param word_param(ParamInfo info) {
  return {info, [](const Param&, Settings& s, const std::string& v) { return from_word(v, s.*M); },
          [](const Param&, const Settings& s) { return word_of(s.*M); }};
}

// The longest off= kept: every head of 4 layers of 16, listed.
constexpr size_t kMaxOffBytes = 400;

bool has_control_chars(const std::string& v) {
  for (const char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

}  // namespace

std::string format_number(double x) {
  return format("%.10g", x);  // what an ostream with precision(10) prints
}

std::string scene_list() {
  std::string s;
  for (const SceneInfo& sc : scene_table()) s += (s.empty() ? "" : "|") + std::string(sc.id);
  return s;
}

const std::vector<Param>& params() {
  static const std::string scenes_allowed = scene_list();
  static const std::string schemes_allowed = scheme_choices();
  static const std::string train_allowed = word_choices<Training>();
  static const std::string model_allowed =
      word_choices<ModelChoice>() + "|a model file's path (.json, on the page's own site)";
  static const std::string colormap_allowed = word_choices<Palette>();
  static const std::string hide_text = hide_allowed();
  static const std::string theme_allowed = word_choices<Theme>();
  static const std::string view_allowed = word_choices<PageView>();
  static const std::string heads_view_allowed = word_choices<HeadsView>();
  static const std::string ablate_allowed = word_choices<Ablation>();
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
      {{"text", "any UTF-8 text (up to 1024 tokens are used)", "mha,order,schemes,encoder,train,lm"},
       [](const Param&, Settings& s, const std::string& v) {
         s.text = utf8_prefix(v, kMaxTextBytes);  // longer texts are cut (apply_param notes it)
         return true;
       },
       [](const Param&, const Settings& s) { return s.text; }},
      {{"positions", schemes_allowed.c_str(), "mha,order,encoder,train,induction"},
       [](const Param&, Settings& s, const std::string& v) {
         for (const attn::Scheme scheme : setting_schemes()) {
           if (v == attn::scheme_name(scheme)) return s.positions = scheme, true;
         }
         return false;
       },
       [](const Param&, const Settings& s) { return attn::scheme_name(s.positions); }},
      bool_param({"causal", "0|1", "mha,schemes,encoder"}, &Settings::causal),
      int_param({"seed", "0 to 2147483647", "mha,order,schemes,encoder,train,induction,lm"}, &Settings::seed,
                0, 2147483647),
      int_param({"head", "-1 to 15 (-1: none)", "mha,schemes"}, &Settings::head, -1, 15),
      int_param({"row", "0 to 1023", "mha"}, &Settings::row, 0, 1023),
      int_param({"span",
                 "0 to 1024 (0: the whole text, or a readable window around `row` when its cells would be "
                 "under 3 px; at least 4 are shown)",
                 "mha"},
                &Settings::span, 0, 1024),
      int_param({"from", "0 to 1023", "mha"}, &Settings::from, 0, 1023),
      int_param({"key_from", "0 to 1023", "mha"}, &Settings::key_from, 0, 1023),
      word_param<HeadsView, &Settings::heads_view>({"heads_view", heads_view_allowed.c_str(), "mha"}),
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
      word_param<Training, &Settings::train>({"train", train_allowed.c_str(), "train,induction"}),
      int_param({"max_steps", "1 to 100000", "train,induction"}, &Settings::max_steps, 1, 100000),
      // any short line: the Train and Induction scenes check it against the model's heads and says what is
      // wrong in place
      {{"off",
        "empty, or comma-separated heads as layer.head counting from 0, e.g. 1.2,0.3 (up to 400 bytes)",
        "train,induction,lm"},
       [](const Param&, Settings& s, const std::string& v) {
         if (v.size() > kMaxOffBytes || has_control_chars(v)) return false;
         s.off = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.off; }},
      word_param<Ablation, &Settings::ablate>({"ablate", ablate_allowed.c_str(), "train"}),
      {{"model", model_allowed.c_str(), "mha"},
       [](const Param&, Settings& s, const std::string& v) {
         if (from_word(v, s.model)) return s.model_file.clear(), true;
         if (!is_model_path(v)) return false;
         s.model = ModelChoice::File, s.model_file = v;
         return true;
       },
       [](const Param&, const Settings& s) {
         return s.model == ModelChoice::File ? s.model_file : word_of(s.model);
       }},
      int_param({"layer", "0 to 3", "mha"}, &Settings::layer, 0, 3),
      {{"checkpoint",
        "comma-separated paths on this page's site, e.g. m/stories15M.bin,m/tokenizer.bin; in the page a "
        "path ending in / is a Hugging Face folder (m/gpt2/)",
        "lm"},
       [](const Param&, Settings& s, const std::string& v) {
         return v.empty() || is_checkpoint_paths(v) ? (s.checkpoint = v, true) : false;
       },
       [](const Param&, const Settings& s) { return s.checkpoint; }},
      int_param({"generate", "0 to 256", "lm"}, &Settings::generate, 0, 256),
      {{"temperature", "0 (greedy), or 0.05 to 2", "lm"},
       [](const Param&, Settings& s, const std::string& v) {
         double t = 0;
         if (!parse_number(v, 0.0, 2.0, t) || (t > 0 && t < 0.05)) return false;
         return s.temperature = t, true;
       },
       [](const Param&, const Settings& s) { return format_number(s.temperature); }},
      {{"grid", "empty, or layer.head, e.g. 3.5", "lm"},
       [](const Param&, Settings& s, const std::string& v) {
         int l = 0, h = 0;
         const std::vector<std::string> parts = split_list(v, '.');
         if (!v.empty() &&
             !(parts.size() == 2 && parse_int(parts[0], 0, 255, l) && parse_int(parts[1], 0, 255, h)))
           return false;
         return s.grid = v, true;
       },
       [](const Param&, const Settings& s) { return s.grid; }},
      {{"find", "all, previous_token, induction or first_token", "lm"},
       [](const Param&, Settings& s, const std::string& v) {
         for (const char* r : {"all", "previous_token", "induction", "first_token"}) {
           if (v == r) return s.find = v, true;
         }
         return false;
       },
       [](const Param&, const Settings& s) { return s.find; }},
      int_param({"answer", "0 to 100000", "clock"}, &Settings::answer, 0, 100000),
      word_param<Palette, &Settings::colormap>({"colormap", colormap_allowed.c_str(), "*"}),
      bool_param({"embed", "0|1", "*"}, &Settings::embed),
      word_param<PageView, &Settings::view>({"view", view_allowed.c_str(), "*"}),
      {{"hide", hide_text.c_str(), "*"},
       [](const Param&, Settings& s, const std::string& v) {
         for (const std::string& item : split_list(v, ',')) {
           if (!hideable(item)) return false;
         }
         s.hide = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.hide; }},
      word_param<Theme, &Settings::theme>({"theme", theme_allowed.c_str(), "*"}),
      {{"font_scale", "a number from 0.5 to 2", "*"},
       [](const Param&, Settings& s, const std::string& v) {
         return parse_number(v, 0.5, 2.0, s.font_scale);
       },
       [](const Param&, const Settings& s) { return format_number(s.font_scale); }},
      {{"lock", "comma-separated setting names", "*"},
       [](const Param&, Settings& s, const std::string& v) {
         for (const std::string& item : split_list(v, ',')) {
           if (item == "lock" || !find_param(item)) return false;
         }
         s.lock = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.lock; }},
      {{"caption", "a short text (up to 300 bytes, one line)", "*"},
       [](const Param&, Settings& s, const std::string& v) {
         if (v.size() > kMaxCaptionBytes || has_control_chars(v)) return false;
         s.caption = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.caption; }},
      {{"steps", "a JSON list of steps [{\"caption\": ..., \"settings\": {...}}] or a .json file's path",
        "*"},
       [](const Param&, Settings& s, const std::string& v) {
         std::vector<LessonStep> parsed;
         if (!v.empty() && !is_model_path(v) && !parse_steps(v, parsed).empty()) return false;
         s.steps = v;
         return true;
       },
       [](const Param&, const Settings& s) { return s.steps; }},
      int_param({"step", "1 to 50", "*"}, &Settings::step, 1, static_cast<long long>(kMaxSteps)),
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

}  // namespace app::detail
