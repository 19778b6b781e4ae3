// Trains the refund router and saves / loads model files, built natively and for node (wasm), so
// tests/wasm/compare_train.py can check that the same seed trains to the same weights on both and that a
// model file written by one loads in the other with the same predictions.
//
// Usage:
//   train_node train POSITIONS STEPS SEED MODEL.json   train, save the model, print its metrics
//   train_node predict MODEL.json                      load a model file, print its predictions
// Under node the program reads and writes the real file system (-sNODERAWFS). Bad input -> exit 2.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/train/trainer.hpp"
#include "model_io/model_json.hpp"

namespace {

using nlohmann::json;
namespace tr = attn::train;

// Emails every run predicts: the lesson's pair, a long one, an unknown word.
const char* const kEmails[] = {
    "Refund the cake, not the candles.",
    "Refund the candles, not the cake.",
    "Please refund the delivery fee, not the hamper.",
    "The flowers were lovely, refund the mugs.",
    "hello team , hope you are well . Refund the tea set, not the napkins.",
    "Refund the zeppelin, not the cookies.",
};

// FNV-1a over the bits of every weight: equal on two platforms only when the weights are bit-identical.
std::uint64_t weight_bits_hash(const tr::Model& m) {
  std::uint64_t h = 1469598103934665603ull;
  for (const auto& [name, t] : m.params.named_tensors()) {
    for (Eigen::Index i = 0; i < t->size(); ++i) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, t->data() + i, sizeof bits);
      for (int b = 0; b < 4; ++b) {
        h ^= (bits >> (8 * b)) & 0xffu;
        h *= 1099511628211ull;
      }
    }
  }
  return h;
}

json predictions(const tr::Model& m, const tr::Vocab& v, const std::vector<std::string>& labels) {
  json out = json::array();
  for (const char* text : kEmails) {
    const tr::TextPrediction p = tr::predict_text(m, v, text);
    out.push_back({{"text", text},
                   {"label", labels[static_cast<size_t>(p.prediction.label)]},
                   {"probabilities", p.prediction.probabilities}});
  }
  return out;
}

int run_train(const std::string& positions, int steps, std::uint64_t seed, const std::string& path) {
  tr::ModelConfig mc;
  mc.positions = attn::parse_scheme(
      positions, {attn::Scheme::None, attn::Scheme::Sinusoidal, attn::Scheme::Learned, attn::Scheme::Rope});
  mc.seed = seed;
  const tr::Dataset data = tr::make_refund_dataset();
  tr::Trainer t(mc, tr::TrainConfig{}, data);
  json out;
  out["init_weights_hash"] = std::to_string(weight_bits_hash(t.model()));
  out["vocab_size"] = t.vocab().size();
  t.train(steps);
  const tr::Metrics m = t.evaluate();
  out["steps"] = t.steps();
  out["metrics"] = {{"train_accuracy", m.train_accuracy},
                    {"test_accuracy", m.test_accuracy},
                    {"flipped_pair_accuracy", m.flipped_pair_accuracy},
                    {"test_loss", m.test_loss}};
  out["predictions"] = predictions(t.model(), t.vocab(), data.label_names());
  attn::model_io::save_model_file(path, t.model(), t.vocab(), data.label_names(),
                                  {{"steps", t.steps()}, {"test_accuracy", m.test_accuracy}});
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

int run_predict(const std::string& path) {
  const attn::model_io::LoadedModel m = attn::model_io::load_model_file(path);
  json out = {{"predictions", predictions(m.model, m.vocab, m.labels)}, {"training", m.training_info}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 6 && std::string(argv[1]) == "train") {
      return run_train(argv[2], std::atoi(argv[3]), std::strtoull(argv[4], nullptr, 10), argv[5]);
    }
    if (argc == 3 && std::string(argv[1]) == "predict") return run_predict(argv[2]);
    std::fprintf(stderr,
                 "usage: train_node train POSITIONS STEPS SEED MODEL.json | train_node predict MODEL.json\n");
    return 2;
  } catch (const attn::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
