// A small llama2.c checkpoint and tokenizer written here (seeded random weights, shared key/value heads), and
// helpers for the Real model scene's holder tests (test_lm_host.cpp, test_lm_link.cpp).
#pragma once

#include <string>
#include <vector>

#include "app/logic/lm_messages.hpp"
#include "model_io/named_file.hpp"

namespace lm_fixtures {

using attn::model_io::NamedFile;

constexpr int kDim = 16, kHidden = 24, kLayers = 2, kHeads = 4, kKvHeads = 2, kSeq = 64;

// A legacy llama2.c checkpoint (run.c's header and weight order) with seeded random weights, a shared
// output layer, and a vocabulary of `vocab` pieces.
std::string llama2c_checkpoint(int vocab);
// tokenizer.bin's pieces: the 256 byte pieces' ids 3.., a few words; and the file (scores favouring longer
// pieces).
std::vector<std::string> pieces();
std::string tokenizer_bin();
// The checkpoint and its tokenizer, named as a picker gives them.
std::vector<NamedFile> files();
// A question about `text` for model 1.
app::LmRequest ask(const std::string& text);
// Two answers are the same, bit for bit.
void expect_same(const app::LmAnswer& a, const app::LmAnswer& b);

}  // namespace lm_fixtures
