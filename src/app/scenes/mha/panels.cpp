// The multi-head attention scene's panels: per-head statistics, the row view, the parameter accounting.
#include "app/scenes/mha/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/logic/captions.hpp"
#include "app/logic/text.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/attention.hpp"
#include "core/error.hpp"

namespace app::mha {
namespace {

std::string quoted(const std::vector<std::string>& labels, int i) {
  return "'" + labels[static_cast<size_t>(i)] + "'";
}

// "Heads disagree on where 'Refund' looks: head 0 puts most weight on 'cake' (0.41), head 1 on ..."
// `seen`: the keys the row may look at (1 for the causal first row or a one-token text).
std::string row_sentence(const RowView& v, const std::vector<std::string>& labels, int seen) {
  const std::string who = quoted(labels, v.token);
  const auto heads = static_cast<int>(v.top_key.size());
  char buf[64];
  auto weight = [&](int h) {
    std::snprintf(buf, sizeof buf, " (%.2f)",
                  static_cast<double>(v.weights(h, v.top_key[static_cast<size_t>(h)])));
    return std::string(buf);
  };
  const bool agree =
      std::all_of(v.top_key.begin(), v.top_key.end(), [&](int k) { return k == v.top_key[0]; });
  if (seen == 1 && labels.size() == 1)
    return "The text has one token, so every head puts all of " + who + "'s weight on it.";
  if (seen == 1)
    return "With the causal mask the first token can only see itself: every head puts all its weight there.";
  if (heads == 1)
    return "The only head puts most of " + who + "'s weight on " + quoted(labels, v.top_key[0]) + weight(0) +
           ".";
  if (agree) {
    return "All " + std::to_string(heads) + " heads agree on where " + who + " looks: most weight on " +
           quoted(labels, v.top_key[0]) + ".";
  }
  std::string s = "Heads disagree on where " + who + " looks: ";
  for (int h = 0; h < heads; ++h) {
    s += h == 0 ? "head 0 puts most weight on " : ", head " + std::to_string(h) + " on ";
    s += quoted(labels, v.top_key[static_cast<size_t>(h)]) + weight(h);
  }
  return s + ".";
}

float peak(const RowView& v, int h) {
  return v.weights(h, v.top_key[static_cast<size_t>(h)]);
}

// The lesson's compromise, for the head with the highest peak: what its row has left for the other words.
void draw_compromise(const RowView& v, const std::vector<std::string>& labels) {
  int best = 0;
  for (int h = 1; h < static_cast<int>(v.top_key.size()); ++h) best = peak(v, h) > peak(v, best) ? h : best;
  const double x =
      std::round(100.0 * peak(v, best)) / 100.0;  // printed as it is rounded, so the two add to 1
  text_wrapped("A row sums to 1: head %d puts %.2f on %s, so only %.2f is left for every other word.", best,
               x, quoted(labels, v.top_key[static_cast<size_t>(best)]).c_str(), 1.0 - x);
}

// Two heads peaking on different words, the pair with the largest smaller peak (nothing when none differ).
void draw_head_pair(const RowView& v, const std::vector<std::string>& labels, bool trained) {
  int a = -1, b = -1;
  const auto heads = static_cast<int>(v.top_key.size());
  for (int i = 0; i < heads; ++i) {
    for (int j = i + 1; j < heads; ++j) {
      if (v.top_key[static_cast<size_t>(i)] == v.top_key[static_cast<size_t>(j)]) continue;
      if (a < 0 || std::min(peak(v, i), peak(v, j)) > std::min(peak(v, a), peak(v, b))) a = i, b = j;
    }
  }
  if (a < 0) return;
  const bool high = std::round(100.0f * std::min(peak(v, a), peak(v, b))) >= 90.0f;  // as printed
  text_wrapped(
      "Several heads each have a row of their own: head %d puts %.2f on %s while head %d puts %.2f on %s%s",
      a, static_cast<double>(peak(v, a)), quoted(labels, v.top_key[static_cast<size_t>(a)]).c_str(), b,
      static_cast<double>(peak(v, b)), quoted(labels, v.top_key[static_cast<size_t>(b)]).c_str(),
      high      ? ", both reaching the lesson's 0.9."
      : trained ? "; in no pair do both reach the lesson's 0.9."
                : "; in no pair do both reach the lesson's 0.9 (untrained heads rarely do).");
}

// A combo of "3: cake" items (clipped, so 1024 tokens stay fast); writes the chosen index into `token`.
void token_combo(const char* label, int& token, const std::vector<std::string>& labels) {
  const auto t = static_cast<int>(labels.size());
  const std::string preview = std::to_string(token) + ": " + labels[static_cast<size_t>(token)];
  ImGui::SetNextItemWidth(220);
  if (!begin_combo(label, preview.c_str())) return;
  ImGuiListClipper clip;
  clip.Begin(t);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const std::string item = std::to_string(i) + ": " + labels[static_cast<size_t>(i)];
      ImGui::PushID(i);
      if (ImGui::Selectable(item.c_str(), i == token)) token = i;
      if (i == token) ImGui::SetItemDefaultFocus();
      ImGui::PopID();
    }
  }
  ImGui::EndCombo();
}

