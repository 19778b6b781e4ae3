// The app frame (menu, scene list, notes, current scene) and the JSON API behind window.attentionDemo.
#include "app/app.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>

#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/platform_io.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "gfx/heatmap_renderer.hpp"
#include "model_io/model_json.hpp"

namespace app {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxNotes = 20;  // notes kept on screen and in state()

std::string scene_title(const std::string& id) {
  for (const SceneInfo& s : scene_table()) {
    if (id == s.id) return s.title;
  }
  return id;
}

// Keeps the newest kMaxNotes notes, counting the ones that fall off in `dropped`.
void add_note(std::vector<std::string>& notes, std::size_t& dropped, const std::string& n) {
  notes.push_back(n);
  if (notes.size() > kMaxNotes) {
    notes.erase(notes.begin());
    ++dropped;
  }
}

void draw_notes(std::vector<std::string>& notes, std::size_t& dropped) {
  if (notes.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ink(Ink::Note));
  if (dropped > 0) text_wrapped("(%zu earlier notes left out)", dropped);
  for (const std::string& n : notes) text_wrapped("Note: %s", n.c_str());
  ImGui::PopStyleColor();
  if (ImGui::Button("Dismiss notes")) notes.clear(), dropped = 0;
}

// Step k of n in lesson order, Back / Next, and the scene's one instruction.
void draw_path_bar(Settings& settings) {
  const std::vector<SceneInfo>& scenes = scene_table();
  size_t at = 0;
  while (at + 1 < scenes.size() && settings.scene != scenes[at].id) ++at;
  ImGui::BeginDisabled(at == 0);
  const bool back = ImGui::Button("< Back");
  mark_item("path/back");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(at + 1 == scenes.size());
  const bool next = ImGui::Button("Next >");
  mark_item("path/next");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("%zu of %zu: %s", at + 1, scenes.size(), scenes[at].title);
  text_wrapped_colored(ink(Ink::Info), "%s", scenes[at].instruction);
  ImGui::Separator();
  if (back) settings = switch_scene(settings, scenes[at - 1].id);
  if (next) settings = switch_scene(settings, scenes[at + 1].id);
}

// Whether a URL query names a parameter, e.g. "step" in "?steps=a.json&step=2".
bool names_param(const std::string& query, const std::string& name) {
  for (size_t at = query.find(name + "="); at != std::string::npos; at = query.find(name + "=", at + 1)) {
    if (at == 0 || query[at - 1] == '?' || query[at - 1] == '&') return true;
  }
  return false;
}

}  // namespace

App::App(const std::string& query)
    : state_(std::make_unique<AppState>()), lesson_(names_param(query, "step")) {
  // a model loaded before the App (the desktop's --model) is kept, with the version counters
  LogicState& before = logic_state();
  state_->logic.last_version = before.last_version;
  state_->logic.trained.current = std::move(before.trained.current);
  state_->logic.trained.versions = before.trained.versions;
  state_->logic.trained.load = before.trained.load;
  use_logic_state(&state_->logic);
  use_ui_state(&state_->ui);
  state_->scenes.resize(scene_draws().size());
  std::vector<std::string> parsed;
  settings_ = parse_query(query, parsed);
  for (const std::string& n : parsed) add_note(notes_, notes_dropped_, n);
  // last_query_ stays empty: the first frame writes the normalised URL (dropping ignored parameters).
}

App::~App() {
  use_logic_state(nullptr);
  use_ui_state(nullptr);
}

bool App::wants_next_frame() const {
  return next_frame_requested_ || settings_.train == Training::Run || !(settings_ == shown_settings_);
}

