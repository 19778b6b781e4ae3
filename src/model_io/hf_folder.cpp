// Reads a Hugging Face folder: its shards as one set of tensors, the model by its type, its tokenizer.
#include "model_io/hf_folder.hpp"

#include <array>
#include <optional>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "core/lm/byte_bpe.hpp"
#include "model_io/hf_config.hpp"
#include "model_io/hf_gpt2.hpp"
#include "model_io/hf_llama.hpp"
#include "model_io/hf_tokenizer.hpp"

namespace attn::model_io {
namespace {

// A folder's byte-level BPE.
class BpeCodec final : public TextCodec {
 public:
  explicit BpeCodec(lm::ByteBpe bpe) : bpe_(std::move(bpe)) {}
  std::vector<int> encode(const std::string& text) const override { return lm::encode(bpe_, text); }
  std::string piece(int, int id) const override { return lm::decode_piece(bpe_, id); }
  std::string text(const std::vector<int>& ids) const override { return lm::decode(bpe_, ids); }

 private:
  lm::ByteBpe bpe_;
};

const char* const kPartNames[] = {"config.json",    "",           "model.safetensors.index.json",
                                  "tokenizer.json", "vocab.json", "merges.txt"};

// Every shard model.safetensors.index.json's weight_map names is among the files.
void check_index(const NamedFile& index, const std::vector<const NamedFile*>& shards) {
  require_json_depth(index.bytes, "model.safetensors.index.json");
  const nlohmann::json j = parse_json(index.bytes);
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    throw InputError("model.safetensors.index.json has no weight_map object");
  std::set<std::string> have;
  for (const NamedFile* f : shards) have.insert(base_name(f->name));
  for (const auto& [tensor, file] : j["weight_map"].items()) {
    if (!file.is_string()) {
      throw_input_error({"model.safetensors.index.json puts the tensor '", one_line(tensor, 80),
                         "' in something that is not a file name"});
    }
    if (!have.count(base_name(file.get<std::string>()))) {
      throw_input_error({"'", one_line(file.get<std::string>(), 80),
                         "' is missing: model.safetensors.index.json puts the tensor '", one_line(tensor, 80),
                         "' in it; open every shard of the folder together"});
    }
  }
}

lm::LmModel read_model(const std::string& config_json, const SafeTensors& st) {
  const std::string type = hf_config_string(parse_hf_config(config_json), "model_type", "");
  if (type == "gpt2") return read_hf_gpt2(config_json, st);
  if (type == "llama") return read_hf_llama(config_json, st);
  throw_input_error({"config.json's model_type is '", one_line(type, 40), "'; read: gpt2 and llama"});
}

}  // namespace

HfPart hf_part(const std::string& name) {
  const std::string base = base_name(name);
  if (ends_with(base, ".safetensors")) return HfPart::Weights;
  if (ends_with(base, ".safetensors.index.json")) return HfPart::Index;
  for (int p = 0; p < static_cast<int>(HfPart::Other); ++p) {
    if (base == kPartNames[p]) return static_cast<HfPart>(p);
  }
  return HfPart::Other;
}

Checkpoint read_hf_folder(std::vector<NamedFile> files) {
  std::array<const NamedFile*, static_cast<size_t>(HfPart::Other)> part{};
  std::vector<const NamedFile*> shards;
  for (NamedFile& f : files) {
    const HfPart p = hf_part(f.name);
    if (p == HfPart::Other) continue;
    if (p == HfPart::Weights) {
      shards.push_back(&f);
      continue;
    }
    f.read_whole();  // only weights are read in ranges
    const NamedFile*& slot = part[static_cast<size_t>(p)];
    if (slot) {
      throw_input_error({"two files are ", kPartNames[static_cast<int>(p)], ": '",
                         one_line(base_name(slot->name)), "' and '", one_line(base_name(f.name)),
                         "'; open one model at a time"});
    }
    slot = &f;
  }
  const auto at = [&](HfPart p) { return part[static_cast<size_t>(p)]; };
  const NamedFile* config = at(HfPart::Config);
  if (!config || shards.empty()) {
    throw_input_error({"a Hugging Face model needs both config.json and model.safetensors; ",
                       config ? "model.safetensors" : "config.json", " is missing"});
  }
  if (at(HfPart::Index)) check_index(*at(HfPart::Index), shards);
  Checkpoint c;
  c.model = read_model(config->bytes, SafeTensors(shards));
  const auto text = [&](HfPart p) { return at(p) ? &at(p)->bytes : nullptr; };
  if (std::optional<lm::ByteBpe> bpe =
          read_hf_tokenizer(text(HfPart::Tokenizer), text(HfPart::Vocab), text(HfPart::Merges))) {
    c.tokenizer = std::make_shared<BpeCodec>(std::move(*bpe));
  }
  return c;
}

lm::LmModel read_hf_model(const std::string& config_json, const std::string& safetensors) {
  const NamedFile file("model.safetensors", lm::range_of(safetensors));
  return read_model(config_json, SafeTensors({&file}));
}

}  // namespace attn::model_io
