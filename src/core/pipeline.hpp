// Text -> tokens -> embeddings (+ positions) -> seeded multi-head attention: what the attention scenes show.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "attention.hpp"
#include "encoder.hpp"
#include "positions.hpp"

namespace attn {

// Random weights with std 1/sqrt(D) give scores of std about 1 and washed-out grids; the scenes draw
// them 1.5 times larger so that each head's pattern is easy to see.
inline constexpr float kSceneWeightGain = 1.5f;

struct PipelineConfig {
  int d_model = 16;
  int heads = 4;
  Scheme positions = Scheme::None;  // one of pipeline_schemes()
  bool causal = false;
  std::uint64_t seed = 7;
  int learned_slots = 128;
  double base = 10000.0;
};

struct PipelineResult {
  std::vector<std::string> tokens;  // (T,) at most kMaxTokens
  int dropped_tokens = 0;           // tokens cut from the end of a longer text
  Mat embeddings;                   // (T, D) seeded token embeddings
  Mat position_table;               // (T, D) for additive schemes, else empty
  Mat inputs;                       // (T, D) embeddings + position table
  MhaResult mha;                    // output (T, D) and every head's scores and weights (T, T)
  std::vector<HeadStats> stats;     // (H,)
};

// Tokenizes `text` (cutting it to kMaxTokens tokens) and runs the seeded attention layer on it.
// Throws InputError for an empty text, heads not dividing d_model, or a text longer than a learned table.
PipelineResult run_pipeline(const std::string& text, const PipelineConfig& config,
                            const MhaWeights* weights = nullptr);

// The same layer on given tokens (used by the shuffle test): tokens (T,) -> result. `weights`, when given,
// must be scene_weights(config) (drawing them is most of the work for short texts in wide models).
PipelineResult run_pipeline(const std::vector<std::string>& tokens, const PipelineConfig& config,
                            const MhaWeights* weights = nullptr);

// run_pipeline in pieces small enough to run between two frames: the tokens, embeddings and positions at
// once (construction), then MhaSteps' pieces, then one head's statistics per step. The result is the one
// run_pipeline gives (run_pipeline runs these steps). `weights`: scene_weights(config), or null to draw them;
// step_rows: as MhaSteps'. With a span of some of the heads (several workers share a recompute), the result
// has MhaSteps' part (H heads, the span's filled; the span's concat slices; no output) and the span's
// statistics only, in order.
class PipelineSteps {
 public:
  // Throws InputError for what run_pipeline rejects, or a span that is not some of the heads.
  PipelineSteps(const std::vector<std::string>& tokens, const PipelineConfig& config,
                std::shared_ptr<const MhaWeights> weights, int step_rows = 0, HeadSpan span = {});
  PipelineSteps(const std::string& text, const PipelineConfig& config,
                std::shared_ptr<const MhaWeights> weights, int step_rows = 0, HeadSpan span = {});
  PipelineSteps(const PipelineSteps&) = delete;
  PipelineSteps& operator=(const PipelineSteps&) = delete;
  bool done() const { return stats_done_ == span_.end && !mha_; }
  void step();
  float progress() const;  // 0 .. 1
  PipelineResult take();   // once done()

 private:
  void start(const std::vector<std::string>& tokens, const PipelineConfig& config, int step_rows);
  PipelineResult result_;
  std::shared_ptr<const MhaWeights> weights_;
  std::unique_ptr<MhaSteps> mha_;  // reads result_.inputs and *weights_; null once the layer is done
  HeadSpan span_;                  // end set: the heads whose statistics are taken
  int mha_total_ = 0;              // MhaSteps' pieces
  int stats_done_ = 0;             // the next head to take statistics of
};

// The options for attention: the causal mask and the scheme (its rotation and bias act inside attention).
AttentionOptions attention_options(const PipelineConfig& config);

// The seeded attention weights of a pipeline: (D, 3D) and (D, D), drawn from config.seed.
MhaWeights scene_weights(const PipelineConfig& config);

// The additive position table of the scheme for positions 0 .. t-1: (t, D), or empty when it adds none.
Mat additive_positions(const PipelineConfig& config, int t);

struct EncoderPipelineResult {
  std::vector<std::string> tokens;  // (T,)
  int dropped_tokens = 0;
  EncoderResult block;  // every intermediate; block.input = embeddings + additive positions
  int d_ff = 0;
};
// Text -> embeddings (+ positions) -> one seeded encoder block with feed-forward width d_ff.
EncoderPipelineResult run_encoder_pipeline(const std::string& text, const PipelineConfig& config, int d_ff);

// Schemes a pipeline accepts, for messages and menus.
const std::vector<Scheme>& pipeline_schemes();

}  // namespace attn
