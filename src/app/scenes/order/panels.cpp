// The order scene's panels: the refund table, the shuffle test's controls and heatmaps, the common mistake.
#include "app/scenes/order/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/logic/captions.hpp"
#include "app/logic/text.hpp"
#include "app/platform_io.hpp"
#include "app/widgets/attention_controls.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/widgets.hpp"
#include "core/analysis.hpp"

namespace app {

bool inside_attention(attn::Scheme s) {
  const attn::SchemeDef& d = attn::scheme_def(s);
  return d.rotation || d.score_bias || d.distance;
}

namespace {

const ImVec4 kGood(0.45f, 0.9f, 0.45f, 1.0f);
const ImVec4 kBad(1.0f, 0.6f, 0.3f, 1.0f);
const char* const kRupee = "\u20b9";

// "refund the fee  0.74" for one email in one column, with every probability in the tooltip.
void email_cell(const attn::SeededRouterResult& r) {
  const auto& labels = attn::SeededRouter::labels();
  ImGui::Text("%s  %.2f", labels[static_cast<size_t>(r.label)].c_str(), static_cast<double>(r.confidence));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("P(%s) = %.9g\nP(%s) = %.9g", labels[0].c_str(),
                      static_cast<double>(r.probabilities[0]), labels[1].c_str(),
                      static_cast<double>(r.probabilities[1]));
  }
}

std::string joined(const std::vector<std::string>& tokens, size_t limit = 32) {
  std::string out;
  for (size_t i = 0; i < tokens.size() && i < limit; ++i) out += (i ? " [" : "[") + tokens[i] + "]";
  if (tokens.size() > limit) out += " ... (" + std::to_string(tokens.size() - limit) + " more)";
  return out;
}

void draw_router_table(const RouterData& r) {
  const std::string with = "with " + attn::scheme_name(r.positioned.scheme);
  if (!begin_table("refund", {{"email", 300}, {"no positions"}, {with.c_str()}})) return;
  for (size_t i = 0; i < 2; ++i) {
    table_row();
    table_cell();
    ImGui::TextUnformatted(refund_emails()[i].c_str());
    for (const RouterColumn* col : {&r.plain, &r.positioned}) {
      table_cell();
      if (col->error.empty()) email_cell(col->emails[i]);
    }
  }
  table_row();
  table_cell();
  ImGui::TextUnformatted("difference of the probabilities");
  for (const RouterColumn* col : {&r.plain, &r.positioned}) {
    table_cell();
    if (col->error.empty()) ImGui::Text("difference: %.3g", col->difference);
  }
  table_row();
  table_cell();
  ImGui::TextUnformatted("same label for both?");
  for (const RouterColumn* col : {&r.plain, &r.positioned}) {
    table_cell();
    if (col->error.empty())
      ImGui::TextUnformatted(col->emails[0].label == col->emails[1].label ? "yes" : "no");
  }
  end_table();
}

// A heatmap of one (T, D) output with rows labelled by tokens, on the shared colour scale.
void output_heatmap(const char* id, const char* title, const attn::Mat& m,
                    const std::vector<std::string>& rows, const ShuffleData& d, std::uint64_t version,
                    float width, const std::vector<int>* perm = nullptr) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  HeatmapSpec spec = heatmap_spec(id, m, version, {&rows, perm ? "slot (new order)" : "token"},
                                  {&d.dim_labels, "dimension"}, gfx::Colormap::Diverging);
  spec.fix_range(-d.range, d.range);
  spec.width = width;
  const float ratio = static_cast<float>(m.rows()) / static_cast<float>(std::max<Eigen::Index>(1, m.cols()));
  const float label_rows = static_cast<float>(m.rows()) * ImGui::GetTextLineHeight();  // every token labelled
  spec.height = std::clamp(std::max(width * ratio, label_rows), 60.0f, 360.0f);
  if (perm) {
    const std::vector<int> p = *perm;
    spec.extra_tooltip = [p](int row, int) {
      return std::vector<std::string>{"this token was at position " +
                                      std::to_string(p[static_cast<size_t>(row)]) + " before the shuffle"};
    };
  }
  heatmap_view(spec);
  ImGui::EndGroup();
}

