// The pretrained language model's forward: embed the ids, the transformer's layers, the final norm and the
// output layer.
#include "core/lm/lm_model.hpp"

#include "core/error.hpp"
#include "core/ops.hpp"

namespace attn::lm {

namespace {

// ids (T) at positions past .. past+T-1 -> f: the layers (extending their key/value cache when past > 0)
// and the logits, (T, V) or (1, V) with last_only.
void run(const LmModel& model, const std::vector<int>& ids, LmForward& f, const HeadSwitch* off,
         bool last_only, int past) {
  if (ids.empty()) throw InputError("no token ids; give at least one");
  const int t = static_cast<int>(ids.size()), end = past + t;
  const int limit = std::min(model.max_len > 0 ? model.max_len : kMaxTokens, kMaxTokens);
  if (model.position_table.size() > 0 && end > model.position_table.rows()) {
    throw_input_error({"position ", model.position_table.rows(),
                       " is past the end of the learned table: it has ", model.position_table.rows(),
                       " slots (positions 0 to ", model.position_table.rows() - 1,
                       "); a learned table cannot stretch to longer text"});
  }
  if (end > limit) {
    throw_input_error(
        {end, " token ids; this model reads up to ", limit, " (its context is ", model.max_len, ")"});
  }
  // 1. embed: (T, D)
  Mat x(t, model.embedding.cols());
  for (int i = 0; i < t; ++i) {
    const int id = ids[static_cast<size_t>(i)];
    if (id < 0 || id >= model.vocab()) {
      throw_input_error({"token id ", id, " is outside the vocabulary (0 to ", model.vocab() - 1, ")"});
    }
    x.row(i) = model.embedding.row(id);
    if (model.position_table.size() > 0) x.row(i) += model.position_table.row(past + i);
  }
  // 2. the layers; 3. the final norm and the output layer: (T, V)
  transformer_forward(model.config, model.layers, x, f.layers, off, nullptr, past > 0);
  Mat normed, rstd, xhat;
  const Mat& out = f.layers.back().output;
  const Mat last = last_only ? Mat(out.bottomRows(1)) : out;
  pre_norm(model.config, last, model.final_gain, model.final_bias, normed, xhat, rstd);
  if (model.tied) {
    ops::matmul_bt<float>(normed, model.embedding, f.logits);  // (T, D) x (V, D)^T
  } else {
    ops::matmul_rows<float>(normed, model.classifier, f.logits);
  }
}

}  // namespace

LmForward lm_forward(const LmModel& model, const std::vector<int>& ids, const HeadSwitch* off,
                     bool last_only) {
  LmForward f;
  run(model, ids, f, off, last_only, 0);
  return f;
}

void lm_extend(const LmModel& model, const std::vector<int>& ids, LmForward& f, const HeadSwitch* off) {
  run(model, ids, f, off, true, lm_length(f));
}

int lm_length(const LmForward& f) {
  return f.layers.empty() ? 0 : static_cast<int>(f.layers[0].qkv.rows());
}

}  // namespace attn::lm
