// Real model scene: a pretrained language model's files opened in the page (llama2.c, Hugging Face GPT-2 or
// Llama), run on the learner's text in the compute worker: the next token's top 10, generation one token at
// a time, every head's grid, the heads' measured roles, and heads switched off.
#include "app/scenes/lm/lm.hpp"

#include <imgui.h>

#include "app/logic/compute_link.hpp"
#include "app/logic/head_measure.hpp"
#include "app/logic/lm_store.hpp"
#include "app/logic/text.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/train/head_roles.hpp"

namespace app::lm_scene {
namespace {

constexpr const char* kIntro =
    "Open a pretrained model's files (they stay on your computer): a llama2.c checkpoint (.bin) with its "
    "tokenizer.bin, or a Hugging Face GPT-2 or Llama folder's config.json, .safetensors and tokenizer files. "
    "Every head of every layer reads your text at once.";

std::string millions(long long n) {
  return n >= 1000000 ? format("%.1fM", static_cast<double>(n) / 1e6) : format("%lld", n);
}

void draw_open(Settings& s, LmSceneState& st, nlohmann::json& shown) {
  if (!s.checkpoint.empty() && st.linked != s.checkpoint) {
    st.linked = s.checkpoint;
    open_linked_checkpoint(s.checkpoint);
  }
  if (files_are_picked()) {
    if (ImGui::Button("Open model files...")) pick_checkpoint_files();
    ImGui::SameLine();
    help_marker("Pick both files at once, or drop them on the page: e.g. stories15M.bin and tokenizer.bin.");
  }
  const LmStore& store = lm_store();
  const LmInfo& info = store.info;
  if (!store.opening.empty()) {
    text_wrapped("Opening %s (%.1f MB)%s...", store.opening.c_str(),
                 static_cast<double>(store.opening_bytes) / 1e6,
                 store.in_worker ? " in the compute worker" : "");
    request_next_frame();
  }
  if (!info.error.empty()) error_box("Could not open " + info.source + ": " + info.error);
  if (!info.ok()) {
    if (store.opening.empty()) text_wrapped("No model is open yet.");
    return;
  }
  text_wrapped(
      "%s (%s): %d layers x %d heads (%d key/value heads), d_model %d, feed-forward %d, vocabulary %d, "
      "context %d tokens, %s parameters%s. Opened in %.2f s.",
      info.source.c_str(), info.format.c_str(), info.layers, info.heads, info.kv_heads, info.d_model,
      info.d_ff, info.vocab, info.max_len, millions(info.parameters).c_str(),
      info.learned_positions ? ", a learned position table (its last slot is a hard limit)"
                             : ", rotary positions (RoPE)",
      info.seconds);
  if (ImGui::Button("Close model")) lm_close();
  nlohmann::json& m = shown["model"];
  m["format"] = info.format;
  m["source"] = info.source;
  const std::pair<const char*, long long> sizes[] = {
      {"layers", info.layers},   {"heads", info.heads},           {"kv_heads", info.kv_heads},
      {"d_model", info.d_model}, {"vocab", info.vocab},           {"max_len", info.max_len},
      {"d_ff", info.d_ff},       {"parameters", info.parameters}, {"memory", info.memory}};
  for (const auto& [name, value] : sizes) m[name] = value;
  m["tokenizer"] = info.has_tokenizer;
  m["in_worker"] = store.in_worker;
  m["seconds"] = info.seconds;
}

// The question the settings ask.
LmRequest question(const Settings& s, const LmInfo& info) {
  LmRequest q;
  q.text = s.text;
  q.off = s.off;
  q.generate = s.generate;
  q.temperature = s.temperature;
  q.seed = static_cast<std::uint64_t>(s.seed);
  q.roles = lm_store().roles_model != info.model;
  int l = 0, h = 0;
  if (parse_grid(s.grid, info, l, h)) q.grid = l * info.heads + h;
  return q;
}

void draw_prompt(Settings& s) {
  ImGui::SetNextItemWidth(-1.0f);
  text_field("##lm/text", "your text", s.text);
  {
    const LockScope lock(&s.generate);
    if (ImGui::Button("Next token") && s.generate < 256) ++s.generate;
    ImGui::SameLine();
    if (ImGui::Button("10 more")) s.generate = std::min(256, s.generate + 10);
    ImGui::SameLine();
    if (ImGui::Button("Back to the text")) s.generate = 0;
  }
  same_line_if_fits(220, "temperature");
  {
    const LockScope lock(&s.temperature);
    static const double kChoices[] = {0.0, 0.5, 0.8, 1.0, 1.5};
    ImGui::SetNextItemWidth(120);
    const std::string now = s.temperature > 0 ? format("%.2f", s.temperature) : "0 (greedy)";
    if (begin_combo("temperature", now.c_str())) {
      for (const double t : kChoices) {
        if (ImGui::Selectable(t > 0 ? format("%.1f", t).c_str() : "0 (greedy)", s.temperature == t))
          s.temperature = t;
      }
      ImGui::EndCombo();
    }
  }
  ImGui::SameLine();
  help_marker(
      "0 takes the most likely token; above 0 one is drawn (seeded), flatter above 1, sharper below.");
}

void draw_tokens(const LmAnswer& a, nlohmann::json& shown) {
  std::string prompt, written;
  for (size_t i = 0; i < a.pieces.size(); ++i)
    (static_cast<int>(i) < a.prompt ? prompt : written) += a.pieces[i];
  text_wrapped("%d tokens: %s", static_cast<int>(a.ids.size()), prompt.c_str());
  if (!written.empty())
    text_wrapped_colored(ImVec4(0.45f, 0.8f, 1.0f, 1.0f), "written by the model: %s", written.c_str());
  shown["ids"] = a.ids;
  shown["pieces"] = a.pieces;
  shown["prompt_length"] = a.prompt;
  shown["text"] = a.text;
  shown["seconds"] = a.seconds;
}

void draw_next(const LmAnswer& a, nlohmann::json& shown) {
  nlohmann::json& next = shown["next"] = nlohmann::json::array();
  for (const LmNext& n : a.next) {  // reported whether or not the table is on screen
    nlohmann::json& e = next.emplace_back();
    e["id"] = n.id;
    e["p"] = n.p;
    e["piece"] = n.piece;
  }
  if (!begin_table("lm/next", {{"next token"}, {"id"}, {"probability", 160}})) return;
  for (const LmNext& n : a.next) {
    table_row();
    table_text("'" + n.piece + "'");
    table_text(std::to_string(n.id));
    table_cell();
    ImGui::ProgressBar(static_cast<float>(n.p), ImVec2(150, 0), format("%.1f%%", 100.0 * n.p).c_str());
  }
  end_table();
}

}  // namespace

bool parse_grid(const std::string& grid, const LmInfo& info, int& layer, int& head) {
  const std::vector<std::string> parts = split_list(grid, '.');
  double l = -1, h = -1;
  if (parts.size() != 2 || !parse_number(parts[0], 0, info.layers - 1, l) ||
      !parse_number(parts[1], 0, info.heads - 1, h))
    return false;
  layer = static_cast<int>(l), head = static_cast<int>(h);
  return true;
}

}  // namespace app::lm_scene