// Width of one heatmap image when `count` of them share the row (labels and colour bar take ~170 px each).
float heatmap_width(int count) {
  const float avail = ImGui::GetContentRegionAvail().x;
  return std::clamp((avail - static_cast<float>(count) * 170.0f) / static_cast<float>(count), 120.0f, 320.0f);
}

// The original output with its rows in the new order (id + "_permuted") beside the output on the shuffled
// input (id + "_shuffled", titled `title`), each half the width: equal grids mean the order was not seen.
// expected, shuffled: (T, D).
void permuted_and_shuffled(const std::string& id, const char* title, const attn::Mat& expected,
                           const attn::Mat& shuffled, const ShuffleData& d, std::uint64_t version) {
  const float w2 = heatmap_width(2);
  output_heatmap((id + "_permuted").c_str(), "original output, rows reordered", expected, d.shuffled_labels,
                 d, version, w2, &d.perm);
  same_line_if_fits(ImGui::GetItemRectSize().x);  // beside the last one, or under it
  output_heatmap((id + "_shuffled").c_str(), title, shuffled, d.shuffled_labels, d, version, w2, &d.perm);
}

void check_line(const attn::ShuffleCheck& c) {
  ImGui::Text("max difference: %.3g", static_cast<double>(c.max_diff));
  same_line_if_fits(ImGui::CalcTextSize("allclose: false").x);
  ImGui::TextColored(c.allclose ? kGood : kBad, "allclose: %s", c.allclose ? "true" : "false");
  help_marker(
      "allclose compares the shuffled output with the original output, rows reordered: every entry "
      "within 1e-5 + 1e-4 × |value|. true means the layer could not see the new order.");
}

// Two vectors compared as the shuffle test compares outputs (allclose, and the largest difference).
attn::ShuffleCheck compare(const attn::RowVec& a, const attn::RowVec& b) {
  return attn::compare_shuffled(a, b, {0});
}

void draw_perm_controls(Settings& s, const ShuffleData& d, int& counter) {
  ImGui::SetNextItemWidth(260);
  text_field("permutation", "empty: random from the seed", s.perm);
  help_marker(
      "Slot i of the new order holds token perm[i] of the original: 2,0,1 puts token 2 first. Give "
      "every index 0 to T-1 once.");
  same_line_if_fits(buttons_width({"Randomise"}));
  if (ImGui::Button("Randomise") && d.t > 0) {
    std::vector<int> p;
    for (int tries = 0; tries < 16; ++tries) {  // skip the identity when another order exists
      p = attn::random_permutation(
          d.t, (static_cast<std::uint64_t>(s.seed) << 20) + static_cast<unsigned>(++counter));
      if (d.t < 2 || !std::is_sorted(p.begin(), p.end())) break;
    }
    s.perm.clear();
    for (size_t i = 0; i < p.size(); ++i) s.perm += (i ? "," : "") + std::to_string(p[i]);
  }
  same_line_if_fits(buttons_width({"Reset"}));
  if (ImGui::Button("Reset")) s.perm.clear();
  if (d.t > 0 && d.error.empty() && d.from_seed) {
    same_line_if_fits(ImGui::CalcTextSize("(random order from seed 0000000000)").x);
    ImGui::TextDisabled("(random order from seed %d)", s.seed);
  }
}

}  // namespace

