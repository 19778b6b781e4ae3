// Small inputs the core and model-file tests share (fixtures.hpp).
#include "fixtures.hpp"

#include "core/error.hpp"
#include "core/train/data.hpp"
#include "core/train/trainer.hpp"

namespace fx {

attn::PipelineConfig pipeline_config(int d_model, int heads, attn::Scheme positions, std::uint64_t seed) {
  attn::PipelineConfig c;
  c.d_model = d_model, c.heads = heads, c.positions = positions, c.seed = seed;
  return c;
}

attn::train::ModelConfig router_config(int d_model, int heads, int layers, int d_ff, attn::Scheme positions) {
  attn::train::ModelConfig c;
  c.d_model = d_model, c.heads = heads, c.layers = layers, c.d_ff = d_ff, c.positions = positions;
  return c;
}

Trained train_a_little(attn::Scheme positions, int layers, int d_ff, int steps, std::uint64_t seed) {
  namespace tr = attn::train;
  tr::ModelConfig mc = router_config(16, 4, layers, d_ff, positions);
  mc.max_len = 40, mc.seed = seed;
  tr::TrainConfig tc;
  tc.batch = 8;
  const tr::Dataset data = tr::make_refund_dataset();
  tr::Trainer t(mc, tc, data);
  t.train(steps);
  return {t.model(), t.vocab(), data.label_names()};
}

::testing::AssertionResult throws_input_error_saying(const std::function<void()>& call,
                                                     const std::string& part) {
  try {
    call();
  } catch (const attn::InputError& e) {
    if (std::string(e.what()).find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the InputError does not say \"" << part << "\": " << e.what();
  }
  return ::testing::AssertionFailure() << "no InputError";
}

}  // namespace fx
