// Minibatch Adam training of the refund router and its accuracy measures on held-out twins.
#include "core/train/trainer.hpp"

#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "core/error.hpp"

namespace attn::train {

std::vector<std::vector<int>> encode_set(const Vocab& vocab, const std::vector<Example>& examples) {
  std::vector<std::vector<int>> ids;
  ids.reserve(examples.size());
  for (const auto& e : examples) ids.push_back(vocab.encode(e.text));
  return ids;
}

SetEvaluation::SetEvaluation(std::vector<Example> examples, std::vector<std::vector<int>> ids)
    : examples_(std::move(examples)), ids_(std::move(ids)), probs_(examples_.size()) {
  if (!ids_.empty() && ids_.size() != examples_.size()) {
    throw_input_error({ids_.size(), " encoded emails for a set of ", examples_.size()});
  }
}

void SetEvaluation::step(const Model& model, const Vocab& vocab, const HeadSwitch* off) {
  if (done()) return;
  const Example& e = examples_[next_];
  if (ids_.empty()) {
    model.forward(vocab.encode(e.text), forward_, off);
  } else {
    model.forward(ids_[next_], forward_, off);
  }
  probs_[next_] = forward_.probs;
  Eigen::Index best = 0;
  forward_.probs.row(0).maxCoeff(&best);
  if (best == e.label) ++right_;
  loss_ += -std::log(std::max(static_cast<double>(forward_.probs(0, e.label)), 1e-30));
  ++next_;
}

SetMetrics SetEvaluation::metrics() const {
  SetMetrics m;
  m.examples = static_cast<int>(examples_.size());
  if (examples_.empty()) return m;
  m.accuracy = static_cast<float>(right_) / static_cast<float>(examples_.size());
  m.loss = static_cast<float>(loss_ / static_cast<double>(examples_.size()));
  std::map<std::pair<int, int>, std::array<int, 2>> twins;  // (pair, template) -> index of order 0 and 1
  for (size_t i = 0; i < examples_.size(); ++i) {
    const Example& e = examples_[i];
    auto it = twins.try_emplace({e.pair, e.template_id}, std::array<int, 2>{-1, -1}).first;
    it->second[static_cast<size_t>(e.order & 1)] = static_cast<int>(i);
  }
  int both = 0;
  for (const auto& [key, idx] : twins) {
    if (idx[0] < 0 || idx[1] < 0) continue;
    ++m.twins;
    const auto& a = examples_[static_cast<size_t>(idx[0])];
    const auto& b = examples_[static_cast<size_t>(idx[1])];
    const MatT<float>& pa = probs_[static_cast<size_t>(idx[0])];
    const MatT<float>& pb = probs_[static_cast<size_t>(idx[1])];
    Eigen::Index la = 0, lb = 0;
    pa.row(0).maxCoeff(&la);
    pb.row(0).maxCoeff(&lb);
    if (la == a.label && lb == b.label) ++both;
    m.max_pair_difference = std::max(m.max_pair_difference, (pa - pb).cwiseAbs().maxCoeff());
  }
  if (m.twins > 0) m.pair_accuracy = static_cast<float>(both) / static_cast<float>(m.twins);
  return m;
}

SetMetrics evaluate_set(const Model& model, const Vocab& vocab, const std::vector<Example>& examples,
                        const std::vector<std::vector<int>>* ids, const HeadSwitch* off) {
  SetEvaluation evaluation(examples, ids ? *ids : std::vector<std::vector<int>>{});
  while (!evaluation.done()) evaluation.step(model, vocab, off);
  return evaluation.metrics();
}

TextPrediction predict_text(const Model& model, const Vocab& vocab, const std::string& text,
                            const HeadSwitch* off) {
  TextPrediction p;
  p.tokens = Vocab::tokens(text);
  p.ids.reserve(p.tokens.size());
  for (const auto& t : p.tokens) p.ids.push_back(vocab.id(t));
  p.prediction = model.predict(p.ids, off);
  return p;
}

TrainingData::TrainingData(Dataset d)
    : data(std::move(d)), vocab(Vocab::build(data)), train_ids(encode_set(vocab, data.train)) {}

Trainer::Trainer(const ModelConfig& model_config, const TrainConfig& train_config, const Dataset& data)
    : Trainer(model_config, train_config, std::make_shared<const TrainingData>(data)) {}

Trainer::Trainer(const ModelConfig& model_config, const TrainConfig& train_config,
                 std::shared_ptr<const TrainingData> data)
    : set_(std::move(data)), train_config_(train_config) {
  require_range(train_config.batch, 1, 4096, "the batch size");
  const Dataset& d = set_->data;
  if (d.train.empty()) throw InputError("the data set has no training emails");
  ModelConfig c = model_config;
  const int words = set_->vocab.size();
  if (c.vocab == 0) c.vocab = words;
  if (c.classes == 0) c.classes = d.classes();
  if (c.vocab != words) {
    throw_input_error({"the model has a vocabulary of ", c.vocab, " words but the data set has ", words});
  }
  if (c.classes != d.classes()) {
    throw_input_error({"the model has ", c.classes, " classes but the data set has ", d.classes()});
  }
  model_ = Model(c);
  AdamConfig ac;
  ac.learning_rate = train_config.learning_rate;
  ac.weight_decay = train_config.weight_decay;
  adam_ = Adam(ac, model_.params);
  grads_ = model_.params.zeros_like();
  order_.resize(set_->train_ids.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
  rng_ = Rng(mix_seed(c.seed, 0xba7c4ULL));
  cursor_ = order_.size();  // shuffle before the first batch
}

void Trainer::step() {
  grads_.set_zero();
  const int batch = train_config_.batch;
  const float scale = 1.0f / static_cast<float>(batch);
  double loss = 0.0;
  for (int b = 0; b < batch; ++b) {
    if (cursor_ >= order_.size()) {  // a new epoch: Fisher-Yates from the seeded stream
      for (size_t i = order_.size() - 1; i > 0; --i) {
        const size_t j = static_cast<size_t>(rng_.next_u64() % static_cast<std::uint64_t>(i + 1));
        std::swap(order_[i], order_[j]);
      }
      cursor_ = 0;
    }
    const int idx = order_[cursor_++];
    model_.forward(set_->train_ids[static_cast<size_t>(idx)], forward_);
    loss += model_.backward(forward_, set_->data.train[static_cast<size_t>(idx)].label, grads_, scale);
  }
  adam_.step(model_.params, grads_);
  last_loss_ = static_cast<float>(loss / batch);
  ++steps_;
}

void Trainer::train(int n) {
  for (int i = 0; i < n; ++i) step();
}

Metrics Trainer::evaluate() const {
  const SetMetrics tr = evaluate_set(model_, set_->vocab, set_->data.train, &set_->train_ids);
  const SetMetrics te = evaluate_set(model_, set_->vocab, set_->data.test);
  Metrics m;
  m.train_accuracy = tr.accuracy;
  m.test_accuracy = te.accuracy;
  m.flipped_pair_accuracy = te.pair_accuracy;
  m.max_pair_difference = te.max_pair_difference;
  m.test_loss = te.loss;
  return m;
}

}  // namespace attn::train
