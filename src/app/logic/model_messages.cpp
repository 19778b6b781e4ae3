// A model file's answer from the compute worker: the built model's parts in order, and back.
#include "app/logic/model_messages.hpp"

#include <new>
#include <utility>

#include "app/logic/trained_model.hpp"

namespace app {
void put_words(Writer& w, const std::vector<std::string>& words) {
  w.put(static_cast<std::uint32_t>(words.size()));
  for (const std::string& s : words) w.text(s);
}

std::vector<std::string> get_words(Reader& r) {
  const auto n = r.get<std::uint32_t>();
  if (n > r.left() / 4) r.fail();  // each word takes its u32 size at least
  std::vector<std::string> out(n);
  for (std::string& s : out) s = r.text();
  return out;
}

std::vector<Part> model_parts(Writer& head, const attn::train::Model& model) {
  head.put(model.config);
  std::vector<Part> parts = {{head.out.data(), head.out.size()}};
  for (const auto& [name, t] : model.params.named_tensors())
    parts.emplace_back(t->data(), sizeof(float) * static_cast<std::size_t>(t->size()));
  return parts;
}

void put_model(Writer& w, const attn::train::Model& model) {
  const std::vector<Part> parts = model_parts(w, model);
  for (std::size_t i = 1; i < parts.size(); ++i) w.raw(parts[i].first, parts[i].second);  // after the head
}

attn::train::Model get_model(Reader& r) {
  const auto config = r.get<attn::train::ModelConfig>();
  attn::train::Params params = attn::train::Params::init(config, false);
  for (const auto& [name, t] : params.named_tensors())
    r.read(t->data(), sizeof(float) * static_cast<std::size_t>(t->size()));
  return attn::train::Model(config, std::move(params));
}

Bytes encode(const ModelAnswer& a) {
  Writer w;
  w.put(kModelAnswerTag);
  w.put(a.load);
  w.text(a.error);
  if (!a.error.empty()) return std::move(w.out);
  const attn::model_io::LoadedModel& m = a.model;
  put_words(w, m.vocab.words);
  put_words(w, m.labels);
  w.text(m.training_info.is_object() ? m.training_info.dump() : std::string());
  put_model(w, m.model);
  return std::move(w.out);
}

attn::model_io::LoadedModel decode_model_answer(Reader& r) {
  if (r.get<std::uint32_t>() != kModelAnswerTag) r.fail();
  r.get<std::uint32_t>();  // the load's number: the page's script has read it
  const std::string error = r.text();
  if (!error.empty()) throw attn::InputError(error);
  attn::model_io::LoadedModel m;
  m.vocab.words = get_words(r);
  m.labels = get_words(r);
  const std::string info = r.text();
  if (!info.empty()) m.training_info = attn::model_io::parse_json(info);
  // the worker's reader checked the file: the shapes are those of the config, each weight finite
  m.model = get_model(r);
  r.end();
  return m;
}

ModelAnswer read_model_file(attn::model_io::ByteSource& bytes, long long total_bytes, std::uint32_t load) {
  ModelAnswer a;
  a.load = load;
  try {
    a.model = attn::model_io::model_from_source(bytes, total_bytes);
  } catch (const attn::InputError& e) {
    a.error = e.what();
  } catch (const std::bad_alloc&) {
    a.error = kTooLargeToLoad;
  }
  return a;
}

}  // namespace app
