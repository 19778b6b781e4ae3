// The JSON behind window.attentionDemo: state(), heatmaps(), frameStats(), exportCsv() and the page's
// answer events.
#include <nlohmann/json.hpp>

#include "app/app.hpp"
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
                {"rects", rects},
                {"focus", focus_label_.empty() ? json(nullptr)
                                               : json{{"label", focus_label_}, {"value", focus_value_}}},
                {"announce", announcement_},
                {"lesson",
                 {{"caption", lesson_.caption(shown_settings_)},
                  {"steps", lesson_.count()},
                  {"step", lesson_.count() > 0 ? shown_settings_.step : 0},
                  {"pending", lesson_.pending()},
                  {"lock", shown_settings_.lock}}},
                {"theme", {{"dark", theme_is_dark()}, {"reduced_motion", reduced_motion_}}},
                {"content_height", content_height_}};
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

std::string App::answers_json() const {
  json list = json::array();
  for (const AnswerEvent& a : frame_answers())
    list.push_back({{"which", a.which}, {"answer", a.answer}, {"right", a.right}});
  return list.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace app