const ParamData& param_data(ParamData& p, int d_model, int heads) {
  if (p.d_model == d_model && p.heads == heads) return p;
  p = ParamData{};
  p.d_model = d_model, p.heads = heads;
  try {
    p.count = attn::count_parameters(d_model, heads);
    p.ok = true;
  } catch (const attn::InputError& e) {
    p.error = e.what();
  }
  try {
    p.single = attn::count_parameters(d_model, 1).single_head;
  } catch (const attn::InputError&) {
    p.single = -1;
  }
  for (int h = 1; h <= 16; ++h) {
    if (d_model % h == 0) p.valid_heads.push_back(h);
  }
  return p;
}

std::string single_line(int d) {
  const std::string ds = std::to_string(d);
  return "4 × " + ds + " × " + ds + " = ";
}

void draw_reference() {
  static const attn::ParameterCount a = attn::count_parameters(512, 8), b = attn::count_parameters(768, 12);
  text_wrapped_disabled("The lesson's numbers:");
  text_wrapped("- d_model 512, 8 heads (the original transformer): dₖ = %d, %s parameters either way", a.d_k,
               grouped(a.fused).c_str());
  text_wrapped(
      "- d_model 768, 12 heads (BERT-base, GPT-2 small): dₖ = 768 / 12 = %d numbers per head's query", b.d_k);
}

}  // namespace

RowView make_row_view(const attn::PipelineResult& r, int token) {
  RowView v;
  v.token = token;
  const auto heads = static_cast<int>(r.mha.head.size());
  const auto t = static_cast<int>(r.tokens.size());
  v.weights.resize(heads, t);
  for (int h = 0; h < heads; ++h) {
    const attn::Mat& w = r.mha.head[static_cast<size_t>(h)].weights;  // (T, T)
    v.weights.row(h) = w.row(token);
    Eigen::Index best = 0;
    v.weights.row(h).maxCoeff(&best);
    v.top_key.push_back(static_cast<int>(best));
  }
  v.head_labels = index_labels(heads);
  return v;
}

void draw_row_view(const MhaState& ms, Settings& s, const RowView& view, std::uint64_t version,
                   const std::vector<std::string>& labels, bool causal, bool trained) {
  text_wrapped(
      "Pick one query token and compare its row in every head: one line per head, one column "
      "per key. Each line sums to 1.");
  token_combo("query token", s.row, labels);
  help_marker(
      "The same row can be read in the grids above (row = query). Here every head's row sits in one "
      "picture, so you can see whether the heads agree.");
  const auto t = static_cast<int>(labels.size()), heads = static_cast<int>(view.top_key.size());
  const float avail = ImGui::GetContentRegionAvail().x;
  HeatmapSpec spec = heatmap_spec("mha/rows", view.weights, version, {&view.head_labels, "head"},
                                  {&labels, "key"}, sequential_colormap(s));
  const std::string query_line =
      "query '" + labels[static_cast<size_t>(view.token)] + "' (" + std::to_string(view.token) + ")";
  spec.extra_tooltip = [&query_line](int, int) { return std::vector<std::string>{query_line}; };
  spec.fix_range(0.0f, 1.0f);
  const GridWindow w = grid_window(ms, s, t);  // the grids' keys
  spec.col0 = w.col0, spec.shown_cols = w.size;
  spec.width = std::clamp(static_cast<float>(w.size) * 44.0f, 240.0f, std::max(240.0f, avail - 150.0f));
  spec.height = std::max(48.0f, static_cast<float>(heads) * 24.0f);
  heatmap_view(spec);
  const int seen = causal ? view.token + 1 : t;
  text_wrapped("%s", row_sentence(view, labels, seen).c_str());
  if (seen == 1) return;
  draw_compromise(view, labels);
  draw_head_pair(view, labels, trained);
}

