// One head's projected queries and keys (the pipeline's own weights), and repeated token lists.
#include "scheme_probe.hpp"

#include "error.hpp"
#include "ops.hpp"

namespace attn {

HeadQueriesKeys head_queries_keys(const PipelineResult& r, const PipelineConfig& c, int head) {
  const int d_k = head_dim(c.d_model, c.heads);
  require_range(head, 0, c.heads - 1, "the head");
  if (r.inputs.cols() != c.d_model || r.inputs.rows() == 0) {
    throw_input_error({"the pipeline result does not match d_model ", c.d_model});
  }
  const MhaWeights w = scene_weights(c);  // the pipeline's own (D, 3D): Q block, K block, V block
  HeadQueriesKeys out;
  ops::matmul_rows<float>(r.inputs, w.w_qkv.middleCols(head * d_k, d_k), out.q);  // (T, D) x (D, d_k)
  ops::matmul_rows<float>(r.inputs, w.w_qkv.middleCols(c.d_model + head * d_k, d_k),
                          out.k);  // (T, D) x (D, d_k)
  return out;
}

std::vector<std::string> repeat_tokens(const std::vector<std::string>& tokens, int length) {
  if (tokens.empty()) throw InputError("the text is empty; type at least one word");
  require_range(length, 1, 1000000, "the length in tokens");
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(length));
  for (int i = 0; i < length; ++i) out.push_back(tokens[static_cast<size_t>(i) % tokens.size()]);
  return out;
}

}  // namespace attn
