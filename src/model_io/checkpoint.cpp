// A pretrained model's files opened together by their names (llama2.c or a Hugging Face folder).
#include "model_io/checkpoint.hpp"

#include <array>

#include "core/error.hpp"
#include "core/input_limits.hpp"

namespace attn::model_io {
namespace {

constexpr int kBos = 1;  // llama2.c's beginning of text

std::string base_name(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

const char* part_name(CheckpointPart p) {
  switch (p) {
    case CheckpointPart::Llama2c:
      return "a llama2.c checkpoint (.bin)";
    case CheckpointPart::Llama2cTokenizer:
      return "tokenizer.bin";
    case CheckpointPart::HfConfig:
      return "config.json";
    case CheckpointPart::Safetensors:
      return "model.safetensors";
    case CheckpointPart::Unknown:
      break;
  }
  return "an unknown file";
}

}  // namespace

CheckpointPart checkpoint_part(const std::string& name) {
  const std::string base = base_name(name);
  if (base == "tokenizer.bin") return CheckpointPart::Llama2cTokenizer;
  if (base == "config.json") return CheckpointPart::HfConfig;
  if (ends_with(base, ".safetensors")) return CheckpointPart::Safetensors;
  if (ends_with(base, ".bin")) return CheckpointPart::Llama2c;
  return CheckpointPart::Unknown;
}

Checkpoint open_checkpoint(std::vector<NamedFile> files, HfFolderReader hf) {
  constexpr int kParts = static_cast<int>(CheckpointPart::Unknown);
  std::array<NamedFile*, kParts> part{};
  for (NamedFile& f : files) {
    const CheckpointPart p = checkpoint_part(f.name);
    if (f.range.copy && p != CheckpointPart::Llama2c) {  // only a llama2.c checkpoint is read in ranges
      f.bytes.resize(f.range.size);
      if (f.range.size > 0) f.range.copy(f.bytes.data(), 0, f.range.size);
      f.range = {};
    }
    if (p == CheckpointPart::Unknown) {
      throw InputError("'" + one_line(base_name(f.name)) +
                       "' is not a checkpoint's file: open a llama2.c .bin (and its tokenizer.bin), or a "
                       "Hugging Face folder's config.json and model.safetensors");
    }
    NamedFile*& slot = part[static_cast<size_t>(p)];
    if (slot) {
      throw InputError(std::string("two files are ") + part_name(p) + ": '" +
                       one_line(base_name(slot->name)) + "' and '" + one_line(base_name(f.name)) +
                       "'; open one model at a time");
    }
    slot = &f;
  }
  auto* bin = part[static_cast<size_t>(CheckpointPart::Llama2c)];
  auto* config = part[static_cast<size_t>(CheckpointPart::HfConfig)];
  auto* weights = part[static_cast<size_t>(CheckpointPart::Safetensors)];
  auto* tokenizer = part[static_cast<size_t>(CheckpointPart::Llama2cTokenizer)];
  Checkpoint c;
  if (bin && (config || weights))
    throw InputError("a llama2.c .bin and a Hugging Face folder's files: open one model at a time");
  if (bin) {
    c.model = bin->range.copy ? lm::read_llama2c(bin->range) : lm::read_llama2c(bin->bytes);
    std::string().swap(bin->bytes);  // the weights are in the model now
  } else if (config && weights) {
    if (!hf) {
      throw InputError("a Hugging Face folder opens in attention_cli lm, not in this page (yet)");
    }
    c.model = hf(config->bytes, weights->bytes);
    std::string().swap(weights->bytes);
  } else if (config || weights) {
    throw InputError(std::string("a Hugging Face model needs both config.json and model.safetensors; ") +
                     (config ? "model.safetensors" : "config.json") + " is missing");
  } else {
    throw InputError(tokenizer ? "tokenizer.bin alone is not a model: open the checkpoint (.bin) with it"
                               : "no checkpoint among the files");
  }
  if (tokenizer) {
    if (c.model.format != "llama2c")
      throw InputError("tokenizer.bin belongs to a llama2.c checkpoint, not to a Hugging Face folder");
    c.llama2c = lm::read_llama2c_tokenizer(tokenizer->bytes, c.model.vocab());
    c.has_tokenizer = true;
  }
  return c;
}

std::vector<int> Checkpoint::encode(const std::string& text) const {
  if (!has_tokenizer) throw InputError("text needs the model's tokenizer (tokenizer.bin)");
  return lm::llama2c_encode(llama2c, text, true);
}

std::string Checkpoint::piece(int prev, int id) const {
  if (!has_tokenizer) return std::to_string(id);
  const std::string p = lm::llama2c_piece(llama2c, prev, id);
  const bool lone_byte = p.size() == 1 && static_cast<unsigned char>(p[0]) >= 0x80;
  return lone_byte ? llama2c.pieces[static_cast<size_t>(id)] : p;
}

std::string Checkpoint::text(const std::vector<int>& ids) const {
  std::string out;
  if (!has_tokenizer) return out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != kBos) out += lm::llama2c_piece(llama2c, i ? ids[i - 1] : -1, ids[i]);
  }
  return out;
}

}  // namespace attn::model_io
