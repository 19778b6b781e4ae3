// The multi-head scene's recomputes in the page's compute worker: a job (the text and settings to run the
// seeded pipeline on, under the version the page gave it) and the worker's answers (its progress now and
// then, then the result or the error), as bytes (app/logic/message_bytes.hpp). A result travels in parts,
// one message each: everything but the heads' matrices, then each head's (T, T) grids on their own, so
// that the page reads a few megabytes at a time between its frames.
#pragma once

#include <cstdint>
#include <string>

#include "app/logic/message_bytes.hpp"
#include "core/pipeline.hpp"

namespace app {

inline constexpr std::uint32_t kPipelineJobTag = 0x4a504950;     // "PIPJ"
inline constexpr std::uint32_t kPipelineAnswerTag = 0x41504950;  // "PIPA"

struct PipelineJob {
  std::uint64_t version = 0;  // the page's CachedPipeline::version: answers carry it back
  std::string text;
  attn::PipelineConfig config;
};

struct PipelineAnswer {
  std::uint64_t version = 0;  // the job's
  bool done = false;          // false: only progress; true: result or error
  int part = 0;  // 0: all but the heads' and the layer's matrices (result.mha.head: H empty); h + 1: head h's
                 // alone; -(k + 1): the layer's matrix k alone (layer_matrix)
  float progress = 0.0f;    // 0 .. 1
  double compute_ms = 0.0;  // the worker's computing time so far
  std::string error;        // done and failed: the core's message
  attn::PipelineResult result;
};

// The layer's (T, D) matrices that travel as parts of their own (megabytes each for long texts, so that no
// message takes long to read): k in [0, kLayerMatrices) -> embeddings, position table, inputs, the
// multi-head output and the heads' concatenation.
constexpr int kLayerMatrices = 5;
attn::Mat& layer_matrix(attn::PipelineResult& p, int k);
const attn::Mat& layer_matrix(const attn::PipelineResult& p, int k);

Bytes encode(const PipelineJob& job);
// How many messages an answer takes (1 + H + kLayerMatrices for a result), and message `part` of it (in
// [0, answer_parts): 0, then the heads, then the layer's matrices).
int answer_parts(const PipelineAnswer& answer);
Bytes encode(const PipelineAnswer& answer, int part = 0);
// Throw InputError for bytes that are not a well-formed message of that kind.
PipelineJob decode_pipeline_job(const Bytes& bytes);
PipelineAnswer decode_pipeline_answer(const Bytes& bytes);
PipelineAnswer decode_pipeline_answer(Reader& r);  // r: "pipeline answer"

}  // namespace app