namespace app {

void draw_lm_scene(SceneContext& ctx) {
  using namespace lm_scene;
  LmSceneState& st = ctx.state<LmSceneState>();
  st.drawn.reset();  // the last frame's heatmaps are gone
  Settings& s = ctx.settings;
  text_wrapped("%s", kIntro);
  want_compute_worker();  // the model is opened and run there
  nlohmann::json shown = nlohmann::json::object();
  shown["model"] = nullptr;
  if (section("The model's files", "file", s.hide)) draw_open(s, st, shown);
  const LmStore& store = lm_store();
  const LmInfo& info = store.info;
  shown["opening"] = store.opening;
  shown["open_error"] = info.error;
  const auto finish = [&] { ctx.report([j = std::move(shown)](nlohmann::json& out) { out.update(j); }); };
  if (!info.ok()) return finish();

  if (section("Your text, and what the model writes", "controls", s.hide)) draw_prompt(s);
  std::string off_error;
  attn::HeadSwitch off = heads_off_setting(s.off, info.layers, info.heads, off_error);
  bool waiting = false;
  if (info.has_tokenizer) {
    LmRequest q = question(s, info);
    if (!off_error.empty()) q.off.clear();
    st.drawn = lm_answer_for(q, waiting);
  } else {
    ctx.fail("open its tokenizer.bin with the checkpoint to type a text");
  }
  shown["waiting"] = waiting;
  shown["off"] = heads_off_text(off);
  shown["off_error"] = off_error;
  if (!off_error.empty()) error_box(off_error);
  if (waiting) text_wrapped_disabled("computing in the compute worker...");
  const LmAnswer* a = st.drawn.get();
  if (a && !a->error.empty()) ctx.fail(a->error);
  if (a && a->error.empty()) {
    draw_tokens(*a, shown);
    if (section("The next token", "next", s.hide)) draw_next(*a, shown);
    if (section("Every head of every layer", "grids", s.hide)) draw_model_view(s, info, *a, off, shown);
    if (section("One head, enlarged", "enlarged", s.hide)) draw_enlarged(s, info, *a, off, shown);
  }
  if (section("What each head does", "heads", s.hide)) draw_roles(s, info, off, shown);
  finish();
}

}  // namespace app
