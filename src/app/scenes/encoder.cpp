// Encoder block scene: input -> attention -> add -> LayerNorm -> feed-forward -> add -> LayerNorm, skips
// drawn.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app/logic/captions.hpp"
#include "app/logic/clock.hpp"
#include "app/logic/json_text.hpp"
#include "app/logic/memo.hpp"
#include "app/scenes/scenes.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/pipeline.hpp"
#include "core/row_stats.hpp"

namespace app {
namespace {

// What the scene says first, above its settings.
constexpr const char* kIntro =
    "One encoder block, as in the lesson notes: attention lets tokens share information, a feed-forward "
    "layer then works on each token alone, and after each of the two a skip path adds the step's input back "
    "before a LayerNorm. The skip path is also the road the gradients take back through the block in "
    "training, so deep stacks still learn. The output has the input's shape, so blocks stack: the original "
    "transformer's encoder is six of these in a row. Hover any cell for its exact value.";

// [SECTION] data: one encoder block for the current settings, recomputed only when they change

struct EncoderData {
  attn::EncoderPipelineResult r;
  std::vector<std::string> labels;               // (T,) token labels made unique
  std::vector<std::string> model_dims, ff_dims;  // (D,) and (d_ff,) column labels
  attn::Mat norm1_moments;                       // (T, 2): mean, variance of each LayerNorm row
  double compute_ms = 0.0;
};
// text, d_model, heads, positions, causal, seed, learned slots, base
using EncoderMemo = Memo<EncoderData, std::string, int, int, int, bool, std::uint64_t, int, double>;

EncoderData compute(const std::string& text, const attn::PipelineConfig& c) {
  EncoderData d;
  const auto t0 = Clock::now();
  d.r = attn::run_encoder_pipeline(text, c, 4 * c.d_model);
  d.labels = token_labels(d.r.tokens);
  d.model_dims = index_labels(c.d_model);
  d.ff_dims = index_labels(d.r.d_ff);
  d.norm1_moments = attn::row_moments(d.r.block.norm1);
  d.compute_ms = ms_since(t0);
  return d;
}

const EncoderMemo& update(EncoderMemo& memo, const Settings& s) {
  const attn::PipelineConfig c = pipeline_config(s);
  return memo.get(
      {s.text, c.d_model, c.heads, static_cast<int>(c.positions), c.causal, c.seed, c.learned_slots, c.base},
      [&] { return compute(s.text, c); });
}

// [SECTION] the eight steps, in the order of the lesson notes' pipeline

struct Step {
  const char* key;    // shapes key and heatmap id suffix: "encoder/<key>"
  const char* title;  // shown with the shape: "input (9 x 16)"
  const attn::Mat& (*get)(const attn::EncoderResult&);
  bool non_negative;  // ReLU output: sequential colormap; everything else is signed: diverging
  const char* note;   // one line on what the step does
};

const Step kSteps[] = {
    {"input", "input", [](const attn::EncoderResult& b) -> const attn::Mat& { return b.input; }, false,
     "Each token's embedding plus its position signal: one row per token."},
    {"attention", "attention output",
     [](const attn::EncoderResult& b) -> const attn::Mat& { return b.mha.output; }, false,
     "Every token mixes in the values of the tokens its heads attend to; W_O blends the heads."},
    {"residual1", "x + attention",
     [](const attn::EncoderResult& b) -> const attn::Mat& { return b.residual1; }, false,
     "The skip path adds the input back: attention only has to supply a correction, and in training the "
     "gradients flow back along this path unchanged."},
    {"norm1", "LayerNorm", [](const attn::EncoderResult& b) -> const attn::Mat& { return b.norm1; }, false,
     "LayerNorm standardises each row (one token): minus its mean, divided by its standard deviation."},
    {"hidden", "feed-forward hidden, ReLU",
     [](const attn::EncoderResult& b) -> const attn::Mat& { return b.hidden; }, true,
     "Each token on its own goes through a layer 4 times wider; ReLU turns negatives into 0."},
    {"ffn", "feed-forward out", [](const attn::EncoderResult& b) -> const attn::Mat& { return b.ffn; }, false,
     "A second matrix brings each row back to d_model numbers."},
    {"residual2", "norm + feed-forward",
     [](const attn::EncoderResult& b) -> const attn::Mat& { return b.residual2; }, false,
     "The second skip adds the normalised rows back to the feed-forward's change."},
    {"output", "output", [](const attn::EncoderResult& b) -> const attn::Mat& { return b.output; }, false,
     "A last LayerNorm. Same shape as the input, so blocks stack: the original encoder has six."},
};

// [SECTION] drawing helpers: tiles, arrows, "+" nodes

struct Layout {
  float slot = 0.0f;  // horizontal room of one tile (labels + image + colour bar)
  float image_w = 0.0f, image_h = 0.0f;
  float gap = 64.0f;     // between two tiles: arrows and "+" nodes live here
  float margin = 28.0f;  // left and right of a row: the line from row 1 to row 2
  float title_h = 0.0f;  // two lines reserved for the title
  float x0 = 0.0f;       // screen x of the first slot
  float slot_x(int k) const { return x0 + margin + static_cast<float>(k) * (slot + gap); }
};

Layout make_layout(const EncoderData& d) {
  Layout L;
  const float avail = ImGui::GetContentRegionAvail().x;
  L.gap = std::clamp(avail * 0.055f, 48.0f, 64.0f);
  L.margin = std::clamp(avail * 0.025f, 20.0f, 28.0f);
  float label_w = ImGui::CalcTextSize("query").x;
  for (const std::string& t : d.labels) label_w = std::max(label_w, ImGui::CalcTextSize(t.c_str()).x);
  const float extra = std::min(label_w, 90.0f) + 4.0f + 24.0f + ImGui::CalcTextSize("-0.000").x + 6.0f;
  L.image_w = std::clamp((avail - 2.0f * L.margin - 3.0f * L.gap) / 4.0f - extra, 48.0f, 320.0f);
  L.slot = L.image_w + extra;
  const float rows = static_cast<float>(d.r.tokens.size());
  L.image_h = std::clamp(rows * 16.0f, 72.0f, 200.0f);
  L.title_h = 2.0f * ImGui::GetTextLineHeightWithSpacing();
  L.x0 = ImGui::GetCursorScreenPos().x;
  return L;
}

struct Tile {
  ImVec2 min, max;  // the whole group
  float mid_y;      // the middle of the image: arrows meet tiles here
};

// Extra tooltip lines: the two parts of each sum, and a LayerNorm row's mean and variance.
std::function<std::vector<std::string>(int, int)> tooltip_for(const std::string& key, const EncoderData& d) {
  const attn::EncoderResult& b = d.r.block;
  auto line = [](const char* fmt, double x, double y) {
    char buf[160];
    std::snprintf(buf, sizeof buf, fmt, x, y);
    return std::vector<std::string>{buf};
  };
  if (key == "residual1") {
    return [&b, line](int r, int c) {
      return line("= input %.4f + attention %.4f", static_cast<double>(b.input(r, c)),
                  static_cast<double>(b.mha.output(r, c)));
    };
  }
  if (key == "residual2") {
    return [&b, line](int r, int c) {
      return line("= LayerNorm %.4f + feed-forward %.4f", static_cast<double>(b.norm1(r, c)),
                  static_cast<double>(b.ffn(r, c)));
    };
  }
  if (key == "norm1") {
    return [&d, line](int r, int) {
      return line("this row: mean %.2g, variance %.4f", static_cast<double>(d.norm1_moments(r, 0)),
                  static_cast<double>(d.norm1_moments(r, 1)));
    };
  }
  return nullptr;
}

Tile draw_tile(const Step& st, const EncoderData& d, std::uint64_t version, const Settings& s,
               const Layout& L, ImVec2 pos) {
  const attn::Mat& m = st.get(d.r.block);
  ImGui::SetCursorScreenPos(pos);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + L.slot);
  text_wrapped("%s (%d × %d)", st.title, static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + L.title_h));
  HeatmapSpec spec = heatmap_spec(std::string("encoder/") + st.key, m, version, {&d.labels, "token"},
                                  {m.cols() == d.r.d_ff ? &d.ff_dims : &d.model_dims, "dimension"},
                                  st.non_negative ? sequential_colormap(s) : gfx::Colormap::Diverging);
  spec.width = L.image_w;
  spec.height = L.image_h;
  spec.extra_tooltip = tooltip_for(st.key, d);
  heatmap_view(spec);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", st.note);
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  const float mid = pos.y + L.title_h + 2.0f * ImGui::GetTextLineHeight() + 2.0f + 0.5f * L.image_h;
  return {ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), mid};
}

