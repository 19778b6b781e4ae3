// Minibatch training of the refund router with Adam, and its accuracy measures.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "core/train/adam.hpp"
#include "core/train/data.hpp"
#include "core/train/model.hpp"
#include "core/train/vocab.hpp"

namespace attn::train {

struct TrainConfig {
  float learning_rate = 1e-2f;  // Adam step size (1e-2 reaches 99% about twice as fast as 3e-3 here)
  int batch = 32;
  float weight_decay = 0.0f;  // decoupled weight decay of the weight matrices (AdamW); 0: plain Adam
};

struct Metrics {
  float train_accuracy = 0;         // fraction of training emails labelled right
  float test_accuracy = 0;          // fraction of held-out emails labelled right
  float flipped_pair_accuracy = 0;  // fraction of held-out twins (pair, template) with BOTH orders right
  float max_pair_difference = 0;  // largest |p_c(email) - p_c(flipped twin)| over held-out twins and classes
  float test_loss = 0;            // mean cross-entropy on the held-out emails
};

// The measures on one list of emails (twins are matched by pair and template_id).
struct SetMetrics {
  int examples = 0;
  float accuracy = 0;
  int twins = 0;            // number of (pair, template) twins with both orders present
  float pair_accuracy = 0;  // fraction of those twins with both orders right
  float max_pair_difference = 0;
  float loss = 0;
};
// Each email's word ids in `vocab`: (examples) lists of (T).
std::vector<std::vector<int>> encode_set(const Vocab& vocab, const std::vector<Example>& examples);
// Throws InputError when an email cannot be read by the model (e.g. longer than a learned table). `ids`:
// encode_set(vocab, examples) made earlier (a set evaluated again and again), or null to encode here.
// `off`: heads switched off (ablation), or null.
SetMetrics evaluate_set(const Model& model, const Vocab& vocab, const std::vector<Example>& examples,
                        const std::vector<std::vector<int>>* ids = nullptr, const HeadSwitch* off = nullptr);

// evaluate_set one email at a time, so a caller can stop between emails: after every email is stepped,
// metrics() equals evaluate_set on the same list, bit for bit.
class SetEvaluation {
 public:
  // `ids`: encode_set of the examples in the vocabulary step() gets, or empty to encode each email as it
  // is stepped.
  explicit SetEvaluation(std::vector<Example> examples, std::vector<std::vector<int>> ids = {});
  bool done() const { return next_ >= examples_.size(); }
  size_t measured() const { return next_; }
  size_t size() const { return examples_.size(); }
  // One forward pass on the next email (with the heads of `off` switched off); throws InputError as
  // evaluate_set does.
  void step(const Model& model, const Vocab& vocab, const HeadSwitch* off = nullptr);
  // The measures of the whole list (every email stepped).
  SetMetrics metrics() const;

 private:
  std::vector<Example> examples_;
  std::vector<std::vector<int>> ids_;  // (examples) of (T), or empty
  std::vector<MatT<float>> probs_;     // (examples) of (1 x classes)
  size_t next_ = 0;
  int right_ = 0;
  double loss_ = 0.0;
  Forward forward_;
};

// Label, confidence, probabilities and attention weights of any text, plus its tokens.
struct TextPrediction {
  std::vector<std::string> tokens;  // (T) lower-case tokens
  std::vector<int> ids;             // (T)
  Prediction prediction;
};
// `off`: heads switched off (ablation), or null.
TextPrediction predict_text(const Model& model, const Vocab& vocab, const std::string& text,
                            const HeadSwitch* off = nullptr);

// A data set with what training reads from it, built once: its vocabulary (Vocab::build) and its training
// emails' ids (encode_set). Trainers share it, so a new run does not tokenize the data again.
struct TrainingData {
  Dataset data;
  Vocab vocab;
  std::vector<std::vector<int>> train_ids;  // (train emails) of (T)
  explicit TrainingData(Dataset d);
};

class Trainer {
 public:
  // Fills config.vocab / config.classes from the data when 0 (InputError when they are set and disagree
  // with it), validates both configs and initialises the model from config.seed. The first form builds
  // the TrainingData of `data` itself.
  Trainer(const ModelConfig& model_config, const TrainConfig& train_config, const Dataset& data);
  Trainer(const ModelConfig& model_config, const TrainConfig& train_config,
          std::shared_ptr<const TrainingData> data);

  // One minibatch of train_config.batch emails (an epoch-wise shuffle drawn from the seed), one Adam step.
  void step();
  // n steps.
  void train(int n);
  int steps() const { return steps_; }
  // Mean cross-entropy of the last minibatch (before its update); 0 before the first step.
  float last_loss() const { return last_loss_; }
  Metrics evaluate() const;

  const Model& model() const { return model_; }
  Model& model() { return model_; }
  const Vocab& vocab() const { return set_->vocab; }
  const Dataset& dataset() const { return set_->data; }
  const TrainingData& data() const { return *set_; }
  const TrainConfig& train_config() const { return train_config_; }

 private:
  std::shared_ptr<const TrainingData> set_;
  TrainConfig train_config_;
  Model model_;
  Adam adam_;
  Params grads_;
  std::vector<int> order_;
  std::size_t cursor_ = 0;
  Rng rng_{0};
  Forward forward_;
  int steps_ = 0;
  float last_loss_ = 0;
};

}  // namespace attn::train
