// The Train scene's commands and updates as bytes (app/logic/message_bytes.hpp): a tag, then each field in
// order.
#include "app/logic/train_messages.hpp"

#include <cstring>
#include <string>

#include "core/error.hpp"
#include "model_io/model_json.hpp"

namespace app::train_ui {

Bytes encode(const Command& c) {
  Writer w;
  w.put(kCommandTag);
  w.put(static_cast<std::int32_t>(c.kind));
  w.put(c.generation);
  w.put(static_cast<std::int32_t>(c.key.positions));
  w.put(c.key.d_model), w.put(c.key.heads), w.put(c.key.layers), w.put(c.key.seed);
  w.put(static_cast<std::int32_t>(c.key.task));
  w.put(static_cast<std::uint8_t>(c.run));
  w.put(c.max_steps);
  w.put(c.acked);
  return std::move(w.out);
}

Command decode_command(const Bytes& bytes) {
  Reader r(bytes, "train command");
  if (r.get<std::uint32_t>() != kCommandTag) r.fail();
  Command c;
  c.kind = r.enumerator(Command::Kind::Ack);
  c.generation = r.get<long long>();
  c.key.positions = static_cast<attn::Scheme>(r.get<std::int32_t>());
  c.key.d_model = r.get<int>(), c.key.heads = r.get<int>(), c.key.layers = r.get<int>();
  c.key.seed = r.get<int>();
  c.key.task = r.enumerator(Task::Induction);
  c.run = r.get<std::uint8_t>() != 0;
  c.max_steps = r.get<int>();
  c.acked = r.get<long long>();
  r.end();
  return c;
}

Bytes encode(const Update& u) {
  Writer w;
  w.put(update_tag(u.task));
  w.put(u.generation);
  w.put(static_cast<std::int32_t>(u.stop));
  const Progress& p = u.progress;
  w.put(static_cast<std::uint8_t>(p.has_trainer));
  w.put(p.steps), w.put(p.last_loss), w.put(p.metrics);
  w.put(p.metrics_step), w.put(p.train_metrics_step);
  w.put(static_cast<std::uint8_t>(p.evaluating));
  w.put(p.target_step), w.put(p.target_seconds), w.put(p.seconds), w.put(p.steps_per_second);
  w.text(p.error);
  w.put(u.loss_from), w.put(u.eval_from), w.put(u.train_from);
  const Curves& t = u.tails;
  for (const auto* a : {&t.loss, &t.eval_step, &t.test_accuracy, &t.flipped, &t.train_step, &t.train_accuracy,
                        &t.first_half, &t.second_half, &t.scores})
    w.floats(*a);
  w.put(static_cast<std::uint8_t>(u.has_model));
  w.floats(u.weights);
  w.text(u.info.is_null() ? std::string() : u.info.dump());
  return std::move(w.out);
}

Update decode_update(const Bytes& bytes) {
  Reader r(bytes, "train update");
  const auto tag = r.get<std::uint32_t>();
  Update u;
  if (tag == update_tag(Task::Induction)) {
    u.task = Task::Induction;
  } else if (tag != update_tag(Task::Router)) {
    r.fail();
  }
  u.generation = r.get<long long>();
  u.stop = r.enumerator(Stop::Error);
  Progress& p = u.progress;
  p.has_trainer = r.get<std::uint8_t>() != 0;
  p.steps = r.get<int>(), p.last_loss = r.get<float>(), p.metrics = r.get<attn::train::Metrics>();
  p.metrics_step = r.get<int>(), p.train_metrics_step = r.get<int>();
  p.evaluating = r.get<std::uint8_t>() != 0;
  p.target_step = r.get<int>(), p.target_seconds = r.get<double>(), p.seconds = r.get<double>();
  p.steps_per_second = r.get<double>();
  p.error = r.text();
  u.loss_from = r.get<long long>(), u.eval_from = r.get<long long>(), u.train_from = r.get<long long>();
  Curves& t = u.tails;
  for (auto* a : {&t.loss, &t.eval_step, &t.test_accuracy, &t.flipped, &t.train_step, &t.train_accuracy,
                  &t.first_half, &t.second_half, &t.scores})
    r.floats(*a);
  u.has_model = r.get<std::uint8_t>() != 0;
  r.floats(u.weights);
  const std::string info = r.text();
  r.end();
  if (!info.empty()) {
    u.info = attn::model_io::parse_json(info);
    if (u.info.is_discarded()) r.fail();
  }
  // each evaluation has the router's accuracies or the induction task's losses and scores
  const std::size_t e = t.eval_step.size();
  const bool router = t.test_accuracy.size() == e && t.flipped.size() == e && t.first_half.empty() &&
                      t.second_half.empty() && t.scores.empty();
  const bool induction = t.first_half.size() == e && t.second_half.size() == e && t.test_accuracy.empty() &&
                         t.flipped.empty() && (e == 0 ? t.scores.empty() : t.scores.size() % e == 0);
  if (!(u.task == Task::Router ? router : induction) || t.train_step.size() != t.train_accuracy.size())
    r.fail();
  return u;
}

std::vector<float> flat_weights(const attn::train::Model& model) {
  std::vector<float> out;
  out.reserve(static_cast<std::size_t>(model.params.parameter_count()));
  for (const auto& [name, m] : model.params.named_tensors())
    out.insert(out.end(), m->data(), m->data() + m->size());
  return out;
}

void set_weights(attn::train::Model& model, const std::vector<float>& weights) {
  if (static_cast<long long>(weights.size()) != model.params.parameter_count())
    throw attn::InputError("a train update's weights do not fit its model");
  const float* at = weights.data();
  for (auto& [name, m] : model.params.named_tensors()) {
    std::memcpy(m->data(), at, sizeof(float) * static_cast<std::size_t>(m->size()));
    at += m->size();
  }
}

}  // namespace app::train_ui