// A polyline through pts with an arrowhead at the last point.
void arrow(ImDrawList* dl, std::initializer_list<ImVec2> pts, ImU32 col) {
  std::vector<ImVec2> p(pts);
  dl->AddPolyline(p.data(), static_cast<int>(p.size()), col, ImDrawFlags_None, 2.0f);
  const ImVec2 a = p[p.size() - 2], b = p.back();
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::max(1e-3f, std::sqrt(dx * dx + dy * dy));
  const float ux = dx / len, uy = dy / len, sz = 8.0f;
  dl->AddTriangleFilled(b, ImVec2(b.x - ux * sz - uy * sz * 0.5f, b.y - uy * sz + ux * sz * 0.5f),
                        ImVec2(b.x - ux * sz + uy * sz * 0.5f, b.y - uy * sz - ux * sz * 0.5f), col);
}

// A small label on a background box, centred at c (drawn over a line).
void line_label(ImDrawList* dl, ImVec2 c, const char* text, ImU32 col) {
  const ImVec2 sz = ImGui::CalcTextSize(text);
  const ImVec2 p(c.x - 0.5f * sz.x, c.y - 0.5f * sz.y);
  dl->AddRectFilled(ImVec2(p.x - 3, p.y - 1), ImVec2(p.x + sz.x + 3, p.y + sz.y + 1),
                    ImGui::GetColorU32(ImGuiCol_WindowBg));
  dl->AddText(p, col, text);
}