void App::frame() {
  // What a frame writes starts empty: a frame that fails half-way reports nothing rather than what an
  // older frame drew or asked for.
  state_->ui.out.clear();
  state_->logic.pipelines.pending = false;
  shown_fills_.clear();
  shown_error_.clear();
  begin_heatmap_frame();
  focused_value().clear();
  start_lesson();
  const Settings before = settings_;  // the lesson's locked settings are kept as they are now
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const bool figure = figure_view(settings_);  // a course page's figure: no menus, lists or paragraphs
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
      ImGuiWindowFlags_NoSavedSettings |
      (settings_.embed || figure || hidden(settings_, "menu") ? 0 : ImGuiWindowFlags_MenuBar);
  // the keyboard works from the first key: Tab reaches the first control without a click first
  if (ImGui::GetFrameCount() <= 1) ImGui::SetNextWindowFocus();
  ImGui::Begin("Attention, in order", nullptr, flags);

  const bool narrow = narrow_screen();
  const bool scene_locked = locked(settings_, "scene");
  if ((flags & ImGuiWindowFlags_MenuBar) && ImGui::BeginMenuBar()) {
    ImGui::BeginDisabled(scene_locked);
    if (narrow && ImGui::BeginMenu("Scenes")) {  // the scene list, folded
      for (const SceneInfo& s : scene_table()) {
        if (ImGui::MenuItem(s.title, nullptr, settings_.scene == s.id) && settings_.scene != s.id) {
          settings_ = switch_scene(settings_, s.id);
        }
      }
      ImGui::EndMenu();
    }
    if (narrow) mark_item("menu/scenes");
    ImGui::EndDisabled();
    if (ImGui::BeginMenu("View")) {
      const bool cividis = settings_.colormap == Palette::Cividis;
      if (ImGui::MenuItem("Viridis colours", nullptr, !cividis)) settings_.colormap = Palette::Viridis;
      if (ImGui::MenuItem("Cividis colours (colour-blind safe)", nullptr, cividis))
        settings_.colormap = Palette::Cividis;
      ImGui::EndMenu();
    }
    if (!narrow) ImGui::TextDisabled("positional encoding and multi-head attention, computed live");
    ImGui::EndMenuBar();
  }

  if (!settings_.embed && !figure && !hidden(settings_, "scenes") && !narrow) {
    ImGui::BeginChild("scenes", ImVec2(170, 0), true, ImGuiWindowFlags_NavFlattened);
    ImGui::BeginDisabled(scene_locked);
    ImGui::TextDisabled("Scenes");
    for (const SceneInfo& s : scene_table()) {
      // each at least 24 CSS px tall (WCAG 2.5.8's target)
      if (ImGui::Selectable(s.title, settings_.scene == s.id, 0, ImVec2(0.0f, ImGui::GetFrameHeight())) &&
          settings_.scene != s.id) {
        settings_ = switch_scene(settings_, s.id);
      }
    }
    ImGui::EndDisabled();
    ImGui::EndChild();
    ImGui::SameLine();
  }

  if (settings_.scene != scroll_scene_)
    ImGui::SetNextWindowScroll(ImVec2(0.0f, 0.0f));  // a scene opens at its top
  scroll_scene_ = settings_.scene;
  // Ctrl + wheel zooms a grid (mha) and does not scroll the scene. The figure view's iframe is as tall as
  // its content: no scrollbar, whose coming and going would change the width the figure is laid out in.
  ImGui::BeginChild(
      "scene", ImVec2(0, 0), false,
      ImGuiWindowFlags_NavFlattened | (figure ? ImGuiWindowFlags_NoScrollbar : ImGuiWindowFlags_None) |
          (ImGui::GetIO().KeyCtrl ? ImGuiWindowFlags_NoScrollWithMouse : ImGuiWindowFlags_None));
  mark_scene_tab_stops();  // the skip link's landing place
  lesson_.draw(settings_);
  if (!settings_.embed && !figure && !hidden(settings_, "path") && !scene_locked) draw_path_bar(settings_);
  draw_notes(notes_, notes_dropped_);
  std::vector<ShownFill> fills;
  std::string error;
  std::vector<SceneAction> actions;
  const int scene = scene_index(settings_.scene);
  if (scene >= 0) {
    SceneContext ctx{settings_, fills,         error, state_->scenes[static_cast<size_t>(scene)],
                     actions,   state_->ui.out};
    scene_draws()[static_cast<size_t>(scene)](ctx);
  }
  mark_window("scene/view");  // what the scene shows, and how far what it laid out reaches
  const ImVec2 at = ImGui::GetWindowPos(), reach = ImGui::GetCurrentWindow()->DC.CursorMaxPos;
  frame_rects().push_back({"scene/content", at.x, at.y, reach.x - at.x, reach.y - at.y});
  ImGui::EndChild();
  content_height_ = reach.y - vp->Pos.y + ImGui::GetStyle().WindowPadding.y;
  ImGui::End();
  apply(actions);
  LessonMode::keep_locked(before, settings_);
  describe_focus();
  // What state() reports: this frame's settings and scene output (set() may change settings_ before the
  // next frame draws them).
  shown_settings_ = settings_;
  computing_ = take_pipeline_pending();  // a long input is computed over the next frames
  next_frame_requested_ = state_->ui.out.next_frame || computing_ || !actions.empty();
  shown_fills_ = std::move(fills);
  shown_error_ = std::move(error);
}

void App::apply(std::vector<SceneAction>& actions) {
  for (SceneAction& a : actions) {
    switch (a.kind) {
      case SceneAction::Kind::OpenSettings:
        if (a.remember_trained) remember_trained_model(trained_model_file_text());
        settings_ = a.settings;
        break;
      case SceneAction::Kind::OpenLinkedModel:
        open_linked_model(a.path);
        break;
      case SceneAction::Kind::OpenModelFile: {
        const OpenedFile f = open_model_file(a.path);
        if (!f.pending && f.error.empty()) load_trained_model(f.text, a.path);
        if (a.status) {
          a.status->ok = f.error.empty();
          a.status->text = f.pending ? "choose a model file in the browser's dialog" : f.error;
        }
        break;
      }
    }
  }
}

