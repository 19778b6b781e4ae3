// libFuzzer target: the model file loader attn::model_io::model_from_json on any text. InputError is the
// expected answer to a bad file; a file that loads must classify an email as the CLI's `router --model`
// does (a label among its labels, finite probabilities, or an InputError) and save back (model_to_json) to
// a file that loads again and saves to the same text. Anything else (a crash, a sanitizer report, another
// exception, a huge allocation under -malloc_limit_mb, a timeout) is a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/train/trainer.hpp"
#include "model_io/model_json.hpp"

namespace {

constexpr size_t kMaxInput = 256 * 1024;  // a small real model is ~10 KB; bigger inputs are skipped

void fail(const char* what) {
  std::fprintf(stderr, "finding: fuzz_model_json: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  if (size > kMaxInput) return -1;  // -1: not added to the corpus
  const std::string text(reinterpret_cast<const char*>(data), size);
  namespace io = attn::model_io;
  io::LoadedModel m;
  try {
    m = io::model_from_json(text);
  } catch (const attn::InputError&) {
    return 0;
  }
  try {
    const auto p = attn::train::predict_text(m.model, m.vocab, "Refund the cake, not the delivery fee.");
    if (p.prediction.label < 0 || static_cast<size_t>(p.prediction.label) >= m.labels.size()) {
      fail("the predicted label is not one of the file's labels");
    }
    for (const auto q : p.prediction.probabilities) {
      if (!std::isfinite(q)) fail("a loaded model predicts a non-finite probability without an error");
    }
  } catch (const attn::InputError&) {
  }
  const std::string saved = io::model_to_json(m.model, m.vocab, m.labels, m.training_info);
  try {
    const io::LoadedModel back = io::model_from_json(saved);
    if (io::model_to_json(back.model, back.vocab, back.labels, back.training_info) != saved) {
      fail("a loaded model does not save back to the same file");
    }
  } catch (const attn::InputError& e) {
    std::fprintf(stderr, "finding: fuzz_model_json: a loaded model saves to a file that does not load: %s\n",
                 e.what());
    std::abort();
  }
  return 0;
}
