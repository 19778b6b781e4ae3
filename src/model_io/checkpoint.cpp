// A pretrained model's files opened together by their names (llama2.c or a Hugging Face folder).
#include "model_io/checkpoint.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/hf_folder.hpp"

namespace attn::model_io {
namespace {

constexpr int kBos = 1;  // llama2.c's beginning of text

// llama2.c's tokenizer.bin.
class Llama2cCodec final : public TextCodec {
 public:
  explicit Llama2cCodec(lm::Llama2cTokenizer t) : t_(std::move(t)) {}
  std::vector<int> encode(const std::string& text) const override {
    return lm::llama2c_encode(t_, text, true);
  }
  std::string piece(int prev, int id) const override {
    const std::string p = lm::llama2c_piece(t_, prev, id);
    const bool lone_byte = p.size() == 1 && static_cast<unsigned char>(p[0]) >= 0x80;
    return lone_byte ? t_.pieces[static_cast<size_t>(id)] : p;
  }
  std::string text(const std::vector<int>& ids) const override {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != kBos) out += lm::llama2c_piece(t_, i ? ids[i - 1] : -1, ids[i]);
    }
    return out;
  }

 private:
  lm::Llama2cTokenizer t_;
};

}  // namespace

CheckpointPart checkpoint_part(const std::string& name) {
  const std::string base = base_name(name);
  if (base == "tokenizer.bin") return CheckpointPart::Llama2cTokenizer;
  if (base == "config.json") return CheckpointPart::HfConfig;
  if (ends_with(base, ".safetensors")) return CheckpointPart::Safetensors;
  if (ends_with(base, ".bin")) return CheckpointPart::Llama2c;
  return CheckpointPart::Unknown;
}

Checkpoint open_checkpoint(std::vector<NamedFile> files) {
  const bool folder = std::any_of(files.begin(), files.end(), [](const NamedFile& f) {
    const CheckpointPart p = checkpoint_part(f.name);
    return p == CheckpointPart::HfConfig || p == CheckpointPart::Safetensors;
  });
  if (folder) return read_hf_folder(std::move(files));
  constexpr int kParts = static_cast<int>(CheckpointPart::Unknown);
  std::array<NamedFile*, kParts> part{};
  for (NamedFile& f : files) {
    const CheckpointPart p = checkpoint_part(f.name);
    if (p != CheckpointPart::Llama2c) f.read_whole();  // only a llama2.c checkpoint is read in ranges
    if (p == CheckpointPart::Unknown) {
      throw InputError("'" + one_line(base_name(f.name)) +
                       "' is not a checkpoint's file: open a llama2.c .bin (and its tokenizer.bin), or a "
                       "Hugging Face folder's config.json and model.safetensors");
    }
    NamedFile*& slot = part[static_cast<size_t>(p)];
    if (slot) {
      throw InputError(std::string("two files are ") +
                       (p == CheckpointPart::Llama2c ? "a llama2.c checkpoint (.bin)" : "tokenizer.bin") +
                       ": '" + one_line(base_name(slot->name)) + "' and '" + one_line(base_name(f.name)) +
                       "'; open one model at a time");
    }
    slot = &f;
  }
  auto* bin = part[static_cast<size_t>(CheckpointPart::Llama2c)];
  auto* tokenizer = part[static_cast<size_t>(CheckpointPart::Llama2cTokenizer)];
  if (!bin) {
    throw InputError(tokenizer ? "tokenizer.bin alone is not a model: open the checkpoint (.bin) with it"
                               : "no checkpoint among the files");
  }
  Checkpoint c;
  c.model = bin->range.copy ? lm::read_llama2c(bin->range) : lm::read_llama2c(bin->bytes);
  std::string().swap(bin->bytes);  // the weights are in the model now
  if (tokenizer)
    c.tokenizer =
        std::make_shared<Llama2cCodec>(lm::read_llama2c_tokenizer(tokenizer->bytes, c.model.vocab()));
  return c;
}

std::vector<int> Checkpoint::encode(const std::string& text) const {
  if (!tokenizer) throw InputError("text needs the model's tokenizer");
  return tokenizer->encode(text);
}

std::string Checkpoint::piece(int prev, int id) const {
  return tokenizer ? tokenizer->piece(prev, id) : std::to_string(id);
}

std::string Checkpoint::text(const std::vector<int>& ids) const {
  return tokenizer ? tokenizer->text(ids) : std::string();
}

}  // namespace attn::model_io
