// Adam for the refund router's parameters: deterministic, no libm calls (bias corrections by products).
#pragma once

#include "core/train/model.hpp"

namespace attn::train {

struct AdamConfig {
  float learning_rate = 3e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.0f;  // decoupled (AdamW): params -= lr * weight_decay * params, matrices only
};

class Adam {
 public:
  Adam() = default;
  // Moments shaped like `params`, zero.
  Adam(const AdamConfig& config, const Params& params);
  // params -= lr * m_hat / (sqrt(v_hat) + eps), tensor by tensor; grads has the shapes of params.
  void step(Params& params, const Params& grads);
  int steps() const { return t_; }
  AdamConfig config;

 private:
  Params m_, v_;
  int t_ = 0;
  float beta1_t_ = 1.0f, beta2_t_ = 1.0f;  // beta^t, kept as running products
};

}  // namespace attn::train
