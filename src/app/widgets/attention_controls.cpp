// The attention scenes' shared controls: text, d_model, heads, scheme, causal, seed; the weight-grid spec.
#include "app/widgets/attention_controls.hpp"

#include <imgui.h>

#include <algorithm>

#include "app/platform_io.hpp"
#include "app/widgets/widgets.hpp"
#include "core/pipeline.hpp"

namespace app {
namespace {

// The schemes the combo offers (the pipeline's).
const std::vector<attn::Scheme>& control_schemes() {
  return attn::pipeline_schemes();
}

}  // namespace

bool attention_controls(Settings& s, const ControlSet& show) {
  const Settings before = s;
  ImGui::SetNextItemWidth(-180);
  if (control_shown(&s.text)) {
    const LockScope lock(&s.text);
    text_field("text", "type an email", s.text);
  }
  ImGui::SetNextItemWidth(180);
  slider_int("d_model", &s.d_model, 2, 1024, "%d",
             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  same_line_if_fits(120, "heads (?)");
  ImGui::SetNextItemWidth(120);
  slider_int("heads", &s.heads, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
  help_marker("Each head works in dₖ = d_model / heads dimensions, so the head count must divide d_model.");
  if (show.positions && control_shown(&s.positions)) {
    same_line_if_fits(130, "positions");
    ImGui::SetNextItemWidth(130);
    const LockScope lock(&s.positions);
    if (begin_combo("positions", attn::scheme_name(s.positions).c_str())) {
      for (const attn::Scheme scheme : control_schemes()) {
        if (ImGui::Selectable(attn::scheme_name(scheme).c_str(), s.positions == scheme)) s.positions = scheme;
      }
      ImGui::EndCombo();
    }
  }
  if (show.causal && control_shown(&s.causal)) {
    same_line_if_fits(ImGui::GetFrameHeight(), "causal (?)");
    {
      const LockScope lock(&s.causal);
      ImGui::Checkbox("causal", &s.causal);
    }
    help_marker(
        "A causal mask hides every key after the query: each token sees only itself and earlier tokens.");
  }
  same_line_if_fits(110, "seed");
  ImGui::SetNextItemWidth(110);
  input_int("seed", &s.seed, 0, 2147483647);
  return s != before;
}

HeatmapSpec weight_grid_spec(const std::string& id, const attn::Mat& weights, std::uint64_t version,
                             const std::vector<std::string>& labels, const Settings& s, float side) {
  HeatmapSpec spec =
      heatmap_spec(id, weights, version, {&labels, "query"}, {&labels, "key"}, sequential_colormap(s));
  spec.fix_range(0.0f, 1.0f);
  spec.width = side;
  spec.height = side;
  return spec;
}

void truncation_note(int dropped_tokens) {
  if (dropped_tokens <= 0) return;
  note_box("Note: the text is longer than " + std::to_string(attn::kMaxTokens) + " tokens; the last " +
           std::to_string(dropped_tokens) + " tokens were cut.");
}

}  // namespace app
