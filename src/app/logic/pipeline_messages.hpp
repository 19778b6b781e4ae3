// The multi-head scene's recomputes in the page's compute workers: a job (the text and settings to run the
// seeded pipeline on, under the version the page gave it) and the worker's answers (its progress now and
// then, then the result or the error), as bytes (app/logic/message_bytes.hpp). A result travels in parts,
// one message each: everything but the heads' matrices, then each head's (T, T) grids on their own, so
// that the page reads a few megabytes at a time between its frames.
//
// Several workers share a recompute in two rounds: first each runs a span of the heads (its answer: part 0
// with the span's statistics, the span's heads, and from the span that starts at head 0 the embeddings,
// the position table and the inputs); then, once the page has joined the heads' outputs into the concat,
// each gets the concat and a block of rows, and answers with those rows of the output (concat W_O).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/message_bytes.hpp"
#include "core/pipeline.hpp"

namespace app {

inline constexpr std::uint32_t kPipelineJobTag = 0x4a504950;     // "PIPJ"
inline constexpr std::uint32_t kPipelineAnswerTag = 0x41504950;  // "PIPA"

struct PipelineJob {
  PipelineJob() = default;
  PipelineJob(std::uint64_t v, std::string t, const attn::PipelineConfig& c)
      : version(v), text(std::move(t)), config(c) {}
  std::uint64_t version = 0;  // the page's CachedPipeline::version: answers carry it back
  std::string text;
  attn::PipelineConfig config;
  attn::HeadSpan span;  // the heads to run (every head: the whole result)
  // The second round (output_rows): rows first_row .. first_row + concat.rows() - 1 of the output, from
  // those rows of the joined concat (rows, D). The text is not needed then.
  bool output_rows = false;
  int first_row = 0;
  attn::Mat concat;
};

struct PipelineAnswer {
  std::uint64_t version = 0;  // the job's
  bool done = false;          // false: only progress; true: result or error
  int part = 0;  // 0: all but the heads' and the layer's matrices (result.mha.head: H empty); h + 1: head h's
                 // alone; -(k + 1): the layer's matrix k alone (layer_matrix)
  float progress = 0.0f;     // 0 .. 1
  double compute_ms = 0.0;   // the worker's computing time so far
  std::string error;         // done and failed: the core's message
  attn::HeadSpan span;       // the job's, its end resolved (part 0: result.stats are the span's heads')
  bool output_rows = false;  // a second round's answer: result.mha.output holds rows first_row ..
  int first_row = 0;
  attn::PipelineResult result;
};

// The layer's (T, D) matrices that travel as parts of their own (megabytes each for long texts, so that no
// message takes long to read): k in [0, kLayerMatrices) -> embeddings, position table, inputs, the
// multi-head output and the heads' concatenation.
constexpr int kLayerMatrices = 5;
attn::Mat& layer_matrix(attn::PipelineResult& p, int k);
const attn::Mat& layer_matrix(const attn::PipelineResult& p, int k);

Bytes encode(const PipelineJob& job);
// The spans of `heads` heads shared by `shares` workers (shares <= heads): share k has heads
// k H / shares .. (k + 1) H / shares - 1.
std::vector<attn::HeadSpan> head_spans(int heads, int shares);
// The layer's matrices a span's answer carries: all kLayerMatrices for every head, the first three
// (embeddings, position table, inputs) for the span from head 0, none for the others.
int span_layer_matrices(const attn::HeadSpan& span, int heads);
// How many messages an answer takes (1 + the span's heads + its layer matrices for a result, 1 for an
// error, progress or a second round's rows), and message `part` of it (in [0, answer_parts): 0, then the
// heads, then the layer's matrices).
int answer_parts(const PipelineAnswer& answer);
Bytes encode(const PipelineAnswer& answer, int part = 0);
// Throw InputError for bytes that are not a well-formed message of that kind.
PipelineJob decode_pipeline_job(const Bytes& bytes);
PipelineAnswer decode_pipeline_answer(const Bytes& bytes);
PipelineAnswer decode_pipeline_answer(Reader& r);  // r: "pipeline answer"

}  // namespace app
