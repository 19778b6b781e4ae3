// Adam, tensor by tensor; bias corrections from running products so no libm call can differ by platform.
#include "core/train/adam.hpp"

#include <cmath>

#include "core/error.hpp"

namespace attn::train {

Adam::Adam(const AdamConfig& c, const Params& params)
    : config(c), m_(params.zeros_like()), v_(params.zeros_like()) {
  if (!(c.learning_rate > 0.0f && c.learning_rate < 10.0f)) {
    throw InputError("the learning rate is " + std::to_string(c.learning_rate) +
                     "; allowed: above 0 and below 10");
  }
}

void Adam::step(Params& params, const Params& grads) {
  ++t_;
  beta1_t_ *= config.beta1;
  beta2_t_ *= config.beta2;
  const float c1 = 1.0f / (1.0f - beta1_t_);
  const float c2 = 1.0f / (1.0f - beta2_t_);
  const float b1 = config.beta1, b2 = config.beta2, lr = config.learning_rate, eps = config.eps;
  auto p = params.named_tensors();
  auto g = grads.named_tensors();
  auto m = m_.named_tensors();
  auto v = v_.named_tensors();
  for (size_t i = 0; i < p.size(); ++i) {
    float* pw = p[i].second->data();
    const float* gw = g[i].second->data();
    float* mw = m[i].second->data();
    float* vw = v[i].second->data();
    const Eigen::Index n = p[i].second->size();
    // decay the weight matrices, not the (1, n) gains and biases
    const float decay = p[i].second->rows() > 1 ? 1.0f - lr * config.weight_decay : 1.0f;
    for (Eigen::Index j = 0; j < n; ++j) {
      mw[j] = b1 * mw[j] + (1.0f - b1) * gw[j];
      vw[j] = b2 * vw[j] + (1.0f - b2) * gw[j] * gw[j];
      pw[j] = decay * pw[j] - lr * (mw[j] * c1) / (std::sqrt(vw[j] * c2) + eps);
    }
  }
}

}  // namespace attn::train
