// Position table scene: the sinusoidal table, its PE.PE similarity, the lesson's two naive attempts, and an
// opened model's learned table (GPT-2's) beside them.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "app/logic/captions.hpp"
#include "app/logic/lm_store.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/widgets.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"

namespace app {
namespace {

// What the scene says first, above its settings.
constexpr const char* kIntro =
    "The whole clock at once: one row per position, one column per dimension. Left columns are "
    "the fast hands, right columns the slow ones.";

// The similarity matrix is (P, P): it shows at most this many positions to stay fast.
constexpr int kMaxSimilarity = 256;

// What the scene computes from d_model, count, base and length.
struct TableData {
  attn::Mat table;         // (count, d_model) sinusoidal
  attn::Mat sim;           // (count, count) table table^T
  float offset_error = 0;  // how far sim is from depending on the offset alone
  int soft_pos = -1;       // a position with neighbours on both sides in sim (37 when there is room)
  float soft_self = 0, soft_prev = 0, soft_next = 0;  // sim(p, p), sim(p, p - 1), sim(p, p + 1)
  int soft_closest = -1;                              // the other position q with the largest sim(p, q)
  float soft_closest_sim = 0;
  float lo = 0, hi = 0;               // the table's smallest and largest reading
  attn::Mat raw;                      // (length, 1): the raw position number
  attn::Mat fraction10, fraction100;  // (10, 1), (100, 1): position / length
  std::vector<std::string> pos_labels, dim_labels, sim_labels;
};
using TableMemo = Memo<TableData, int, int, double, int>;

// The opened model's learned table (LmInfo::position_table, as its file has it): the first `count` slots and
// their similarity.
struct LearnedData {
  attn::Mat table;  // (min(count, slots), d_model)
  attn::Mat sim;    // (n, n) table table^T over the first kMaxSimilarity slots
  float offset_error = 0;
  int slots = 0;
  std::vector<std::string> pos_labels, dim_labels, sim_labels;
};
using LearnedMemo = Memo<LearnedData, long long, int>;  // the model's open number, count

struct PositionsState final : SceneState {
  TableMemo table;
  LearnedMemo learned;
};

LearnedData learned_data(const attn::Mat& full, int count) {
  LearnedData d;
  d.slots = static_cast<int>(full.rows());
  const int rows = std::min(count, d.slots);
  d.table = full.topRows(rows);
  d.sim = attn::similarity(d.table.topRows(std::min(rows, kMaxSimilarity)));
  d.offset_error = attn::offset_dependence_error(d.sim);
  d.pos_labels = index_labels(rows);
  d.dim_labels = index_labels(static_cast<int>(full.cols()));
  d.sim_labels.assign(d.pos_labels.begin(), d.pos_labels.begin() + d.sim.rows());
  return d;
}

TableData compute(const Settings& s) {
  TableData t;
  const std::vector<int> pos = attn::range_positions(s.count);
  t.table = attn::PositionClock(s.d_model, s.base).table(pos);
  t.sim = attn::similarity(t.table.topRows(std::min(s.count, kMaxSimilarity)));
  t.offset_error = attn::offset_dependence_error(t.sim);
  t.soft_pos = std::min(36, static_cast<int>(t.sim.rows()) - 2);  // the lesson's 37th word, counted from 0
  if (t.soft_pos >= 1) {
    t.soft_self = t.sim(t.soft_pos, t.soft_pos);
    t.soft_prev = t.sim(t.soft_pos, t.soft_pos - 1);
    t.soft_next = t.sim(t.soft_pos, t.soft_pos + 1);
    for (Eigen::Index q = 0; q < t.sim.rows(); ++q) {
      const float v = t.sim(t.soft_pos, q);
      if (q != t.soft_pos && (t.soft_closest < 0 || v > t.soft_closest_sim))
        t.soft_closest = static_cast<int>(q), t.soft_closest_sim = v;
    }
  }
  t.lo = t.table.minCoeff(), t.hi = t.table.maxCoeff();
  t.raw = attn::raw_position_table(attn::range_positions(s.length), 1);
  t.fraction10 = attn::fraction_position_table(attn::range_positions(10), 10, 1);
  t.fraction100 = attn::fraction_position_table(attn::range_positions(100), 100, 1);
  t.pos_labels = index_labels(s.count);
  t.dim_labels = index_labels(s.d_model);
  t.sim_labels.assign(t.pos_labels.begin(), t.pos_labels.begin() + t.sim.rows());
  return t;
}

void draw_controls(Settings& s) {
  ImGui::SetNextItemWidth(220);
  slider_int("positions", &s.count, 1, 2048, "%d",
             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(220);
  slider_int("d_model", &s.d_model, 2, 1024, "%d",
             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(220);
  input_number("base", &s.base, 2.0, 1e9, 10.0, "%.0f");
}

void draw_naive(Settings& s, const TableData& t, std::uint64_t version) {
  text_wrapped("Attempt 1: write the position number itself. Embedding values sit roughly between -1 and 1.");
  ImGui::SetNextItemWidth(220);
  slider_int("email length (tokens)", &s.length, 1, 2000, "%d", ImGuiSliderFlags_AlwaysClamp);
  const double last = static_cast<double>(t.raw(t.raw.rows() - 1, 0));
  if (last >= 10.0) {
    text_wrapped("The last token carries %.0f, against embedding values of about 1: it drowns them out.",
                 last);
  } else {
    text_wrapped(
        "The last token carries %.0f, still near embedding values of about 1; but the last token of a "
        "500-token email would carry 499 and drown them out.",
        last);
  }
  HeatmapSpec raw = heatmap_spec("positions/raw", t.raw, version, {nullptr, "position"}, {nullptr, "value"},
                                 sequential_colormap(s));
  raw.width = 40;
  raw.height = 160;
  heatmap_view(raw);

  text_wrapped(
      "Attempt 2: divide by the length. The size is fixed, but one step later means a different "
      "number in every email:");
  const float step10 = t.fraction10(1, 0) - t.fraction10(0, 0);
  const float step100 = t.fraction100(1, 0) - t.fraction100(0, 0);
  text_wrapped("10-token email: position 3 -> %.2f, one step = %.3f", static_cast<double>(t.fraction10(3, 0)),
               static_cast<double>(step10));
  text_wrapped("100-token email: position 30 -> %.2f, one step = %.3f",
               static_cast<double>(t.fraction100(30, 0)), static_cast<double>(step100));
  text_wrapped("0.3 means word 3 in the short email and word 30 in the long one.");
}

// How soft positions are: position p's similarity with itself, its neighbours and the closest other
// position, and what that means when the closest is not a neighbour (too few hands).
void draw_soft(const Settings& s, const TableData& t) {
  const double self = static_cast<double>(t.soft_self);
  const std::string word = ordinal(t.soft_pos + 1);  // position p is the (p + 1)th word
  std::string out = format(
      "Positions are soft: position %d (the %s word) has similarity %.3f with itself and %.3f and %.3f with "
      "its "
      "neighbours %d and %d (%.0f%% and %.0f%% of it). ",
      t.soft_pos, word.c_str(), self, static_cast<double>(t.soft_prev), static_cast<double>(t.soft_next),
      t.soft_pos - 1, t.soft_pos + 1, 100.0 * static_cast<double>(t.soft_prev) / self,
      100.0 * static_cast<double>(t.soft_next) / self);
  if (std::abs(t.soft_closest - t.soft_pos) == 1) {
    out += format(
        "Its neighbours read the most like it, so a model learns roughly where a word is, not that it is "
        "exactly the %s: exact counting (\"what is the %s word?\") stays hard for it.",
        word.c_str(), word.c_str());
  } else {
    out += format(
        "But position %d, %d tokens away, reads even more like it (%.1f%%): with only %s this clock does "
        "not keep far positions apart. More hands (a wider d_model) do.",
        t.soft_closest, std::abs(t.soft_closest - t.soft_pos),
        100.0 * static_cast<double>(t.soft_closest_sim) / self,
        s.d_model < 3 ? "one hand" : format("%d hands", (s.d_model + 1) / 2).c_str());
  }
  paragraph(out);
}

// The model opened in the Real model scene, when it learned its table (GPT-2): its first slots as the file
// has them and their similarity, beside the clock's, and where the table ends.
void draw_learned(SceneContext& ctx, LearnedMemo& memo, float side, float clock_offset_error) {
  const LmInfo& info = lm_store().info;
  if (!info.ok() || !info.position_table) return;
  const Settings& s = ctx.settings;
  memo.get({info.model, s.count}, [&] { return learned_data(*info.position_table, s.count); });
  if (!ctx.ready(memo)) return;
  const LearnedData& d = memo.value();
  ImGui::Spacing();
  paragraph(format(
      "The model you opened (%s) learned its table instead: one vector of %d numbers per slot, %d slots, as "
      "its file has them. Its similarity is %.3f away from depending on the offset alone (the clock's: "
      "%.3f): "
      "nothing made slot 5 and slot 6 relate as slot 105 and slot 106 do.",
      info.source.c_str(), static_cast<int>(info.position_table->cols()), d.slots,
      static_cast<double>(d.offset_error), static_cast<double>(clock_offset_error)));
  if (s.count > d.slots) {
    paragraph(
        format("Position %d has no vector: the table ends at slot %d (positions 0 to %d), so this model "
               "cannot read a text of more than %d tokens. The clock has a reading for any position.",
               d.slots, d.slots, d.slots - 1, d.slots));
  }
  HeatmapSpec table = heatmap_spec("positions/learned", d.table, memo.version(), {&d.pos_labels, "slot"},
                                   {&d.dim_labels, "dimension"}, gfx::Colormap::Diverging);
  table.width = table.height = side;
  ImGui::BeginGroup();
  ImGui::Text("Learned table (%d × %d of %d × %d)", static_cast<int>(d.table.rows()),
              static_cast<int>(d.table.cols()), d.slots, static_cast<int>(info.position_table->cols()));
  heatmap_view(table);
  ImGui::EndGroup();
  if (ImGui::GetContentRegionAvail().x > 2.0f * side + 260.0f) ImGui::SameLine(0, 40);
  const HeatmapAxis sim_side{&d.sim_labels, "slot"};
  HeatmapSpec sim = heatmap_spec("positions/learned_similarity", d.sim, memo.version(), sim_side, sim_side,
                                 gfx::Colormap::Diverging);
  sim.width = sim.height = side;
  ImGui::BeginGroup();
  ImGui::Text("Its similarity (%d × %d)", static_cast<int>(d.sim.rows()), static_cast<int>(d.sim.cols()));
  heatmap_view(sim);
  ImGui::EndGroup();
  ctx.report([count = s.count, d = memo.shared(), source = info.source](nlohmann::json& shown) {
    nlohmann::json& l = shown["learned"];
    l["source"] = source;
    l["slots"] = d->slots;
    l["rows"] = d->table.rows();
    l["offset_dependence_error"] = d->offset_error;
    l["past_end"] = count > d->slots;
  });
}

}  // namespace

void draw_positions_scene(SceneContext& ctx) {
  PositionsState& st = ctx.state<PositionsState>();
  TableMemo& memo = st.table;
  Settings& s = ctx.settings;
  text_wrapped("%s", kIntro);
  const bool ready = memo.get({s.d_model, s.count, s.base, s.length}, [&] { return compute(s); }).ok();
  if (ready) {
    text_wrapped(
        "Every reading is a sine or a cosine, so it stays between -1 and 1 however late the position: here "
        "from %.3f to %.3f over positions 0 to %d. Bounded, unlike the raw position number below.",
        static_cast<double>(memo.value().lo), static_cast<double>(memo.value().hi), s.count - 1);
  }
  if (ctx.settings_open()) draw_controls(s);
  memo.get({s.d_model, s.count, s.base, s.length}, [&] { return compute(s); });
  if (!ctx.ready(memo)) return;
  const TableData& data = memo.value();
  const float side = std::max(200.0f, std::min(420.0f, ImGui::GetContentRegionAvail().x * 0.4f));
  HeatmapSpec table =
      heatmap_spec("positions/table", data.table, memo.version(), {&data.pos_labels, "position"},
                   {&data.dim_labels, "dimension"}, gfx::Colormap::Diverging);
  table.width = side;
  table.height = side;
  ImGui::BeginGroup();
  ImGui::Text("Sinusoidal table (%d × %d)", s.count, s.d_model);
  heatmap_view(table);
  ImGui::EndGroup();
  const bool beside = ImGui::GetContentRegionAvail().x > 2.0f * side + 260.0f;
  if (beside) ImGui::SameLine(0, 40);
  if (!hidden(s, "similarity")) {
    ImGui::BeginGroup();
    ImGui::Text("Similarity PE · PE (%d × %d)", static_cast<int>(data.sim.rows()),
                static_cast<int>(data.sim.cols()));
    if (s.count > kMaxSimilarity) ImGui::TextDisabled("(the first %d positions)", kMaxSimilarity);
    const HeatmapAxis sim_side{&data.sim_labels, "position"};
    HeatmapSpec sim = heatmap_spec("positions/similarity", data.sim, memo.version(), sim_side, sim_side,
                                   gfx::Colormap::Diverging);
    sim.width = side;
    sim.height = side;
    heatmap_view(sim);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side + 60.0f);
    paragraph(similarity_caption(s.d_model, static_cast<int>(data.sim.rows()), data.offset_error));
    if (data.soft_pos >= 1) draw_soft(s, data);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
  }
  draw_learned(ctx, st.learned, side, data.offset_error);
  if (section("Why not just the position number?", "naive", s.hide)) draw_naive(s, data, memo.version());

  ctx.report([d_model = s.d_model, count = s.count, base = s.base, length = s.length,
              d = memo.shared()](nlohmann::json& shown) {
    // Key by key: nlohmann's nested initializer lists cost the page several times the code.
    shown["d_model"] = d_model;
    shown["count"] = count;
    shown["base"] = base;
    shown["length"] = length;
    shown["table_shape"] =
        std::vector<long>{static_cast<long>(d->table.rows()), static_cast<long>(d->table.cols())};
    shown["offset_dependence_error"] = d->offset_error;
    shown["raw_last"] = d->raw(d->raw.rows() - 1, 0);
    shown["table_range"] = std::vector<float>{d->lo, d->hi};
    shown["soft"]["pos"] = d->soft_pos;
    shown["soft"]["closest"] = d->soft_closest;
    shown["fraction_step_10"] = d->fraction10(1, 0) - d->fraction10(0, 0);
    shown["fraction_step_100"] = d->fraction100(1, 0) - d->fraction100(0, 0);
  });
}

}  // namespace app
