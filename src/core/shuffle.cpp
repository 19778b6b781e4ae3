// The shuffle test behind the order scene: three ways of shuffling a sentence through the same seeded layer.
#include "shuffle.hpp"

#include "error.hpp"
#include "rng.hpp"

namespace attn {
namespace {

// original (T, D) and shuffled (T, D) outputs -> the case with its expected rows and its check.
ShuffleCase make_case(const Mat& original, const Mat& shuffled, const std::vector<int>& perm) {
  ShuffleCase c;
  c.original = original;
  c.expected = permute_rows(original, perm);
  c.shuffled = shuffled;
  c.check = compare_shuffled(original, shuffled, perm);
  return c;
}

}  // namespace

ShuffleStudy shuffle_study(const std::vector<std::string>& tokens, const PipelineConfig& config,
                           const std::vector<int>& perm) {
  if (tokens.empty()) throw InputError("the text is empty; type at least one word");
  ShuffleStudy s;
  s.tokens = tokens;
  if (s.tokens.size() > static_cast<size_t>(kMaxTokens)) {
    s.dropped_tokens = static_cast<int>(s.tokens.size()) - kMaxTokens;
    s.tokens.resize(static_cast<size_t>(kMaxTokens));
  }
  const auto t = static_cast<int>(s.tokens.size());
  require_permutation(perm, t);
  s.perm = perm;
  s.scheme = config.positions;
  for (int p : perm) s.shuffled.push_back(s.tokens[static_cast<size_t>(p)]);

  // 1. no positions: the shuffled tokens' output against the original's, rows reordered
  PipelineConfig plain = config;
  plain.positions = Scheme::None;
  const Mat none_original = run_pipeline(s.tokens, plain).mha.output;
  s.none = make_case(none_original, run_pipeline(s.shuffled, plain).mha.output, perm);

  // 2. positions belong to slots: the pipeline gives slot i position i whatever token sits there
  const PipelineResult slots_original = run_pipeline(s.tokens, config);
  s.slots = make_case(slots_original.mha.output, run_pipeline(s.shuffled, config).mha.output, perm);

  // 3. positions attached to words: shuffle the rows of embeddings + table (T, D); RoPE and ALiBi read
  //    each word's old position from the position ids. Same weights as run_pipeline.
  const Mat x_words = permute_rows(slots_original.inputs, perm);
  AttentionOptions opt = attention_options(config);
  opt.position_ids = perm;
  s.words =
      make_case(slots_original.mha.output, multi_head(x_words, scene_weights(config), opt).output, perm);
  return s;
}

}  // namespace attn