void draw_router(const RouterData& r, const std::array<float, 2>& trained_blind) {
  text_wrapped_colored(
      kBad,
      "What is at stake: the customer asked for the %s60 delivery fee back, not the %s850 cake. "
      "A router that reads the email as a bag of words can send the agent to refund the cake: "
      "%s850 paid out instead of %s60.",
      kRupee, kRupee, kRupee, kRupee);
  text_wrapped(
      "Two emails that mean opposite things, built from exactly the same tokens. The router embeds "
      "the tokens, runs multi-head attention, averages the token vectors and picks one of two "
      "labels. Its weights come from the seed: it is untrained.");
  if (r.positions == attn::Scheme::None) {
    text_wrapped_disabled("(positions is none: the second column shows sinusoidal positions)");
  }
  if (!r.plain.error.empty()) {
    error_box(r.plain.error);
    return;
  }
  if (!r.positioned.error.empty())
    error_box("with " + attn::scheme_name(r.positioned.scheme) + ": " + r.positioned.error);
  for (size_t i = 0; i < 2; ++i) {
    text_wrapped("tokens %zu: %s", i + 1, joined(r.plain.emails[i].tokens).c_str());
  }
  text_wrapped_colored(r.same_bag ? kGood : kBad, "sorted, the two token lists are %s: %s",
                       r.same_bag ? "equal" : "different",
                       r.same_bag ? "the same bag of words in a different order" : "different words");
  draw_router_table(r);
  const auto& e = r.plain.emails;
  const bool same = e[0].label == e[1].label, blind = same && r.plain.difference <= 1e-5;
  const std::string c0 = format("%.3f", static_cast<double>(e[0].confidence)),
                    c1 = format("%.3f", static_cast<double>(e[1].confidence));
  text_wrapped("Without positions: %s label, %s. The probabilities are %s.%s",
               same ? "the same" : "a different",
               (c0 == c1 ? "confidence " + c0 + " for both" : "confidences " + c0 + " and " + c1).c_str(),
               order_difference(r.plain.difference).c_str(), blind ? " The model sees no difference." : "");
  const attn::ShuffleCheck pooled = compare(e[0].pooled, e[1].pooled);
  if (pooled.allclose && blind && r.same_bag) {
    text_wrapped(
        "The second email is the first one's tokens reordered and the router averages the token vectors, so "
        "the average is unchanged (largest difference %.3g), and with it the label and confidence: the "
        "router is permutation-invariant.",
        static_cast<double>(pooled.max_diff));
  }
  text_wrapped_disabled(
      "%s", lesson_confidence_note({r.plain.emails[0].confidence, r.plain.emails[1].confidence}, r.seed,
                                   trained_blind)
                .c_str());
  if (!r.positioned.error.empty()) return;
  const std::string scheme = attn::scheme_name(r.positioned.scheme);
  const attn::SchemeDef& def = attn::scheme_def(r.positioned.scheme);
  const char* how = def.rotation
                        ? "each query and key is turned by an angle that depends on where its token sits"
                    : def.score_bias || def.distance
                        ? "each score gets a bias that depends on how far apart its two tokens sit"
                        : "each token also carries where it sits";
  text_wrapped(
      "With %s positions %s, so the two emails reach the classifier as different inputs: the "
      "probabilities differ by %.3g. (Being untrained, the router may still pick the same label; "
      "what matters is that order can now reach the decision.)",
      scheme.c_str(), how, r.positioned.difference);
}

