// The multi-head scene's "Where heads break" panel: emergent roles, spare heads, narrower heads, hints.
#include <imgui.h>

#include <algorithm>

#include "app/logic/captions.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/mha/panels.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/attention.hpp"
#include "core/error.hpp"

namespace app::mha {
namespace {

// d_k and the layer's weights for every head count up to 16 that divides d_model.
void draw_width_table(const Settings& s) {
  if (!begin_table("head_widths", {{"heads"}, {"dₖ per head"}, {"weights of the layer"}})) return;
  for (int h = 1; h <= 16; ++h) {
    if (s.d_model % h != 0) continue;
    const attn::ParameterCount pc = attn::count_parameters(s.d_model, h);
    const ImVec4 col = h == s.heads ? ink(Ink::Right) : ImGui::GetStyleColorVec4(ImGuiCol_Text);
    table_row();
    table_cell();
    ImGui::TextColored(col, "%d%s", h, h == s.heads ? " (now)" : "");
    table_cell();
    ImGui::TextColored(col, "%d", pc.d_k);
    table_cell();
    ImGui::TextColored(col, "%s", grouped(pc.fused).c_str());
  }
  end_table();
}

// At d_k = 1: how many keys the rows of the heads on screen peak on, and why when it is more than two.
void narrow_heads_note(const Settings& s, const std::vector<int>& peaks) {
  const int lo = *std::min_element(peaks.begin(), peaks.end());
  const int hi = *std::max_element(peaks.begin(), peaks.end());
  std::string why;
  if (hi > 2 && s.causal)
    why += " With the causal mask row i ranks only keys 0 to i, so a new key can take the peak as rows grow.";
  if (hi > 2 && s.positions == attn::Scheme::Alibi)
    why += " ALiBi's distance penalty moves the peak with the row.";
  if (lo == hi) {
    text_wrapped("Here dₖ = 1: every head's rows peak on %d different key%s.%s", lo, lo == 1 ? "" : "s",
                 why.c_str());
  } else {
    text_wrapped("Here dₖ = 1: the heads' rows peak on %d to %d different keys.%s", lo, hi, why.c_str());
  }
}

}  // namespace

bool draw_breaks(const Settings& s, bool offer_example, const std::vector<int>& peaks) {
  text_wrapped(
      "Nobody assigns a head its job. In the lesson's tasting panel Meera gives each taster a question "
      "(sweetness, packaging, price); a model's heads get none. Roles found in trained heads, such as \"look "
      "at the next "
      "word\", \"find the verb for its subject\" or \"link a pronoun to its noun\", emerge in training, "
      "where "
      "they emerge at all, and many heads do things nobody has neatly explained. %s",
      offer_example
          ? "The heads here are untrained: their patterns come from the seed, the words and the "
            "positions (the Train scene's model shows what training made of its heads)."
          : "These heads were trained on the refund emails: whatever roles they show emerged there, "
            "and nobody chose them.");
  paragraph(
      "Many heads are spare: researchers pruned trained models and lost only a little quality with a good "
      "fraction of the heads gone, because heads overlap and some do very little. That is one reason later "
      "designs let a group of query heads share one set of keys and values (multi-query and grouped-query "
      "attention), which saves memory.");
  text_wrapped("More heads at the same width means narrower heads: dₖ = d_model / heads. At d_model %d:",
               s.d_model);
  draw_width_table(s);
  long long cost = 0;
  try {
    cost = attn::count_parameters(s.d_model, 1).fused;
  } catch (const attn::InputError&) {
    cost = 0;
  }
  text_wrapped(
      "Every row costs the same %s weights (4 × d_model × d_model): more heads do not buy more numbers, they "
      "buy h separate dₖ-wide subspaces, each with its own queries, keys and pattern, instead of one wide "
      "one. Past a point each head is too thin to be useful: its score q · k adds up only dₖ products, and "
      "at dₖ = 1 it is a single product q × k, so, without the causal mask or ALiBi (RoPE has no pair to "
      "turn), every query ranks the keys in the same order, or in the reverse order when its q is negative: "
      "each row peaks on one of the same two keys, whatever the words around it; only how sharp the peak is "
      "changes with the size of q.",
      grouped(cost).c_str());
  if (s.d_model == s.heads && !peaks.empty()) narrow_heads_note(s, peaks);
  bool example = false;
  if (offer_example) {
    example = ImGui::Button("See dₖ = 1: d_model 16 with 16 heads, causal off");
    mark_item("mha/narrowest");
  }
  paragraph(
      "Attention maps are hints, not proofs: a bright cell says where a head's weight went, not why the "
      "model decided what it did. To learn whether a head matters, change it (remove it, or scramble its "
      "weights) and measure what happens to the output.");
  return example;
}

void show_narrowest_heads(Settings& s) {
  s.d_model = 16, s.heads = 16, s.head = -1, s.causal = false;
  if (s.positions == attn::Scheme::Rope || s.positions == attn::Scheme::Alibi)
    s.positions = attn::Scheme::Sinusoidal;
}

}  // namespace app::mha
