// attention_cli lm: reads the checkpoint and tokenizer, runs the forward over the prompt (and each generated
// token), and prints the ids, pieces, the last position's top 10 and, when asked, every head's weights.
#include "lm_command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "core/lm/lm_roles.hpp"
#include "core/lm/next_token.hpp"
#include "core/rng.hpp"
#include "core/train/head_roles.hpp"
#include "model_io/checkpoint.hpp"
#include "model_io/hf_gpt2.hpp"
#include "tokenize_command.hpp"

namespace attn::cli {
namespace {

constexpr std::streamoff kMaxCheckpointBytes = std::streamoff{2} << 30;

std::string read_binary(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError("cannot open " + what + " '" + one_line(path) + "'");
  const std::streamoff size = in.tellg();
  if (size < 0) throw InputError("cannot read " + what + " '" + one_line(path) + "'");
  if (size > kMaxCheckpointBytes)
    throw_input_error({what, " is ", size, " bytes; allowed: up to ", kMaxCheckpointBytes});
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  in.read(bytes.data(), size);
  if (!in) throw InputError("cannot read " + what + " '" + one_line(path) + "'");
  return bytes;
}

}  // namespace

json run_lm(const LmOptions& o) {
  if (o.text_given == o.ids_given) throw InputError("give the prompt as --text or as --ids, one of the two");
  require_range(o.generate, 0, kMaxTokens, "--generate");
  if (o.temperature_given && !(o.temperature > 0 && o.temperature <= 100)) {
    throw InputError("--temperature must be above 0 and at most 100 (leave it out for greedy decoding)");
  }
  std::error_code ec;
  const bool folder = std::filesystem::is_directory(o.model, ec);
  if (folder && !o.tokenizer.empty()) {
    throw InputError(
        "--tokenizer is a llama2.c tokenizer.bin; a Hugging Face folder's tokenizer is not read yet");
  }
  std::vector<model_io::NamedFile> files;
  if (folder) {
    for (const char* name : {"config.json", "model.safetensors"})
      files.push_back({name, read_binary(o.model + "/" + name, name)});
  } else {
    // the checkpoint is named .bin whatever its path says; the tokenizer is tokenizer.bin
    files.push_back({"model.bin", read_binary(o.model, "the model file")});
    if (!o.tokenizer.empty())
      files.push_back({"tokenizer.bin", read_binary(o.tokenizer, "the tokenizer file")});
  }
  const model_io::Checkpoint checkpoint =
      model_io::open_checkpoint(std::move(files), &model_io::read_hf_folder);
  const lm::LmModel& model = checkpoint.model;
  // a Hugging Face folder's byte-level BPE (tokenizer.json, or vocab.json and merges.txt), when it has one
  std::optional<lm::ByteBpe> bpe;
  if (folder && (std::filesystem::exists(o.model + "/tokenizer.json", ec) ||
                 std::filesystem::exists(o.model + "/vocab.json", ec)))
    bpe = read_tokenizer_folder(o.model);
  const bool has_tokenizer = checkpoint.has_tokenizer || bpe;
  if (o.text_given && !has_tokenizer) {
    throw InputError(folder ? "--text needs the folder's tokenizer.json (or vocab.json and merges.txt)"
                            : "--text needs the model's --tokenizer (tokenizer.bin)");
  }
  // what id `id` after `prev` shows, and the ids' text
  const auto piece = [&](int prev, int id) {
    return bpe ? lm::decode_piece(*bpe, id) : checkpoint.piece(prev, id);
  };
  std::vector<int> ids = !o.text_given ? o.ids : bpe ? lm::encode(*bpe, o.text) : checkpoint.encode(o.text);
  const TransformerConfig& c = model.config;
  const HeadSwitch off = train::parse_heads_off(o.off, c.layers, c.heads);
  const int prompt = static_cast<int>(ids.size());
  Rng rng(o.seed);
  // every position's attention, the last position's logits
  const lm::LmForward f =
      lm::generate(model, ids, o.generate, o.temperature_given ? o.temperature : 0, rng, &off);
  json out;
  out["format"] = model.format;
  out["config"] = {{"d_model", c.d_model}, {"heads", c.heads},       {"kv_heads", c.kv_groups()},
                   {"layers", c.layers},   {"vocab", model.vocab()}, {"max_len", model.max_len},
                   {"d_ff", c.d_ff},       {"tied", model.tied}};
  out["ids"] = ids;
  out["prompt_length"] = prompt;
  if (has_tokenizer) {
    json pieces = json::array();
    for (size_t i = 0; i < ids.size(); ++i) pieces.push_back(piece(i ? ids[i - 1] : -1, ids[i]));
    out["pieces"] = pieces;
    out["text"] = bpe ? lm::decode(*bpe, ids) : checkpoint.text(ids);
  }
  // the last position's 10 most likely next tokens
  json next = json::array();
  for (const lm::Candidate& cand : lm::top_next(f.logits, static_cast<int>(f.logits.rows()) - 1, 10)) {
    json e = {{"id", cand.id}, {"p", cand.p}};
    if (has_tokenizer) e["piece"] = piece(ids.back(), cand.id);
    next.push_back(e);
  }
  out["next"] = next;
  out["off"] = train::heads_off_names(off);
  if (o.roles) {  // a segment of up to 32 ids, repeated within the context
    const int segment = lm::lm_role_segment(model);
    if (segment < 2) throw InputError("--roles needs a context of at least 4 tokens");
    const lm::LmRoles roles = lm::lm_head_roles(model, segment, o.seed);
    json heads = json::array();
    for (const train::HeadRole& h : roles.heads) {
      json scores = json::object();
      for (const train::RoleScore& sc : h.scores) scores[sc.name] = sc.value;
      heads.push_back({{"layer", h.layer}, {"head", h.head}, {"role", h.role}, {"scores", scores}});
    }
    out["roles"] = {{"segment", roles.segment}, {"ids", roles.ids}, {"heads", heads}};
  }
  if (o.attention) {
    json layers = json::array();
    for (const LayerCapture& L : f.layers) {
      json heads = json::array();
      for (const Mat& w : L.weights) heads.push_back(to_json(w));
      layers.push_back(heads);
    }
    out["attention"] = layers;
  }
  return out;
}

}  // namespace attn::cli
