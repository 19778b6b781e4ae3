// The schemes scene's relative-bias part of the offset view: every head's bias against the offset i - j,
// the bucket each offset falls in, and what happens past the scheme's maximum distance.
#include <imgui.h>

#include <string>

#include "app/logic/json_text.hpp"
#include "app/scenes/schemes/panels.hpp"
#include "app/widgets/heatmap_view.hpp"
#include "app/widgets/widgets.hpp"

namespace app::schemes {

RelativeBias relative_bias(int heads, int t, bool causal) {
  RelativeBias r;
  const attn::DistanceBuckets* d = attn::scheme_def(attn::Scheme::Relative).distance;
  if (!d || t < 1) return r;
  r.buckets = d->buckets, r.max_distance = d->max_distance;
  const attn::Mat table = attn::initial_distance_table(attn::scheme_def(attn::Scheme::Relative), heads);
  r.bias = attn::Mat(heads, 2 * t - 1);  // (H, 2T - 1): column c is the offset i - j = c - (t - 1)
  for (int c = 0; c < 2 * t - 1; ++c) {
    const int offset = c - (t - 1);
    const int b = d->bucket(-offset, causal);  // the key's distance from the query is j - i = -offset
    r.bucket_of.push_back(b);
    for (int h = 0; h < heads; ++h) r.bias(h, c) = table(h, b);
  }
  for (int h = 0; h < heads; ++h) r.head_labels.push_back("head " + std::to_string(h));
  return r;
}

void fill_relative(nlohmann::json& shown, const RelativeBias& r) {
  nlohmann::json& j = shown["relative_bias"];
  j["buckets"] = r.buckets;
  j["max_distance"] = r.max_distance;
  j["bucket_of"] = r.bucket_of;
  j["bias"] = matrix_json(r.bias);
}

void draw_relative(const SchemesData& d, const RelativeBias& r, float width) {
  if (r.bias.size() == 0) return;
  const int t = static_cast<int>(d.tokens.size());
  const int side = d.causal ? r.buckets : r.buckets / 2, exact = side / 2;
  text_wrapped(
      "Relative (learned relative biases, as in T5) adds a number to each score, one per head for each "
      "bucket of distances: %s offsets 0 to %d have a bucket each, then %d buckets widen on a log scale up "
      "to "
      "%d tokens, and the last bucket holds every distance of %d or more. Past %d the bias stops changing: "
      "a relative bias reads text of any length (no slot runs out, unlike the learned table), but it cannot "
      "tell %d tokens back from %d. Training learns the table (Train a router or Induction heads with "
      "positions=relative); here it is the untrained seeded one, the same for every model, so its pattern "
      "means nothing yet.",
      d.causal ? "with the causal mask all its buckets are for earlier keys;"
               : "half its buckets are for earlier keys, half for later ones;",
      exact - 1, side - exact, r.max_distance, r.max_distance, r.max_distance, r.max_distance,
      10 * r.max_distance);
  if (t > 1) {
    // the first column is offset -(t - 1) (the key t - 1 tokens later), the last offset t - 1 (earlier)
    const std::string later = d.causal ? std::string()
                                       : ", " + std::to_string(t - 1) + " tokens later in bucket " +
                                             std::to_string(r.bucket_of.front());
    text_wrapped("Head %d's bias at offset 0 is %+.3f. A key %d tokens earlier falls in bucket %d%s.", d.head,
                 static_cast<double>(r.bias(d.head, t - 1)), t - 1, r.bucket_of.back(), later.c_str());
  }
  HeatmapSpec spec = heatmap_spec("schemes/relative_bias", r.bias, d.version, {&r.head_labels, "head"},
                                  {&d.offset_labels, "offset i - j"}, gfx::Colormap::Diverging);
  spec.width = width;
  spec.height = static_cast<float>(r.bias.rows()) * 22.0f;
  heatmap_view(spec);
}

}  // namespace app::schemes
