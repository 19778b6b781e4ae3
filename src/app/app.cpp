// The app frame (menu, scene list, notes, current scene) and the JSON API behind window.attentionDemo.
#include "app/app.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>

#include "app/logic/memo.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "gfx/heatmap_renderer.hpp"

namespace app {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxNotes = 20;  // notes kept on screen and in state()

json settings_json(const Settings& s) {
  json j = json::object();
  for (const ParamInfo& p : param_table()) j[p.name] = param_value(s, p.name);
  return j;
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
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
  if (dropped > 0) text_wrapped("(%zu earlier notes left out)", dropped);
  for (const std::string& n : notes) text_wrapped("Note: %s", n.c_str());
  ImGui::PopStyleColor();
  if (ImGui::SmallButton("Dismiss notes")) notes.clear(), dropped = 0;
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
  text_wrapped_colored(ImVec4(0.55f, 0.78f, 1.0f, 1.0f), "%s", scenes[at].instruction);
  ImGui::Separator();
  if (back) settings = switch_scene(settings, scenes[at - 1].id);
  if (next) settings = switch_scene(settings, scenes[at + 1].id);
}

}  // namespace

App::App(const std::string& query) {
  std::vector<std::string> parsed;
  settings_ = parse_query(query, parsed);
  for (const std::string& n : parsed) add_note(notes_, notes_dropped_, n);
  // last_query_ stays empty: the first frame writes the normalised URL (dropping ignored parameters).
}

bool App::wants_next_frame() const {
  return next_frame_requested_ || settings_.train == "run" || !(settings_ == shown_settings_);
}