void draw_head_stats(const attn::HeadStats& st, float wrap_width) {
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap_width);
  text_wrapped("entropy %.2f", static_cast<double>(st.entropy));
  text_wrapped("distance %.2f", static_cast<double>(st.mean_distance));
  text_wrapped("first token %.2f", static_cast<double>(st.first_token_mass));
  ImGui::PopTextWrapPos();
}

void draw_head_stats_long(const attn::HeadStats& st, int tokens, bool causal, const attn::HeadStats& even) {
  text_wrapped("entropy of the weights: %.3f nats", static_cast<double>(st.entropy));
  text_wrapped_disabled("%s", entropy_baseline(tokens, causal, even).c_str());
  text_wrapped("mean attended distance |i - j|: %.3f tokens", static_cast<double>(st.mean_distance));
  text_wrapped("mass on the first token: %.3f %s", static_cast<double>(st.first_token_mass),
               first_token_baseline(causal, even).c_str());
}

nlohmann::json stats_json(const std::vector<attn::HeadStats>& stats) {
  nlohmann::json out = nlohmann::json::array();
  for (const attn::HeadStats& st : stats) {
    nlohmann::json& j = out.emplace_back();  // key by key: initializer lists cost the page more code
    j["entropy"] = st.entropy;
    j["mean_distance"] = st.mean_distance;
    j["first_token_mass"] = st.first_token_mass;
  }
  return out;
}

nlohmann::json parameters_json(MhaState& ms, const Settings& s) {
  const ParamData& p = param_data(ms.params, s.d_model, s.heads);
  nlohmann::json j;  // the counts, or null for what these sizes do not allow
  j["fused"] = p.ok ? nlohmann::json(p.count.fused) : nlohmann::json();
  j["single_head"] = p.ok            ? nlohmann::json(p.count.single_head)
                     : p.single >= 0 ? nlohmann::json(p.single)
                                     : nlohmann::json();
  j["d_k"] = p.ok ? nlohmann::json(p.count.d_k) : nlohmann::json();
  return j;
}

void draw_parameters(MhaState& ms, const Settings& s) {
  const ParamData& p = param_data(ms.params, s.d_model, s.heads);
  const std::string d = std::to_string(s.d_model), h = std::to_string(s.heads);
  const long long dd = static_cast<long long>(s.d_model) * s.d_model;
  text_wrapped(
      "Splitting d_model among the heads costs nothing extra: every head projects to dₖ = "
      "d_model / heads numbers, so all heads together need exactly what one full-width head needs.");
  if (p.ok) {
    const std::string dk = std::to_string(p.count.d_k);
    const long long qkv = static_cast<long long>(s.heads) * 3 * s.d_model * p.count.d_k;
    text_wrapped("dₖ = d_model / heads = %s / %s = %s", d.c_str(), h.c_str(), dk.c_str());
    ImGui::TextUnformatted("multi-head (fused):");
    ImGui::SameLine(170);
    text_wrapped("%s head%s × 3 × %s × %s = %s for Q, K, V + %s × %s = %s for W_O = %s", h.c_str(),
                 s.heads == 1 ? "" : "s", d.c_str(), dk.c_str(), grouped(qkv).c_str(), d.c_str(), d.c_str(),
                 grouped(dd).c_str(), grouped(p.count.fused).c_str());
    ImGui::Text("one full-width head:");
    ImGui::SameLine(170);
    text_wrapped("%s%s  (W_Q, W_K, W_V and W_O, each %s × %s)", single_line(s.d_model).c_str(),
                 grouped(p.count.single_head).c_str(), d.c_str(), d.c_str());
  } else {
    std::string valid;
    for (int v : p.valid_heads) valid += (valid.empty() ? "" : ", ") + std::to_string(v);
    ImGui::PushStyleColor(ImGuiCol_Text, ink(Ink::Wrong));
    text_wrapped(
        "There is no dₖ: %s / %s = %.2f is not a whole number, so %s heads cannot split d_model %s "
        "evenly, and the layer cannot be built.",
        d.c_str(), h.c_str(), static_cast<double>(s.d_model) / s.heads, h.c_str(), d.c_str());
    ImGui::PopStyleColor();
    text_wrapped("Head counts up to 16 that work with d_model %s: %s.", d.c_str(), valid.c_str());
    if (p.single >= 0) {
      text_wrapped("One full-width head would have %s%s.", single_line(s.d_model).c_str(),
                   grouped(p.single).c_str());
    }
  }
  draw_reference();
}

}  // namespace app::mha