constexpr float kPlusR = 10.0f;

void plus_node(ImDrawList* dl, ImVec2 c) {
  dl->AddCircleFilled(c, kPlusR, ImGui::GetColorU32(ImGuiCol_WindowBg));
  dl->AddCircle(c, kPlusR, ink_u32(Ink::Orange), 24, 2.0f);
  dl->AddLine(ImVec2(c.x - 5, c.y), ImVec2(c.x + 5, c.y), ink_u32(Ink::Orange), 2.0f);
  dl->AddLine(ImVec2(c.x, c.y - 5), ImVec2(c.x, c.y + 5), ink_u32(Ink::Orange), 2.0f);
}

// [SECTION] the flow: row 1 = input, attention, +, LayerNorm; row 2 = feed-forward, +, LayerNorm

void draw_flow(const EncoderData& d, std::uint64_t version, const Settings& s) {
  const Layout L = make_layout(d);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float lane_h = ImGui::GetTextLineHeight() + 10.0f;
  Tile t[8];
  const float row1_y = start.y + lane_h + 6.0f;
  for (int k = 0; k < 4; ++k) t[k] = draw_tile(kSteps[k], d, version, s, L, ImVec2(L.slot_x(k), row1_y));
  float row1_bottom = 0.0f;
  for (int k = 0; k < 4; ++k) row1_bottom = std::max(row1_bottom, t[k].max.y);
  const float lane2a = row1_bottom + 0.5f * lane_h + 4.0f, lane2b = lane2a + lane_h;
  const float row2_y = lane2b + lane_h;
  for (int k = 4; k < 8; ++k) t[k] = draw_tile(kSteps[k], d, version, s, L, ImVec2(L.slot_x(k - 4), row2_y));
  float bottom = 0.0f;
  for (int k = 4; k < 8; ++k) bottom = std::max(bottom, t[k].max.y);

  const float y1 = t[0].mid_y, y2 = t[4].mid_y;
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float below = 0.5f * ImGui::GetTextLineHeight() + 8.0f;  // operation labels sit under the arrows
  // row 1: input -> attention -> (+) -> x + attention -> LayerNorm
  const float b1 = L.slot_x(1) - 0.5f * L.gap, plus1 = L.slot_x(2) - 0.5f * L.gap + 4.0f;
  arrow(dl, {ImVec2(t[0].max.x + 3.0f, y1), ImVec2(t[1].min.x - 3.0f, y1)}, ink_u32(Ink::Flow));
  line_label(dl, ImVec2(b1, y1 + below), "attend", dim);
  arrow(dl, {ImVec2(t[1].max.x + 3.0f, y1), ImVec2(plus1 - kPlusR, y1)}, ink_u32(Ink::Flow));
  arrow(dl, {ImVec2(plus1 + kPlusR, y1), ImVec2(t[2].min.x - 3.0f, y1)}, ink_u32(Ink::Flow));
  arrow(dl, {ImVec2(t[2].max.x + 3.0f, y1), ImVec2(t[3].min.x - 3.0f, y1)}, ink_u32(Ink::Flow));
  line_label(dl, ImVec2(L.slot_x(3) - 0.5f * L.gap, y1 + below), "norm", dim);
  // skip 1: from the input, over attention, into the first "+"
  const float lane1 = start.y + 0.5f * lane_h;
  dl->AddCircleFilled(ImVec2(b1, y1), 4.0f, ink_u32(Ink::Orange));
  arrow(dl, {ImVec2(b1, y1), ImVec2(b1, lane1), ImVec2(plus1, lane1), ImVec2(plus1, y1 - kPlusR)},
        ink_u32(Ink::Orange));
  line_label(dl, ImVec2(0.5f * (b1 + plus1), lane1), "skip: x goes around attention", ink_u32(Ink::Orange));
  plus_node(dl, ImVec2(plus1, y1));
  // LayerNorm -> down and back to the feed-forward at the start of row 2
  const float xr = std::max(t[3].max.x, L.slot_x(3) + L.slot) + 0.5f * L.margin, xl = L.x0 + 0.5f * L.margin;
  arrow(dl,
        {ImVec2(t[3].max.x + 3.0f, y1), ImVec2(xr, y1), ImVec2(xr, lane2a), ImVec2(xl, lane2a),
         ImVec2(xl, y2), ImVec2(t[4].min.x - 3.0f, y2)},
        ink_u32(Ink::Flow));
  line_label(dl, ImVec2(0.5f * (xl + L.slot_x(1)), lane2a), "feed-forward: W1, then ReLU", dim);
  // skip 2: from the LayerNorm, around the feed-forward, into the second "+"
  const float plus2 = L.slot_x(2) - 0.5f * L.gap + 4.0f;
  dl->AddCircleFilled(ImVec2(xr, lane2a), 4.0f, ink_u32(Ink::Orange));
  arrow(dl, {ImVec2(xr, lane2a), ImVec2(xr, lane2b), ImVec2(plus2, lane2b), ImVec2(plus2, y2 - kPlusR)},
        ink_u32(Ink::Orange));
  line_label(dl, ImVec2(0.5f * (plus2 + xr), lane2b), "skip: the normalised rows go around the feed-forward",
             ink_u32(Ink::Orange));
  // row 2: hidden -> feed-forward out -> (+) -> norm + feed-forward -> output
  arrow(dl, {ImVec2(t[4].max.x + 3.0f, y2), ImVec2(t[5].min.x - 3.0f, y2)}, ink_u32(Ink::Flow));
  line_label(dl, ImVec2(L.slot_x(1) - 0.5f * L.gap, y2 + below), "W2", dim);
  arrow(dl, {ImVec2(t[5].max.x + 3.0f, y2), ImVec2(plus2 - kPlusR, y2)}, ink_u32(Ink::Flow));
  arrow(dl, {ImVec2(plus2 + kPlusR, y2), ImVec2(t[6].min.x - 3.0f, y2)}, ink_u32(Ink::Flow));
  plus_node(dl, ImVec2(plus2, y2));
  arrow(dl, {ImVec2(t[6].max.x + 3.0f, y2), ImVec2(t[7].min.x - 3.0f, y2)}, ink_u32(Ink::Flow));
  line_label(dl, ImVec2(L.slot_x(3) - 0.5f * L.gap, y2 + below), "norm", dim);

  ImGui::SetCursorScreenPos(ImVec2(start.x, bottom + 6.0f));
  ImGui::Dummy(ImVec2(xr - start.x + 8.0f, 1.0f));
}

