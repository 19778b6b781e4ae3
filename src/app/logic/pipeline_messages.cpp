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

int answer_parts(const PipelineAnswer& a) {
  return a.done && a.error.empty() ? 1 + static_cast<int>(a.result.mha.head.size()) + kLayerMatrices : 1;
}

Bytes encode(const PipelineAnswer& a, int part) {
  const int heads = static_cast<int>(a.result.mha.head.size());
  const int wire = part > heads ? -(part - heads) : part;  // the layer's matrices go as -1 .. -kLayerMatrices
  Writer w;
  w.put(kPipelineAnswerTag);
  w.put(a.version);
  w.put(static_cast<std::uint8_t>(a.done));
  w.put(wire);
  w.put(a.progress), w.put(a.compute_ms);
  w.text(a.error);
  if (!a.done || !a.error.empty()) return std::move(w.out);
  const attn::PipelineResult& p = a.result;
  if (wire < 0) {  // the layer's matrix -wire - 1
    w.mat(layer_matrix(p, -wire - 1));
    return std::move(w.out);
  }
  if (part > 0) {  // head part - 1's matrices
    const attn::HeadResult& h = p.mha.head.at(static_cast<std::size_t>(part - 1));
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
  if (a.part < -kLayerMatrices || (a.part != 0 && (!a.done || !a.error.empty()))) r.fail();
  if (a.part < 0) {
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
    if (heads > r.left() / sizeof(attn::HeadStats)) r.fail();  // a statistic per head follows
    p.mha.head.resize(heads);  // their matrices, and the layer's, come in the parts after this one
    const auto stats = r.get<std::uint32_t>();
    for (std::uint32_t i = 0; i < stats; ++i) p.stats.push_back(r.get<attn::HeadStats>());
  }
  r.end();
  return a;
}

}  // namespace app
