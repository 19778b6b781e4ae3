// Word + position scene: the lesson's "cake" embedding plus its clock reading at two positions.
#include <imgui.h>

#include <algorithm>
#include <cfloat>

#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/positions.hpp"

namespace app {
namespace {

// What the scene computes from the embedding text, pos, pos2 and base.
struct WordData {
  attn::RowVec embedding;  // (D,) from the settings' emb
  attn::Mat position;      // (2, D): readings at pos and pos2
  attn::Mat sum;           // (2, D): embedding + reading
};
using WordMemo = Memo<WordData, std::string, int, int, double>;

attn::RowVec parse_embedding(const std::string& text) {
  std::vector<float> v;
  for (std::string item : split_list(text, ',')) {
    while (!item.empty() && item.back() == ' ')
      item.pop_back();  // "0.5 , 1": spaces around a number are fine
    double x = 0;
    if (!parse_number(item, -FLT_MAX, FLT_MAX, x))
      throw attn::InputError("the embedding must be numbers separated by commas; '" + item + "' is not one");
    v.push_back(static_cast<float>(x));
  }
  attn::RowVec r(static_cast<Eigen::Index>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) r(static_cast<Eigen::Index>(i)) = v[i];
  return r;
}

std::string format_embedding(const attn::RowVec& v) {
  std::string out;  // what an ostream prints for each float: "%g"
  for (Eigen::Index i = 0; i < v.size(); ++i) out += format(i ? ",%g" : "%g", static_cast<double>(v(i)));
  return out;
}

WordData compute(const Settings& s) {
  WordData w;
  w.embedding = parse_embedding(s.emb);
  w.position = attn::PositionClock(static_cast<int>(w.embedding.size()), s.base).table({s.pos, s.pos2});
  w.sum = w.position.rowwise() + w.embedding;
  return w;
}

const WordMemo& update(WordMemo& memo, const Settings& s) {
  return memo.get({s.emb, s.pos, s.pos2, s.base}, [&] { return compute(s); });
}

void draw_controls(Settings& s, const WordData& w) {
  ImGui::TextUnformatted("Embedding of 'cake':");
  attn::RowVec e = w.embedding;
  bool changed = false;
  for (Eigen::Index i = 0; i < e.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (i) same_line_if_fits(70);
    ImGui::SetNextItemWidth(70);
    changed |= ImGui::DragFloat("##e", &e(i), 0.01f, -10.0f, 10.0f, "%.3f");
    ImGui::PopID();
  }
  ImGui::SameLine();
  if (ImGui::Button("+") && e.size() < 16) {
    e.conservativeResize(e.size() + 1);
    e(e.size() - 1) = 0.0f;
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("-") && e.size() > 1) {
    e.conservativeResize(e.size() - 1);
    changed = true;
  }
  same_line_if_fits(buttons_width({"Lesson's values"}));
  if (ImGui::Button("Lesson's values")) s.emb = defaults_for("word").emb;
  if (changed) s.emb = format_embedding(e);
  ImGui::SetNextItemWidth(220);
  slider_int("position", &s.pos, 0, 512, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(220);
  slider_int("second position", &s.pos2, 0, 512, "%d", ImGuiSliderFlags_AlwaysClamp);
}

void draw_column(const char* id, int pos, const WordData& w, int row) {
  ImGui::BeginGroup();
  ImGui::Text("cake at position %d", pos);
  text_wrapped("embedding  [%s]", format_row(w.embedding, 3).c_str());
  text_wrapped("+ position [%s]", format_row(w.position.row(row), 3).c_str());
  text_wrapped("= input    [%s]", format_row(w.sum.row(row), 3).c_str());
  const float limit = std::max(1.0f, w.sum.cwiseAbs().maxCoeff());
  value_bars(id, w.sum.row(row), limit, 90.0f);
  ImGui::EndGroup();
}

}  // namespace

void draw_word_scene(SceneContext& ctx) {
  WordMemo& memo = ctx.kept<WordMemo>();
  Settings& s = ctx.settings;
  if (s.pos != s.pos2) {
    text_wrapped(
        "The model adds the clock reading to the word's embedding. Same word, different place: a different "
        "starting vector, so attention can tell the two apart.");
  } else {
    text_wrapped(
        "The model adds the clock reading to the word's embedding. Both copies sit at position %d: the same "
        "place gives the same starting vector. Move one to see them part.",
        s.pos);
  }
  if (!ctx.ready(update(memo, s))) return;
  if (ctx.settings_open()) draw_controls(s, memo.value());
  if (!ctx.ready(update(memo, s))) return;  // the controls may have changed the settings
  const WordData& data = memo.value();
  draw_column("first", s.pos, data, 0);
  same_line_if_fits(ImGui::GetItemRectSize().x);  // the second column beside the first, or under it
  draw_column("second", s.pos2, data, 1);

  const auto d = static_cast<int>(data.embedding.size());
  if (section("Why add, not append?", "notes", s.hide)) {
    text_wrapped(
        "Appending the %d clock numbers after the %d embedding numbers would make every token %d numbers "
        "wide, "
        "and every weight matrix after it would have to grow to match. Adding keeps the width at d_model = "
        "%d: "
        "\"what\" (the word) and \"where\" (its position) share the same %d numbers. That looks like it "
        "would blur them, but in a model hundreds of numbers wide there is room to keep the two mostly "
        "apart, "
        "and it works well in practice.",
        d, d, 2 * d, d, d);
  }

  ctx.report([pos = s.pos, pos2 = s.pos2, w = memo.shared()](nlohmann::json& shown) {
    shown["embedding"] = std::vector<float>(w->embedding.data(), w->embedding.data() + w->embedding.size());
    shown["pos"] = pos;
    shown["pos2"] = pos2;
    shown["position"] = row_values(w->position, 0);
    shown["position2"] = row_values(w->position, 1);
    shown["sum"] = row_values(w->sum, 0);
    shown["sum2"] = row_values(w->sum, 1);
  });
}

}  // namespace app