// [SECTION] per-head weights and the LayerNorm check

void draw_heads(const EncoderData& d, std::uint64_t version, const Settings& s) {
  const auto& heads = d.r.block.mha.head;
  const float side = std::clamp(static_cast<float>(d.r.tokens.size()) * 14.0f, 80.0f, 150.0f);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  float last_x = 0.0f;  // right edge of the previous grid
  for (size_t h = 0; h < heads.size(); ++h) {
    if (h > 0 && last_x + 16.0f + side + 130.0f < right) ImGui::SameLine(0, 16);
    ImGui::BeginGroup();
    ImGui::Text("head %zu (%d × %d)", h, static_cast<int>(heads[h].weights.rows()),
                static_cast<int>(heads[h].weights.cols()));
    HeatmapSpec spec =
        weight_grid_spec("encoder/head" + std::to_string(h), heads[h].weights, version, d.labels, s, side);
    spec.show_colorbar = h + 1 == heads.size();
    heatmap_view(spec);
    ImGui::EndGroup();
    last_x = ImGui::GetItemRectMax().x;
  }
}

void draw_norm_check(const EncoderData& d) {
  const attn::Mat& mo = d.norm1_moments;
  const float worst_mean = mo.col(0).cwiseAbs().maxCoeff();
  paragraph(layer_norm_check(d.labels.empty() ? "" : d.labels[0], mo(0, 0), mo(0, 1),
                             static_cast<int>(mo.rows()), worst_mean, mo.col(1).minCoeff(),
                             mo.col(1).maxCoeff()));
  text_wrapped_disabled(
      "d_model %d, %d head%s of dₖ %d, feed-forward width d_ff = 4 × d_model = %d; computed in %.1f ms",
      static_cast<int>(d.r.block.input.cols()), static_cast<int>(d.r.block.mha.head.size()),
      d.r.block.mha.head.size() == 1 ? "" : "s",
      static_cast<int>(d.r.block.mha.head.empty() ? 0 : d.r.block.mha.head[0].output.cols()), d.r.d_ff,
      d.compute_ms);
}

