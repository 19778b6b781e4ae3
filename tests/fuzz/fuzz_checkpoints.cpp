// libFuzzer target: the pretrained-checkpoint and tokenizer readers on any bytes. The first byte picks one:
// % 8 == 5 a tokenizer.json, % 8 == 7 GPT-2's vocab.json and merges.txt (split at the first zero byte); else
// % 4 == 0 the llama2.c checkpoint reader, 1 its tokenizer reader (vocabulary 259 + the second byte), 2 and 3
// a safetensors file for a tiny Llama or GPT-2 config (a first byte of 128 or more: a folder with an index
// and two shards). A refused file raises InputError; a read checkpoint has the shapes its config says and
// runs a forward over two ids; a read tokenizer encodes a hard text into ids inside its vocabulary and gives
// a piece for each (a byte-level BPE's pieces give the text back).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/lm/llama2c.hpp"
#include "model_io/hf_folder.hpp"
#include "model_io/hf_tokenizer.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "finding: fuzz_checkpoints: %s\n", what);
    std::abort();
  }
}

constexpr const char* kTinyLlama =
    R"({"model_type": "llama", "hidden_size": 4, "intermediate_size": 3, "num_hidden_layers": 1,
        "num_attention_heads": 2, "num_key_value_heads": 1, "vocab_size": 5, "max_position_embeddings": 8})";
constexpr const char* kTinyGpt2 =
    R"({"model_type": "gpt2", "n_embd": 4, "n_layer": 1, "n_head": 2, "vocab_size": 5, "n_positions": 3,
        "n_inner": 6})";

// bytes -> a folder of kTinyLlama's or kTinyGpt2's config (kind 2, 3) and: a u16 length, that many bytes of
// model.safetensors.index.json (none when 0), a u32 length, that many of model-00001-of-00002.safetensors,
// the rest model-00002-of-00002.safetensors.
attn::lm::LmModel sharded(const std::string& bytes, int kind) {
  std::vector<attn::model_io::NamedFile> files = {{"config.json", kind == 2 ? kTinyLlama : kTinyGpt2}};
  std::size_t at = 0;
  const auto length = [&](std::size_t n) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < n && at < bytes.size(); ++i)
      v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at++])) << (8 * i);
    return std::min<std::size_t>(v, bytes.size() - at);
  };
  std::size_t n = length(2);
  if (n > 0) files.push_back({"model.safetensors.index.json", bytes.substr(at, n)});
  at += n;
  n = length(4);
  files.push_back({"model-00001-of-00002.safetensors", bytes.substr(at, n)});
  files.push_back({"model-00002-of-00002.safetensors", bytes.substr(at + n)});
  return attn::model_io::read_hf_folder(std::move(files)).model;
}

// kind 0: a llama2.c file; 2: safetensors for kTinyLlama; 3: for kTinyGpt2; with `shards`, a folder in two
// shards (sharded)
void checkpoint(const std::string& bytes, int kind, bool shards) {
  attn::lm::LmModel m;
  try {
    m = kind == 0 ? attn::lm::read_llama2c(bytes)
        : shards  ? sharded(bytes, kind)
                  : attn::model_io::read_hf_model(kind == 2 ? kTinyLlama : kTinyGpt2, bytes);
  } catch (const attn::InputError&) {
    return;
  }
  const attn::TransformerConfig& c = m.config;
  check(static_cast<int>(m.layers.size()) == c.layers, "layer count");
  check(m.embedding.cols() == c.d_model &&
            (m.tied ? m.classifier.size() == 0
                    : m.classifier.rows() == c.d_model && m.classifier.cols() == m.vocab()),
        "embedding or output layer shape");
  const std::vector<int> ids = {0, m.vocab() - 1};
  try {
    const attn::lm::LmForward f = attn::lm::lm_forward(m, ids);
    check(f.logits.rows() == 2 && f.logits.cols() == m.vocab(), "logits shape");
  } catch (const attn::InputError&) {  // a context of one token refuses two ids
  }
}

void tokenizer(const std::string& bytes, int vocab) {
  attn::lm::Llama2cTokenizer t;
  try {
    t = attn::lm::read_llama2c_tokenizer(bytes, vocab);
  } catch (const attn::InputError&) {
    return;
  }
  check(static_cast<int>(t.pieces.size()) == vocab, "piece count");
  std::vector<int> ids;
  try {
    ids = attn::lm::llama2c_encode(t, "Refund the cake, not the fee! \xC3\xA9\xF0\x9F\x98\x80\n", true);
  } catch (const attn::InputError&) {  // no " " piece
    return;
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    check(ids[i] >= 0 && ids[i] < vocab, "id outside the vocabulary");
    (void)attn::lm::llama2c_piece(t, i ? ids[i - 1] : -1, ids[i]);
  }
}

// kind 5: tokenizer.json; 7: vocab.json, a zero byte, merges.txt
void byte_bpe(const std::string& bytes, int kind) {
  attn::lm::ByteBpe t;
  try {
    if (kind == 5) {
      t = attn::model_io::read_tokenizer_json(bytes);
    } else {
      const std::size_t zero = bytes.find('\0');
      if (zero == std::string::npos) return;
      t = attn::model_io::read_gpt2_tokenizer(bytes.substr(0, zero), bytes.substr(zero + 1));
    }
  } catch (const attn::InputError&) {
    return;
  }
  const std::string text =
      "Refund the cake's 1234 fee!  \xC3\xA9\xF0\x9F\x98\x80\n\t \xFF\xE2\x82 <|endoftext|> ";
  std::vector<int> ids;
  try {
    ids = attn::lm::encode(t, text);
  } catch (const attn::InputError&) {  // a byte with no entry
    return;
  }
  std::string back;
  for (const int id : ids) {
    check(id >= 0 && id < static_cast<int>(t.pieces.size()), "id outside the vocabulary");
    back += attn::lm::decode_piece(t, id);
  }
  // the pieces give the text back unless an unknown-token id or a stripping added token stood in for some
  // bytes
  bool strips = false;
  for (const auto& a : t.options.added) strips = strips || a.lstrip || a.rstrip;
  check(back == text || t.options.unk_id >= 0 || strips, "the pieces do not give the text back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (data[0] % 8 == 5 || data[0] % 8 == 7) {
    byte_bpe(std::string(reinterpret_cast<const char*>(data) + 1, size - 1), data[0] % 8);
  } else if (data[0] % 4 == 1) {
    tokenizer(rest, 259 + data[1]);
  } else {
    checkpoint(std::string(reinterpret_cast<const char*>(data) + 1, size - 1), data[0] % 4, data[0] >= 128);
  }
  return 0;
}