void App::finish_frame(double cpu_ms, double frame_ms, double interval_ms, bool input_pending) {
  stats_.cpu_ms = cpu_ms;
  stats_.input_pending = input_pending;
  stats_.frame_ms = frame_ms;
  stats_.interval_ms = interval_ms;
  stats_.frame += 1;
  stats_.draw_calls = 0;
  stats_.vertices = 0;
  if (const ImDrawData* dd = ImGui::GetDrawData()) {
    stats_.vertices = dd->TotalVtxCount;
    for (int i = 0; i < dd->CmdListsCount; ++i) stats_.draw_calls += dd->CmdLists[i]->CmdBuffer.Size;
  }
  stats_.draw_calls += static_cast<int>(drawn_heatmaps().size());
}

std::string App::set_json(const std::string& text) {
  std::string depth_error;
  try {
    attn::require_json_depth(text, "set()'s argument");
  } catch (const attn::InputError& e) {
    depth_error = e.what();
  }
  const json j = depth_error.empty() ? attn::model_io::parse_json(text) : json();
  json result;  // key by key: nlohmann's initializer lists cost the page more code
  result["ok"] = true;
  result["notes"] = json::array();
  auto note = [&](const std::string& n) {
    result["ok"] = false;
    result["notes"].push_back(n);
    add_note(notes_, notes_dropped_, n);
  };
  if (!depth_error.empty()) {
    note(depth_error);
    return json_text(result);
  }
  if (j.is_discarded() || !j.is_object()) {
    note("set() needs an object such as {\"scene\": \"clock\", \"pos\": 44}");
    return json_text(result);
  }
  // The scene first, so its defaults apply before the other settings.
  if (j.contains("scene")) {
    const std::string scene = j["scene"].is_string() ? j["scene"].get<std::string>() : json_text(j["scene"]);
    if (is_scene(scene)) {
      if (scene != settings_.scene) settings_ = switch_scene(settings_, scene);
    } else {
      note("ignored scene=" + attn::one_line(scene, 60) + ": not a scene of this app");
    }
  }
  for (const auto& [name, value] : j.items()) {
    if (name == "scene") continue;
    if (value.is_null()) {
      note("ignored " + attn::one_line(name, 60) + "=null: give a value (null is not one)");
      continue;
    }
    const std::string text_value = value.is_string()    ? value.get<std::string>()
                                   : value.is_boolean() ? (value.get<bool>() ? "1" : "0")
                                                        : json_text(value);
    std::string n;
    const bool ok = apply_param(settings_, name, text_value, n);
    if (!ok) {
      note(n);
    } else if (!n.empty()) {
      result["notes"].push_back(n);  // accepted with a remark (a text that was cut)
      add_note(notes_, notes_dropped_, n);
    }
  }
  return json_text(result);
}

void App::describe_focus() {
  const HoverReport& cell = hovered_heatmap();
  const FocusedItem item = focused_item();
  focus_label_ = item.present ? item.label : "";
  focus_value_ = item.checkable ? (item.checked ? "checked" : "not checked") : focused_value();
  // the scene's name once, when it opens; then what has the focus, as a person would say it
  std::string said;
  if (settings_.scene != announced_scene_) said = scene_title(settings_.scene) + " scene. ";
  announced_scene_ = settings_.scene;
  if (cell.keyboard && !cell.spoken.empty()) {
    said += cell.spoken;
  } else if (!focus_label_.empty()) {
    said += focus_label_ + (focus_value_.empty() ? "" : ", " + focus_value_);
  }
  while (!said.empty() && said.back() == ' ') said.pop_back();
  if (!said.empty()) announcement_ = std::move(said);
}

void App::start_lesson() {
  std::vector<std::string> notes;
  lesson_.update(settings_, notes);
  for (const std::string& n : notes) add_note(notes_, notes_dropped_, n);
  set_frame_settings(settings_);
  apply_theme(settings_.theme == Theme::Auto ? page_dark_ : settings_.theme == Theme::Dark, reduced_motion_);
}

void App::load_steps(const std::string& source, const std::string& text, const std::string& error) {
  std::vector<std::string> notes;
  lesson_.steps_loaded(settings_, source, text, error, notes);
  for (const std::string& n : notes) add_note(notes_, notes_dropped_, n);
}

void App::set_page_prefers(bool dark, bool reduced_motion) {
  page_dark_ = dark;
  reduced_motion_ = reduced_motion;
}

UrlChange App::take_url_change() {
  const std::string q = to_query(settings_);
  if (q == last_query_) return UrlChange::None;
  // a new scene is a new history entry (Back returns to the last one), except for the first URL and in
  // an embed, whose history entries would belong to the course page's Back button
  const bool push = !last_query_.empty() && settings_.scene != url_scene_ && !settings_.embed;
  last_query_ = q;
  url_scene_ = settings_.scene;
  return push ? UrlChange::Push : UrlChange::Replace;
}

void App::open_query(const std::string& query) {
  std::vector<std::string> parsed;
  settings_ = parse_query(query, parsed);
  for (const std::string& n : parsed) add_note(notes_, notes_dropped_, n);
  last_query_ = to_query(settings_);
  url_scene_ = settings_.scene;
}

}  // namespace app
