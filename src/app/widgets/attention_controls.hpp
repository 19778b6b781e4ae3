// Shared by the attention scenes: the text/d_model/heads/scheme/causal/seed controls and the weight-grid
// spec.
#pragma once

#include <cstdint>
#include <string>

#include "app/logic/pipeline_cache.hpp"
#include "app/logic/settings.hpp"
#include "app/widgets/heatmap_view.hpp"

namespace app {

// Which controls attention_controls() shows.
struct ControlSet {
  bool positions = true;  // the scheme combo (the schemes scene shows every scheme instead)
  bool causal = true;
};

// Draws the controls and writes changes into s. Returns true when something changed.
bool attention_controls(Settings& s, const ControlSet& show = {});

// A T x T weight grid: queries down, keys across, token labels on both, the weights' colormap on the fixed
// range 0..1 so that every grid shares one scale; `side` x `side` CSS pixels. `version`: which weights these
// are (HeatmapSpec::version); the labels must outlive the heatmap_view call.
HeatmapSpec weight_grid_spec(const std::string& id, const attn::Mat& weights, std::uint64_t version,
                             const std::vector<std::string>& labels, const Settings& s, float side);

// A visible note when the text was cut to the maximum number of tokens.
void truncation_note(int dropped_tokens);

}  // namespace app
