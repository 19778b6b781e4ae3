// Probes for comparing position schemes: one head's queries and keys before RoPE, and long texts by
// repetition.
#pragma once

#include <string>
#include <vector>

#include "pipeline.hpp"
#include "types.hpp"

namespace attn {

// The queries and keys of one head of a pipeline's attention layer, before any RoPE rotation.
struct HeadQueriesKeys {
  Mat q;  // (T, d_k): inputs x W_Q, columns head*d_k .. (head+1)*d_k - 1
  Mat k;  // (T, d_k): inputs x W_K, the same columns of the K block
};
// r: the result run_pipeline gave for `config`; head in 0 .. heads-1 (else InputError).
// With config.positions == None, q k^T / sqrt(d_k) equals r.mha.head[head].scores.
HeadQueriesKeys head_queries_keys(const PipelineResult& r, const PipelineConfig& config, int head);

// tokens (n,) written end to end again and again until there are `length` of them: (length,).
// Builds "the 400-token email" from a short one. Throws InputError for no tokens or length < 1.
std::vector<std::string> repeat_tokens(const std::vector<std::string>& tokens, int length);

}  // namespace attn
