// The schemes scene's "Learned table limits" panel: the long email through learned, sinusoidal and RoPE
// positions, the BERT and GPT-2 presets, and the first slot past the table's end.
#include <imgui.h>

#include <algorithm>
#include <new>

#include "app/logic/captions.hpp"
#include "app/logic/memo.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/scenes/schemes/panels.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/scheme_probe.hpp"
#include "core/tokenizer.hpp"

namespace app::schemes {

// [SECTION] Learned table limits: the long email

namespace {

struct LimitRun {
  std::string error;
  float entropy = 0;
};

// The long email through learned, sinusoidal and RoPE positions; rebuilt when its inputs change.
struct LimitsData {
  int tokens = 0, dropped = 0;
  std::string error;  // the text itself could not be used
  LimitRun learned, sinusoidal, rope;
  std::string past_end;  // the learned table's error for position `slots`, the first one past its end
  bool causal = false;
  attn::HeadStats even{};  // even attention over `tokens` keys (the entropy baseline)
};

LimitRun run_long(const std::vector<std::string>& email, const attn::PipelineConfig& c,
                  const attn::MhaWeights& w, int head, LimitsData& l) {
  LimitRun run;
  try {
    const attn::PipelineResult r = attn::run_pipeline(email, c, &w);
    run.entropy = r.stats[static_cast<size_t>(head)].entropy;
    l.tokens = static_cast<int>(r.tokens.size());
    l.dropped = r.dropped_tokens;
  } catch (const attn::InputError& e) {
    run.error = e.what();
  } catch (const std::bad_alloc&) {
    run.error = kTooLargeMessage;
  }
  return run;
}

// What the learned table says when asked for position `slots`, the first one past its end ("" if it
// answered). Asked directly, so it shows even where a text would be cut at kMaxTokens first.
std::string past_end_error(const attn::PipelineConfig& c) {
  try {
    attn::Learned(c.learned_slots, 1, c.seed).table({c.learned_slots});  // width 1: the answer is the same
  } catch (const attn::InputError& e) {
    return e.what();
  }
  return "";
}

LimitsData compute_limits(const SchemesData& d, const Settings& s) {
  LimitsData l;
  try {
    const std::vector<std::string> email = attn::repeat_tokens(attn::tokenize(s.text), s.length);
    const attn::MhaWeights w = attn::scene_weights(pipeline_config(s));  // one draw for all three runs
    l.learned = run_long(email, pipeline_config(s, attn::Scheme::Learned), w, d.head, l);
    l.sinusoidal = run_long(email, pipeline_config(s, attn::Scheme::Sinusoidal), w, d.head, l);
    l.rope = run_long(email, pipeline_config(s, attn::Scheme::Rope), w, d.head, l);
  } catch (const attn::InputError& e) {
    l.error = e.what();
  }
  l.past_end = past_end_error(pipeline_config(s, attn::Scheme::Learned));
  l.causal = s.causal;
  if (l.tokens > 0) l.even = attn::even_stats(l.tokens, l.causal);
  return l;
}

void limit_row(const char* name, const LimitRun& run, const LimitsData& l, int head) {
  table_row();
  table_cell();
  ImGui::TextUnformatted(name);
  table_cell();
  if (!run.error.empty()) {
    error_box(run.error);
    return;
  }
  text_wrapped_colored(ink(Ink::Right), "ok: %d tokens, entropy of head %d = %.3f (even attention: %s)",
                       l.tokens, head, static_cast<double>(run.entropy),
                       even_entropy(l.tokens, l.causal, l.even).c_str());
}

nlohmann::json run_json(const LimitRun& run) {
  nlohmann::json j;
  j["ok"] = run.error.empty();
  j["error"] = run.error;
  if (run.error.empty()) j["entropy"] = run.entropy;
  return j;
}

// Real tables' sizes: buttons that set the slots and a text one token longer than the table.
void draw_presets(Settings& s) {
  ImGui::TextUnformatted("Real tables have fixed sizes:");
  for (const SlotPreset& p : learned_slot_presets()) {
    same_line_if_fits(buttons_width({p.label}));
    if (ImGui::Button(p.label)) apply_slot_preset(s, p);
  }
  help_marker(
      "Each button sets the table's slots and an email one token longer, so its last token needs the first "
      "slot past the end, and the line under the table asks the table for that position directly. BERT "
      "learned 512 slots and GPT-2 1,024: there is no vector for slot 1,025. (This app runs at most 1,024 "
      "tokens, so the GPT-2 email is cut first and its learned row stays ok.)");
}

// state().shown["limits"]: the long email through each scheme and the first slot past the table's end.
void fill_limits(nlohmann::json& shown, const LimitsData& l, int slots, int length) {
  nlohmann::json& j = shown["limits"];  // key by key: nested initializer lists cost the page more code
  j["slots"] = slots;
  j["length"] = length;
  j["tokens"] = l.tokens;
  j["dropped"] = l.dropped;
  j["learned"] = run_json(l.learned);
  j["sinusoidal"] = run_json(l.sinusoidal);
  j["rope"] = run_json(l.rope);
  if (!l.error.empty()) shown["limits"]["error"] = l.error;
  shown["limits"]["past_end_error"] = l.past_end;
}

// draw_limits' state: the long email's numbers, from SchemesData::version and the length.
struct LimitsState : SceneState {
  Memo<LimitsData, std::uint64_t, int> memo;
};

}  // namespace

void draw_limits(Settings& s, const std::shared_ptr<const SchemesData>& kept, bool open, SceneContext& ctx) {
  const SchemesData& d = *kept;
  Memo<LimitsData, std::uint64_t, int>& memo = state_in<LimitsState>(ctx.state<SchemesState>().limits).memo;
  if (open) {
    text_wrapped(
        "A learned table has one vector per slot and nothing past the last one. Arjun's router "
        "learned 128 slots on short emails; the first 400-token complaint crashed it. Here the "
        "email is the text above, repeated until it is long enough.");
    ImGui::SetNextItemWidth(220);
    slider_int("learned slots##limits", &s.slots, 1, 4096, "%d",
               ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    same_line_if_fits(220, "email length (tokens)");
    ImGui::SetNextItemWidth(220);
    slider_int("email length (tokens)", &s.length, 1, 4096, "%d",
               ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  }
  if (open) draw_presets(s);
  memo.get({d.version, s.length}, [&] { return compute_limits(d, s); });
  if (!memo.ok()) return error_box(memo.error());
  const std::shared_ptr<const LimitsData> limits = memo.shared();
  const LimitsData& l = *limits;
  ctx.report([limits, slots = s.slots, length = s.length](nlohmann::json& shown) {
    fill_limits(shown, *limits, slots, length);
  });
  if (!open) return;
  if (!l.error.empty()) {
    error_box(l.error);
    return;
  }
  if (l.dropped > 0) {
    truncation_note(l.dropped);
    text_wrapped("The core takes at most %d tokens, so the %d-token email runs as its first %d tokens.",
                 attn::kMaxTokens, s.length, l.tokens);
  }
  if (!begin_table("limits", {{"scheme", 110.0f}, {"the long email"}})) return;
  limit_row("learned", l.learned, l, d.head);
  limit_row("sinusoidal", l.sinusoidal, l, d.head);
  limit_row("rope", l.rope, l, d.head);
  end_table();
  text_wrapped_colored(ink(Ink::Wrong),
                       "The learned table asked for position %d, the first "
                       "one past its end: %s",
                       s.slots, l.past_end.empty() ? "it answered" : l.past_end.c_str());
  const bool ran = l.sinusoidal.error.empty() && l.rope.error.empty();
  text_wrapped(
      "Sinusoidal and RoPE compute a position's signal from its number, so any position has one. %s a model "
      "trained on short texts still gets worse far past them. Production long-context models usually use "
      "relative or RoPE-style schemes, not learned tables.",
      ran ? "They do not crash, but" : "Even so,");
}

}  // namespace app::schemes