void App::frame() {
  take_next_frame_request();  // a request from a frame that failed half-way is dropped
  take_pipeline_pending();
  // A frame that fails half-way reports nothing rather than the writers of an older frame.
  shown_fills_.clear();
  shown_error_.clear();
  begin_heatmap_frame();
  frame_messages().clear();
  frame_texts().clear();
  frame_rects().clear();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                                 (settings_.embed ? 0 : ImGuiWindowFlags_MenuBar);
  ImGui::Begin("Attention, in order", nullptr, flags);

  const bool narrow = narrow_screen();
  if (!settings_.embed && ImGui::BeginMenuBar()) {
    if (narrow && ImGui::BeginMenu("Scenes")) {  // the scene list, folded
      for (const SceneInfo& s : scene_table()) {
        if (ImGui::MenuItem(s.title, nullptr, settings_.scene == s.id) && settings_.scene != s.id) {
          settings_ = switch_scene(settings_, s.id);
        }
      }
      ImGui::EndMenu();
    }
    if (narrow) mark_item("menu/scenes");
    if (ImGui::BeginMenu("View")) {
      const bool cividis = settings_.colormap == "cividis";
      if (ImGui::MenuItem("Viridis colours", nullptr, !cividis)) settings_.colormap = "viridis";
      if (ImGui::MenuItem("Cividis colours (colour-blind safe)", nullptr, cividis))
        settings_.colormap = "cividis";
      ImGui::EndMenu();
    }
    if (!narrow) ImGui::TextDisabled("positional encoding and multi-head attention, computed live");
    ImGui::EndMenuBar();
  }

  if (!settings_.embed && !narrow) {
    ImGui::BeginChild("scenes", ImVec2(170, 0), true);
    ImGui::TextDisabled("Scenes");
    for (const SceneInfo& s : scene_table()) {
      if (ImGui::Selectable(s.title, settings_.scene == s.id) && settings_.scene != s.id) {
        settings_ = switch_scene(settings_, s.id);
      }
    }
    ImGui::EndChild();
    ImGui::SameLine();
  }

  if (settings_.scene != scroll_scene_)
    ImGui::SetNextWindowScroll(ImVec2(0.0f, 0.0f));  // a scene opens at its top
  scroll_scene_ = settings_.scene;
  // Ctrl + wheel zooms a grid (mha) and does not scroll the scene
  ImGui::BeginChild("scene", ImVec2(0, 0), false,
                    ImGui::GetIO().KeyCtrl ? ImGuiWindowFlags_NoScrollWithMouse : ImGuiWindowFlags_None);
  if (!settings_.embed) draw_path_bar(settings_);
  draw_notes(notes_, notes_dropped_);
  std::vector<ShownFill> fills;
  std::string error;
  SceneContext ctx{settings_, fills, error};
  if (SceneDraw draw = find_scene(settings_.scene)) draw(ctx);
  mark_window("scene/view");  // what the scene shows, and how far what it laid out reaches
  const ImVec2 at = ImGui::GetWindowPos(), reach = ImGui::GetCurrentWindow()->DC.CursorMaxPos;
  frame_rects().push_back({"scene/content", at.x, at.y, reach.x - at.x, reach.y - at.y});
  ImGui::EndChild();
  ImGui::End();
  // What state() reports: this frame's settings and scene output (set() may change settings_ before the
  // next frame draws them).
  shown_settings_ = settings_;
  computing_ = take_pipeline_pending();  // a long input is computed over the next frames
  next_frame_requested_ = take_next_frame_request() || computing_;
  shown_fills_ = std::move(fills);
  shown_error_ = std::move(error);
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

std::string App::state_json() const {
  json shown = json::object();
  for (const ShownFill& fill : shown_fills_) fill(shown);
  const HoverReport& hov = hovered_heatmap();
  json hover = hov.id.empty()
                   ? json(nullptr)
                   : json{{"id", hov.id}, {"row", hov.row}, {"col", hov.col}, {"lines", hov.lines}};
  json rects = json::object();
  for (const NamedRect& r : frame_rects()) rects[r.name] = {r.x, r.y, r.w, r.h};
  json state = {{"scene", shown_settings_.scene},
                {"settings", settings_json(shown_settings_)},
                {"notes", notes_},
                {"notes_dropped", notes_dropped_},
                {"error", shown_error_},
                {"shown", shown},
                {"query", to_query(shown_settings_)},
                {"hover", hover},
                {"messages", frame_messages()},
                {"texts", frame_texts()},
                {"rects", rects}};
  return state.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string App::heatmaps_json(bool with_values, const std::string& only_id) const {
  json list = json::array();
  for (const DrawnHeatmap& h : drawn_heatmaps()) {
    if (!only_id.empty() && h.id != only_id) continue;
    json item = {{"id", h.id},
                 {"rect", {{"x", h.x}, {"y", h.y}, {"w", h.w}, {"h", h.h}}},
                 {"rows", h.rows},
                 {"cols", h.cols},
                 {"range", {h.lo, h.hi}},
                 {"colormap", gfx::colormap_name(h.colormap)},
                 {"row_labels", *h.row_labels},
                 {"col_labels", *h.col_labels},
                 {"window", {h.row0, h.col0, h.shown_rows, h.shown_cols}},
                 {"label_rects", h.label_rects},
                 {"visible", h.visible}};
    if (with_values) {
      json values = json::array();
      const attn::Mat& m = *h.values;
      for (Eigen::Index r = 0; r < m.rows(); ++r) {
        values.push_back(std::vector<float>(m.row(r).data(), m.row(r).data() + m.cols()));
      }
      item["values"] = std::move(values);
    }
    list.push_back(std::move(item));
  }
  return list.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string App::export_csv_json(const std::string& id) const {
  for (const DrawnHeatmap& h : drawn_heatmaps()) {
    if (h.id == id)
      return json{{"ok", true}, {"csv", heatmap_csv(h)}}.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return json{{"ok", false}, {"error", "no heatmap '" + id + "' in the last frame"}}.dump(
      -1, ' ', false, json::error_handler_t::replace);
}

std::string App::frame_stats_json() const {
  return json{{"cpu_ms", stats_.cpu_ms},
              {"frame_ms", stats_.frame_ms},
              {"interval_ms", stats_.interval_ms},
              {"input_pending", stats_.input_pending},
              {"draw_calls", stats_.draw_calls},
              {"vertices", stats_.vertices},
              {"frame", stats_.frame},
              {"computing", computing_},
              {"recomputes", versions_issued()},
              {"uploads", gfx::renderer_stats().uploads}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string App::set_json(const std::string& text) {
  std::string depth_error;
  try {
    attn::require_json_depth(text, "set()'s argument");
  } catch (const attn::InputError& e) {
    depth_error = e.what();
  }
  const json j = depth_error.empty() ? json::parse(text, nullptr, false) : json();
  json result = {{"ok", true}, {"notes", json::array()}};
  auto note = [&](const std::string& n) {
    result["ok"] = false;
    result["notes"].push_back(n);
    add_note(notes_, notes_dropped_, n);
  };
  if (!depth_error.empty()) {
    note(depth_error);
    return result.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  if (j.is_discarded() || !j.is_object()) {
    note("set() needs an object such as {\"scene\": \"clock\", \"pos\": 44}");
    return result.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  // The scene first, so its defaults apply before the other settings.
  if (j.contains("scene")) {
    const std::string scene = j["scene"].is_string()
                                  ? j["scene"].get<std::string>()
                                  : j["scene"].dump(-1, ' ', false, json::error_handler_t::replace);
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
    const std::string text_value = value.is_string() ? value.get<std::string>()
                                   : value.is_boolean()
                                       ? (value.get<bool>() ? "1" : "0")
                                       : value.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string n;
    const bool ok = apply_param(settings_, name, text_value, n);
    if (!ok) {
      note(n);
    } else if (!n.empty()) {
      result["notes"].push_back(n);  // accepted with a remark (a text that was cut)
      add_note(notes_, notes_dropped_, n);
    }
  }
  return result.dump(-1, ' ', false, json::error_handler_t::replace);
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