// state().shown: the sizes, every step's shape, the first LayerNorm row's moments and (up to 64 tokens) the
// block's output.
void fill(nlohmann::json& shown, const Settings& s, const EncoderData& d) {
  nlohmann::json shapes = nlohmann::json::object();
  for (const Step& st : kSteps) {
    const attn::Mat& m = st.get(d.r.block);
    shapes[st.key] = {m.rows(), m.cols()};
  }
  const auto t = static_cast<int>(d.r.tokens.size());
  shown["tokens"] = d.r.tokens;
  shown["dropped_tokens"] = d.r.dropped_tokens;
  shown["d_model"] = s.d_model;
  shown["heads"] = s.heads;
  shown["d_ff"] = d.r.d_ff;
  shown["positions"] = attn::scheme_name(s.positions);
  shown["causal"] = s.causal;
  shown["seed"] = s.seed;
  shown["shapes"] = std::move(shapes);
  nlohmann::json& stats = shown["norm1_row_stats"];
  stats["row"] = 0;
  stats["mean"] = d.norm1_moments(0, 0);
  stats["var"] = d.norm1_moments(0, 1);
  shown["norm1_var_range"] =
      std::vector<float>{d.norm1_moments.col(1).minCoeff(), d.norm1_moments.col(1).maxCoeff()};
  if (t <= 64) shown["output"] = matrix_json(d.r.block.output);
}

}  // namespace

void draw_encoder_scene(SceneContext& ctx) {
  EncoderMemo& memo = ctx.kept<EncoderMemo>();
  Settings& s = ctx.settings;
  text_wrapped("%s", kIntro);
  if (ctx.settings_open()) attention_controls(s);
  if (!update(memo, s).ok()) {
    ctx.fail(memo.error());
    ctx.report([error = memo.error(), d_model = s.d_model, heads = s.heads](nlohmann::json& shown) {
      shown = nlohmann::json::object();
      shown["error"] = error;
      shown["d_model"] = d_model;
      shown["heads"] = heads;
    });
    return;
  }
  const EncoderData& data = memo.value();
  truncation_note(data.r.dropped_tokens);
  // The diagram keeps its shape; on a narrow screen it scrolls sideways inside its own region. Only
  // sideways: its scrollbar leaves it a few pixels of vertical room, and ImGui would give it the wheel for
  // them, so the scene would not scroll under the pointer. The vertical wheel goes on to the scene; the
  // sideways wheel (or Shift + wheel) scrolls the diagram.
  ImGui::BeginChild("flow", ImVec2(0.0f, 0.0f), ImGuiChildFlags_AutoResizeY,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened |
                        ImGuiWindowFlags_NoScrollWithMouse);
  const ImGuiIO& io = ImGui::GetIO();
  const float sideways = io.MouseWheelH != 0.0f ? io.MouseWheelH : io.KeyShift ? io.MouseWheel : 0.0f;
  if (sideways != 0.0f && ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows))
    ImGui::SetScrollX(ImGui::GetScrollX() - sideways * 5.0f * ImGui::GetFontSize());
  draw_flow(data, memo.version(), s);
  mark_window("hscroll/flow");
  ImGui::EndChild();
  if (section("LayerNorm check", "notes", s.hide)) draw_norm_check(data);
  if (section("Attention weights of each head", "heads", s.hide)) draw_heads(data, memo.version(), s);
  ctx.report([s = Settings(s), d = memo.shared()](nlohmann::json& shown) { fill(shown, s, *d); });
}

}  // namespace app
