// attention_cli lm: reads the checkpoint and tokenizer, runs the forward over the prompt (and each generated
// token), and prints the ids, pieces, the last position's top 10 and, when asked, every head's weights.
#include "lm_command.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "core/lm/llama2c.hpp"
#include "core/lm/lm_roles.hpp"
#include "core/rng.hpp"
#include "core/train/head_roles.hpp"
#include "model_io/hf_gpt2.hpp"

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

// The softmax of one logits row (1, V), in double.
std::vector<double> probabilities(const Mat& logits, int row, double temperature) {
  const auto v = static_cast<size_t>(logits.cols());
  std::vector<double> p(v);
  double top = -INFINITY;
  for (size_t i = 0; i < v; ++i)
    top = std::max(top, static_cast<double>(logits(row, static_cast<Eigen::Index>(i))));
  double sum = 0;
  for (size_t i = 0; i < v; ++i) {
    p[i] = std::exp((static_cast<double>(logits(row, static_cast<Eigen::Index>(i))) - top) / temperature);
    sum += p[i];
  }
  for (double& x : p) x /= sum;
  return p;
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
  const lm::LmModel model =
      folder ? model_io::read_hf_folder(read_binary(o.model + "/config.json", "config.json"),
                                        read_binary(o.model + "/model.safetensors", "model.safetensors"))
             : lm::read_llama2c(read_binary(o.model, "the model file"));
  if (folder && !o.tokenizer.empty()) {
    throw InputError(
        "--tokenizer is a llama2.c tokenizer.bin; a Hugging Face folder's tokenizer is not read yet");
  }
  if (folder && o.text_given) throw InputError("a Hugging Face folder takes its prompt as --ids for now");
  lm::Llama2cTokenizer tok;
  const bool has_tokenizer = !o.tokenizer.empty();
  if (has_tokenizer)
    tok = lm::read_llama2c_tokenizer(read_binary(o.tokenizer, "the tokenizer file"), model.vocab());
  if (o.text_given && !has_tokenizer)
    throw InputError("--text needs the model's --tokenizer (tokenizer.bin)");
  std::vector<int> ids = o.text_given ? lm::llama2c_encode(tok, o.text, true) : o.ids;
  const TransformerConfig& c = model.config;
  const HeadSwitch off = train::parse_heads_off(o.off, c.layers, c.heads);
  const int prompt = static_cast<int>(ids.size());
  Rng rng(o.seed);
  // every position's attention, the last position's logits
  lm::LmForward f = lm::lm_forward(model, ids, &off, true);
  for (int g = 0; g < o.generate; ++g) {  // each new token from the last position's distribution
    const auto last = static_cast<int>(f.logits.rows()) - 1;
    int next = 0;
    if (o.temperature_given) {
      const std::vector<double> p = probabilities(f.logits, last, o.temperature);
      const double u = rng.uniform();
      double acc = 0;
      next = static_cast<int>(p.size()) - 1;
      for (size_t i = 0; i < p.size(); ++i) {
        acc += p[i];
        if (u < acc) {
          next = static_cast<int>(i);
          break;
        }
      }
    } else {
      f.logits.row(last).maxCoeff(&next);
    }
    ids.push_back(next);
    f = lm::lm_forward(model, ids, &off, true);
  }
  json out;
  out["format"] = model.format;
  out["config"] = {{"d_model", c.d_model}, {"heads", c.heads},       {"kv_heads", c.kv_groups()},
                   {"layers", c.layers},   {"vocab", model.vocab()}, {"max_len", model.max_len},
                   {"d_ff", c.d_ff},       {"tied", model.tied}};
  out["ids"] = ids;
  out["prompt_length"] = prompt;
  if (has_tokenizer) {
    json pieces = json::array();
    std::string text;
    for (size_t i = 0; i < ids.size(); ++i) {
      const std::string p = lm::llama2c_piece(tok, i ? ids[i - 1] : -1, ids[i]);
      // a byte of a longer character is shown as its piece, "<0xE2>"; the text joins the bytes
      const bool lone_byte = p.size() == 1 && static_cast<unsigned char>(p[0]) >= 0x80;
      pieces.push_back(lone_byte ? tok.pieces[static_cast<size_t>(ids[i])] : p);
      if (ids[i] != 1) text += p;
    }
    out["pieces"] = pieces;
    out["text"] = text;
  }
  // the last position's 10 most likely next tokens
  const std::vector<double> p = probabilities(f.logits, static_cast<int>(f.logits.rows()) - 1, 1.0);
  std::vector<int> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  const size_t k = std::min<size_t>(10, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](int a, int b) {
                      return p[static_cast<size_t>(a)] > p[static_cast<size_t>(b)] ||
                             (p[static_cast<size_t>(a)] == p[static_cast<size_t>(b)] && a < b);
                    });
  json next = json::array();
  for (size_t i = 0; i < k; ++i) {
    json e = {{"id", order[i]}, {"p", p[static_cast<size_t>(order[i])]}};
    if (has_tokenizer) {
      const std::string piece = lm::llama2c_piece(tok, ids.back(), order[i]);
      const bool lone_byte = piece.size() == 1 && static_cast<unsigned char>(piece[0]) >= 0x80;
      e["piece"] = lone_byte ? tok.pieces[static_cast<size_t>(order[i])] : piece;
    }
    next.push_back(e);
  }
  out["next"] = next;
  out["off"] = train::heads_off_names(off);
  if (o.roles) {  // a segment of up to 32 ids, repeated within the context
    const int segment = std::min({32, model.max_len / 2, kMaxTokens / 2});
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
