// The encoder scene's LayerNorm caption at the scene's defaults, computed by the core and worded as the app
// words it (for the caption test and the font-wrapping test).
#pragma once

#include <cstdint>
#include <string>

#include "app/logic/captions.hpp"
#include "app/logic/settings.hpp"
#include "core/pipeline.hpp"
#include "core/row_stats.hpp"

namespace fx {

struct LayerNormCaption {
  attn::Mat moments;  // (T, 2): mean and population variance of each row of the first LayerNorm's output
  std::string text;   // app::layer_norm_check of the first token's row and the spread over all rows
};

// The encoder scene's defaults (sinusoidal positions, d_ff 4 * d_model) through run_encoder_pipeline.
inline LayerNormCaption encoder_layer_norm_caption() {
  const app::Settings s = app::defaults_for("encoder");
  attn::PipelineConfig c;
  c.d_model = s.d_model, c.heads = s.heads, c.positions = attn::Scheme::Sinusoidal;
  c.seed = static_cast<std::uint64_t>(s.seed);
  const attn::EncoderPipelineResult r = attn::run_encoder_pipeline(s.text, c, 4 * c.d_model);
  const attn::Mat mo = attn::row_moments(r.block.norm1);  // (T, 2)
  return {mo,
          app::layer_norm_check(r.tokens[0], mo(0, 0), mo(0, 1), static_cast<int>(mo.rows()),
                                mo.col(0).cwiseAbs().maxCoeff(), mo.col(1).minCoeff(), mo.col(1).maxCoeff())};
}

}  // namespace fx
