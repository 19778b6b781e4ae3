// The multi-head scene's pipeline jobs and answers as bytes: a tag, then each field in order.
#include "app/logic/pipeline_messages.hpp"

#include <utility>

namespace app {

Bytes encode(const PipelineJob& job) {
  Writer w;
  w.put(kPipelineJobTag);
  w.put(job.version);
  w.text(job.text);
  const attn::PipelineConfig& c = job.config;
  w.put(c.d_model), w.put(c.heads), w.put(static_cast<std::int32_t>(c.positions));
  w.put(static_cast<std::uint8_t>(c.causal)), w.put(c.seed), w.put(c.learned_slots), w.put(c.base);
  w.put(job.span.begin), w.put(job.span.end);
  w.put(static_cast<std::uint8_t>(job.output_rows));
  if (job.output_rows) w.put(job.first_row), w.mat(job.concat);
  return std::move(w.out);
}

PipelineJob decode_pipeline_job(const Bytes& bytes) {
  Reader r(bytes, "pipeline job");
  if (r.get<std::uint32_t>() != kPipelineJobTag) r.fail();
  PipelineJob job;
  job.version = r.get<std::uint64_t>();
  job.text = r.text();
  attn::PipelineConfig& c = job.config;
  c.d_model = r.get<int>(), c.heads = r.get<int>();
  const auto scheme = r.get<std::int32_t>();
  if (scheme < 0 || scheme >= static_cast<std::int32_t>(attn::scheme_table().size())) r.fail();
  c.positions = static_cast<attn::Scheme>(scheme);
  c.causal = r.get<std::uint8_t>() != 0;
  c.seed = r.get<std::uint64_t>(), c.learned_slots = r.get<int>(), c.base = r.get<double>();
  job.span.begin = r.get<int>(), job.span.end = r.get<int>();
  job.output_rows = r.get<std::uint8_t>() != 0;
  if (job.output_rows) job.first_row = r.get<int>(), job.concat = r.mat();
  r.end();
  return job;
}

attn::Mat& layer_matrix(attn::PipelineResult& p, int k) {
  attn::Mat* const all[kLayerMatrices] = {&p.embeddings, &p.position_table, &p.inputs, &p.mha.output,
                                          &p.mha.concat};
  return *all[k];
}

const attn::Mat& layer_matrix(const attn::PipelineResult& p, int k) {
  return layer_matrix(const_cast<attn::PipelineResult&>(p), k);
}

std::vector<attn::HeadSpan> head_spans(int heads, int shares) {
  std::vector<attn::HeadSpan> out;
  for (int k = 0; k < shares; ++k) out.push_back({k * heads / shares, (k + 1) * heads / shares});
  return out;
}

int span_layer_matrices(const attn::HeadSpan& span, int heads) {
  return span.all(heads) ? kLayerMatrices : span.begin == 0 ? 3 : 0;
}

int answer_parts(const PipelineAnswer& a) {
  if (!a.done || !a.error.empty() || a.output_rows) return 1;
  const int heads = static_cast<int>(a.result.mha.head.size());
  return 1 + (a.span.end_of(heads) - a.span.begin) + span_layer_matrices(a.span, heads);
}

Bytes encode(const PipelineAnswer& a, int part) {
  const int heads = static_cast<int>(a.result.mha.head.size());
  const int span_heads = a.span.end_of(heads) - a.span.begin;
  // on the wire: 0, head h as h + 1, the layer's matrix k as -(k + 1)
  const int wire = part > span_heads ? -(part - span_heads) : part > 0 ? a.span.begin + part : 0;
  Writer w;
  w.put(kPipelineAnswerTag);
  w.put(a.version);
  w.put(static_cast<std::uint8_t>(a.done));
  w.put(wire);
  w.put(a.progress), w.put(a.compute_ms);
  w.text(a.error);
  w.put(a.span.begin), w.put(a.span.end);
  w.put(static_cast<std::uint8_t>(a.output_rows));
  if (!a.done || !a.error.empty()) return std::move(w.out);
  const attn::PipelineResult& p = a.result;
  if (a.output_rows) {
    w.put(a.first_row), w.mat(p.mha.output);
    return std::move(w.out);
  }
  if (wire < 0) {  // the layer's matrix -wire - 1
    w.mat(layer_matrix(p, -wire - 1));
    return std::move(w.out);
  }
  if (wire > 0) {  // head wire - 1's matrices
    const attn::HeadResult& h = p.mha.head.at(static_cast<std::size_t>(wire - 1));
    w.mat(h.output), w.mat(h.scores), w.mat(h.weights);
    return std::move(w.out);
  }
  w.put(static_cast<std::uint32_t>(p.tokens.size()));
  for (const std::string& t : p.tokens) w.text(t);
  w.put(p.dropped_tokens);
  w.put(static_cast<std::uint32_t>(p.mha.head.size()));
  w.put(static_cast<std::uint32_t>(p.stats.size()));
  for (const attn::HeadStats& s : p.stats) w.put(s);
  return std::move(w.out);
}

PipelineAnswer decode_pipeline_answer(const Bytes& bytes) {
  Reader r(bytes, "pipeline answer");
  return decode_pipeline_answer(r);
}

PipelineAnswer decode_pipeline_answer(Reader& r) {
  if (r.get<std::uint32_t>() != kPipelineAnswerTag) r.fail();
  PipelineAnswer a;
  a.version = r.get<std::uint64_t>();
  a.done = r.get<std::uint8_t>() != 0;
  a.part = r.get<int>();
  a.progress = r.get<float>(), a.compute_ms = r.get<double>();
  a.error = r.text();
  a.span.begin = r.get<int>(), a.span.end = r.get<int>();
  a.output_rows = r.get<std::uint8_t>() != 0;
  if (a.part < -kLayerMatrices || (a.part != 0 && (!a.done || !a.error.empty() || a.output_rows))) r.fail();
  if (a.output_rows && a.done && a.error.empty()) {
    a.first_row = r.get<int>();
    a.result.mha.output = r.mat();
  } else if (a.part < 0) {
    layer_matrix(a.result, -a.part - 1) = r.mat();
  } else if (a.part > 0) {
    attn::HeadResult h;
    h.output = r.mat(), h.scores = r.mat(), h.weights = r.mat();
    a.result.mha.head.push_back(std::move(h));
  } else if (a.done && a.error.empty()) {
    attn::PipelineResult& p = a.result;
    const auto tokens = r.get<std::uint32_t>();
    for (std::uint32_t i = 0; i < tokens; ++i) p.tokens.push_back(r.text());
    p.dropped_tokens = r.get<int>();
    const auto heads = r.get<std::uint32_t>();
    const auto stats = r.get<std::uint32_t>();
    // a statistic per head of the span follows, at most one per head
    constexpr std::uint32_t kMostHeads = 65536;  // far past any d_model the app takes
    if (heads > kMostHeads || a.span.begin < 0 || a.span.end > static_cast<int>(heads) || stats > heads ||
        stats > r.left() / sizeof(attn::HeadStats) ||
        static_cast<int>(stats) != a.span.end_of(static_cast<int>(heads)) - a.span.begin)
      r.fail();
    p.mha.head.resize(heads);  // their matrices, and the layer's, come in the parts after this one
    for (std::uint32_t i = 0; i < stats; ++i) p.stats.push_back(r.get<attn::HeadStats>());
  }
  r.end();
  return a;
}

}  // namespace app