void draw_shuffle(Settings& s, const ShuffleData& d, std::uint64_t version, int& randomised) {
  text_wrapped(
      "Shuffle the tokens of the text and run the same attention layer again (d_model %d, %d head%s, "
      "seed %d).",
      s.d_model, s.heads, s.heads == 1 ? "" : "s", s.seed);
  draw_perm_controls(s, d, randomised);
  if (!d.error.empty()) {
    error_box(d.error);
    return;
  }
  const attn::ShuffleStudy& st = d.study;
  truncation_note(st.dropped_tokens);
  text_wrapped("original order: %s", joined(d.labels).c_str());
  text_wrapped("new order: %s", joined(d.shuffled_labels).c_str());

  ImGui::SeparatorText("No positions");
  if (st.none.check.allclose) {
    text_wrapped(
        "Every query, key and value moves with its token, so each token gets exactly the blend it had "
        "before, now in its new row: the new output is the old one with its rows reordered. Attention is "
        "permutation-equivariant.");
  } else {
    text_wrapped("The new output is not the old one with its rows reordered.");
  }
  check_line(st.none.check);
  const attn::ShuffleCheck mean =
      compare(st.none.original.colwise().mean(), st.none.shuffled.colwise().mean());
  if (mean.allclose) {
    text_wrapped(
        "Averaged over the tokens, as the router does, the output is permutation-invariant: one vector "
        "(largest difference %.3g).",
        static_cast<double>(mean.max_diff));
  }
  const float w3 = heatmap_width(3);
  output_heatmap("order/original", "output, original order", st.none.original, d.labels, d, version, w3);
  same_line_if_fits(ImGui::GetItemRectSize().x);  // beside the last one, or under it
  output_heatmap("order/permuted", "same output, rows reordered", st.none.expected, d.shuffled_labels, d,
                 version, w3, &d.perm);
  same_line_if_fits(ImGui::GetItemRectSize().x);  // beside the last one, or under it
  output_heatmap("order/shuffled", "output on the shuffled tokens", st.none.shuffled, d.shuffled_labels, d,
                 version, w3, &d.perm);

  const std::string scheme = attn::scheme_name(st.scheme);
  ImGui::SeparatorText(("With " + scheme + " positions on the slots").c_str());
  // what happened here: no slot got another token (same input, same output), or the moved tokens' blends
  // changed, or they did not
  const bool moved = st.shuffled != st.tokens, changed = !st.slots.check.allclose;
  const char* then = !moved     ? " Every slot holds the token it held before, so nothing changes."
                     : !changed ? " Yet the output is still the old one, rows reordered."
                     : inside_attention(st.scheme)
                         ? " A token that moved is now seen from a different position, so its blend changes."
                         : " A token that moved now carries a different position, so its blend changes.";
  if (inside_attention(st.scheme)) {
    text_wrapped(
        "%s works inside attention from the position of each slot: slot i is position i whatever "
        "token sits there.%s",
        scheme.c_str(), then);
  } else {
    text_wrapped(
        "Positions belong to slots: shuffle the tokens, then add the same %s table (row i to slot i).%s",
        scheme.c_str(), then);
  }
  check_line(st.slots.check);
  permuted_and_shuffled("order/slots", "output on the shuffled tokens", st.slots.expected, st.slots.shuffled,
                        d, version);
}

void draw_mistake(const ShuffleData& d, std::uint64_t version) {
  if (!d.error.empty()) {
    text_wrapped_disabled("(nothing to show: see the message in the shuffle test above)");
    return;
  }
  const attn::ShuffleStudy& st = d.study;
  const std::string scheme = attn::scheme_name(st.scheme);
  if (inside_attention(st.scheme)) {
    text_wrapped(
        "The mistake: let each word keep the position it had before the shuffle (%s given each "
        "word's old position instead of its slot's).",
        scheme.c_str());
  } else {
    text_wrapped(
        "The mistake: add the %s table to the embeddings first, then shuffle the rows, so each word "
        "takes its old position along to its new slot.",
        scheme.c_str());
  }
  check_line(st.words.check);
  ImGui::SameLine(0, 24);
  text_wrapped_disabled("(with positions on the slots: allclose %s, max difference %.3g)",
                        st.slots.check.allclose ? "true" : "false",
                        static_cast<double>(st.slots.check.max_diff));
  if (st.words.check.allclose) {
    text_wrapped(
        "The shuffled input is then nothing but the original input with its rows reordered, and "
        "attention cannot see row order: the output is the original one, reordered, and the model is "
        "blind to the new order again. A position has to describe the slot a token sits in, not "
        "travel with the token.");
  } else {
    text_wrapped("Here the output is not the original one, reordered.");
  }
  permuted_and_shuffled("order/words", "output, positions attached to words", st.words.expected,
                        st.words.shuffled, d, version);
}

}  // namespace app
