// The pretrained language model's forward: embed the ids, the transformer's layers, the final norm and the
// output layer.
#include "core/lm/lm_model.hpp"

#include "core/error.hpp"
#include "core/ops.hpp"

namespace attn::lm {

LmForward lm_forward(const LmModel& model, const std::vector<int>& ids, const HeadSwitch* off,
                     bool last_only) {
  if (ids.empty()) throw InputError("no token ids; give at least one");
  const int t = static_cast<int>(ids.size());
  const int limit = std::min(model.max_len > 0 ? model.max_len : kMaxTokens, kMaxTokens);
  if (model.position_table.size() > 0 && t > model.position_table.rows()) {
    throw_input_error({"position ", model.position_table.rows(),
                       " is past the end of the learned table: it has ", model.position_table.rows(),
                       " slots (positions 0 to ", model.position_table.rows() - 1,
                       "); a learned table cannot stretch to longer text"});
  }
  if (t > limit) {
    throw_input_error(
        {t, " token ids; this model reads up to ", limit, " (its context is ", model.max_len, ")"});
  }
  // 1. embed: (T, D)
  Mat x(t, model.embedding.cols());
  for (int i = 0; i < t; ++i) {
    const int id = ids[static_cast<size_t>(i)];
    if (id < 0 || id >= model.vocab()) {
      throw_input_error({"token id ", id, " is outside the vocabulary (0 to ", model.vocab() - 1, ")"});
    }
    x.row(i) = model.embedding.row(id);
    if (model.position_table.size() > 0) x.row(i) += model.position_table.row(i);
  }
  // 2. the layers; 3. the final norm and the output layer: (T, V)
  LmForward f;
  transformer_forward(model.config, model.layers, x, f.layers, off);
  Mat normed, rstd, xhat;
  const Mat& out = f.layers.back().output;
  const Mat last = last_only ? Mat(out.bottomRows(1)) : out;
  if (model.config.norm == Norm::PreRMSNorm) {
    ops::rms_norm_forward(last, model.final_gain, normed, rstd, model.config.norm_eps);
  } else {
    const Mat bias = model.final_bias.size() > 0 ? model.final_bias : Mat(Mat::Zero(1, last.cols()));
    ops::layer_norm_forward(last, model.final_gain, bias, normed, xhat, rstd,
                            static_cast<float>(model.config.norm_eps));
  }
  if (model.tied) {
    ops::matmul_bt<float>(normed, model.embedding, f.logits);  // (T, D) x (V, D)^T
  } else {
    ops::matmul_rows<float>(normed, model.classifier, f.logits);
  }
  return f;
}

}  // namespace attn::lm
