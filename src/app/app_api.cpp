// The JSON behind window.attentionDemo: state(), heatmaps(), frameStats(), exportCsv() and the page's
// answer events.
#include <nlohmann/json.hpp>

#include "app/app.hpp"
#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "gfx/heatmap_renderer.hpp"

namespace app {
namespace {

using nlohmann::json;

json settings_json(const Settings& s) {
  json j = json::object();
  for (const ParamInfo& p : param_table()) j[p.name] = param_value(s, p.name);
  return j;
}

}  // namespace

// The objects are written key by key: nlohmann's nested initializer lists cost the page several times the
// code.
std::string App::state_json() const {
  json state = json::object();
  json& shown = state["shown"] = json::object();
  for (const ShownFill& fill : shown_fills_) fill(shown);
  const HoverReport& hov = hovered_heatmap();
  json& hover = state["hover"];  // null when nothing is hovered
  if (!hov.id.empty()) {
    hover["id"] = hov.id;
    hover["row"] = hov.row;
    hover["col"] = hov.col;
    hover["lines"] = hov.lines;
  }
  json& rects = state["rects"] = json::object();
  for (const NamedRect& r : frame_rects()) rects[r.name] = std::vector<float>{r.x, r.y, r.w, r.h};
  state["scene"] = shown_settings_.scene;
  state["settings"] = settings_json(shown_settings_);
  state["notes"] = notes_;
  state["notes_dropped"] = notes_dropped_;
  state["error"] = shown_error_;
  state["query"] = to_query(shown_settings_);
  state["messages"] = frame_messages();
  state["texts"] = frame_texts();
  json& focus = state["focus"];  // null when no control has the keyboard
  if (!focus_label_.empty()) {
    focus["label"] = focus_label_;
    focus["value"] = focus_value_;
  }
  state["announce"] = announcement_;
  json& lesson = state["lesson"];
  lesson["caption"] = lesson_.caption(shown_settings_);
  lesson["steps"] = lesson_.count();
  lesson["step"] = lesson_.count() > 0 ? shown_settings_.step : 0;
  lesson["pending"] = lesson_.pending();
  lesson["lock"] = shown_settings_.lock;
  state["theme"]["dark"] = theme_is_dark();
  state["theme"]["reduced_motion"] = reduced_motion_;
  state["content_height"] = content_height_;
  return json_text(state);
}

std::string App::heatmaps_json(bool with_values, const std::string& only_id) const {
  json list = json::array();
  for (const DrawnHeatmap& h : drawn_heatmaps()) {
    if (!only_id.empty() && h.id != only_id) continue;
    json& item = list.emplace_back();
    item["id"] = h.id;
    json& rect = item["rect"];
    rect["x"] = h.x;
    rect["y"] = h.y;
    rect["w"] = h.w;
    rect["h"] = h.h;
    item["rows"] = h.rows;
    item["cols"] = h.cols;
    item["range"] = std::vector<float>{h.lo, h.hi};
    item["colormap"] = gfx::colormap_name(h.colormap);
    item["row_labels"] = *h.row_labels;
    item["col_labels"] = *h.col_labels;
    item["window"] = std::vector<int>{h.row0, h.col0, h.shown_rows, h.shown_cols};
    item["label_rects"] = h.label_rects;
    item["visible"] = h.visible;
    if (with_values) {
      item["values"] = matrix_json(*h.values);
    }
  }
  return json_text(list);
}

std::string App::export_csv_json(const std::string& id) const {
  for (const DrawnHeatmap& h : drawn_heatmaps()) {
    if (h.id == id) {
      json j;  // key by key: nlohmann's initializer lists cost the page more code
      j["ok"] = true;
      j["csv"] = heatmap_csv(h);
      return json_text(j);
    }
  }
  json j;
  j["ok"] = false;
  j["error"] = "no heatmap '" + id + "' in the last frame";
  return json_text(j);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FrameStats, cpu_ms, frame_ms, interval_ms, input_pending, draw_calls,
                                   vertices, frame)

std::string App::frame_stats_json(bool platform_busy) const {
  json j = stats_;
  j["computing"] = computing_ || platform_busy;
  j["recomputes"] = versions_issued();
  j["uploads"] = gfx::renderer_stats().uploads;
  return json_text(j);
}

std::string App::answers_json() const {
  json list = json::array();
  for (const AnswerEvent& a : state_->ui.out.answers) {
    json j;
    j["which"] = a.which;
    j["answer"] = a.answer;
    j["right"] = a.right;
    list.push_back(std::move(j));
  }
  return json_text(list);
}

}  // namespace app
