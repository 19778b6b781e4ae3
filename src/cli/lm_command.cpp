// attention_cli lm: reads the checkpoint and tokenizer, runs the forward over the prompt (and each generated
// token), and prints the ids, pieces, the last position's top 10 and, when asked, every head's weights.
#include "lm_command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "core/lm/lm_roles.hpp"
#include "core/lm/next_token.hpp"
#include "core/rng.hpp"
#include "core/train/head_roles.hpp"
#include "model_io/checkpoint.hpp"
#include "model_io/hf_folder.hpp"

namespace attn::cli {
namespace {

constexpr std::streamoff kMaxCheckpointBytes = std::streamoff{2} << 30;

// The file at `path` opened for reading, its size checked; `what` names it in errors.
std::shared_ptr<std::ifstream> open_capped(const std::string& path, const std::string& what,
                                           std::streamoff& size) {
  auto in = std::make_shared<std::ifstream>(path, std::ios::binary | std::ios::ate);
  if (!*in) throw InputError("cannot open " + what + " '" + one_line(path) + "'");
  size = in->tellg();
  if (size < 0) throw InputError("cannot read " + what + " '" + one_line(path) + "'");
  if (size > kMaxCheckpointBytes)
    throw_input_error({what, " is ", size, " bytes; allowed: up to ", kMaxCheckpointBytes});
  return in;
}

std::string read_binary(const std::string& path, const std::string& what) {
  std::streamoff size = 0;
  const auto in = open_capped(path, what, size);
  std::string bytes(static_cast<size_t>(size), '\0');
  in->seekg(0);
  in->read(bytes.data(), size);
  if (!*in) throw InputError("cannot read " + what + " '" + one_line(path) + "'");
  return bytes;
}

// A checkpoint's weights on disk, read a tensor at a time as the reader asks (never whole in memory).
lm::FileRange disk_range(const std::string& path, const std::string& what) {
  std::streamoff size = 0;
  auto in = open_capped(path, what, size);
  return {static_cast<size_t>(size), [in, path, what](void* dst, size_t at, size_t n) {
            in->seekg(static_cast<std::streamoff>(at));
            in->read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
            if (!*in) throw InputError("cannot read " + what + " '" + one_line(path) + "'");
          }};
}

// A Hugging Face folder's model and tokenizer files (its other files are not read), in name order.
std::vector<model_io::NamedFile> folder_files(const std::string& folder) {
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    if (e.is_regular_file()) paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<model_io::NamedFile> files;
  for (const auto& p : paths) {
    const std::string name = p.filename().string();
    const model_io::HfPart part = model_io::hf_part(name);
    if (part == model_io::HfPart::Weights) {
      files.emplace_back(name, disk_range(p.string(), name));
    } else if (part != model_io::HfPart::Other) {
      files.emplace_back(name, read_binary(p.string(), name));
    }
  }
  return files;
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
        "--tokenizer is a llama2.c tokenizer.bin; a Hugging Face folder's tokenizer is read from the folder");
  }
  std::vector<model_io::NamedFile> files;
  if (folder) {
    files = folder_files(o.model);
  } else {
    // the checkpoint is named .bin whatever its path says; the tokenizer is tokenizer.bin
    files.emplace_back("model.bin", disk_range(o.model, "the model file"));
    if (!o.tokenizer.empty())
      files.emplace_back("tokenizer.bin", read_binary(o.tokenizer, "the tokenizer file"));
  }
  const model_io::Checkpoint checkpoint = model_io::open_checkpoint(std::move(files));
  const lm::LmModel& model = checkpoint.model;
  const bool has_tokenizer = checkpoint.has_tokenizer();
  if (o.text_given && !has_tokenizer) {
    throw InputError(folder ? "--text needs the folder's tokenizer.json (or vocab.json and merges.txt)"
                            : "--text needs the model's --tokenizer (tokenizer.bin)");
  }
  std::vector<int> ids = o.text_given ? checkpoint.encode(o.text) : o.ids;
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
    for (size_t i = 0; i < ids.size(); ++i) pieces.push_back(checkpoint.piece(i ? ids[i - 1] : -1, ids[i]));
    out["pieces"] = pieces;
    out["text"] = checkpoint.text(ids);
  }
  // the last position's 10 most likely next tokens
  json next = json::array();
  for (const lm::Candidate& cand : lm::top_next(f.logits, static_cast<int>(f.logits.rows()) - 1, 10)) {
    json e = {{"id", cand.id}, {"p", cand.p}};
    if (has_tokenizer) e["piece"] = checkpoint.piece(ids.back(), cand.id);
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
