// Reads llama2.c checkpoints and tokenizers into the core's language model.
#include "core/lm/llama2c.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "core/error.hpp"

namespace attn::lm {
namespace {

constexpr std::uint32_t kMagic = 0x616b3432;   // "ak42"
constexpr int kVersionedHeader = 256;          // bytes before the weights of a versioned export
constexpr long long kMaxFloats = 400LL << 20;  // 1.6 GB of float32: past the page's and the CLI's reach
constexpr int kMaxDim = 16384, kMaxVocab = 1 << 20, kMaxLayers = 256, kMaxHidden = 65536;

// Reads the file front to back, refusing to read past its end.
class Cursor {
 public:
  explicit Cursor(const FileRange& f) : file_(f) {}
  std::int32_t i32(const char* what) {
    std::int32_t v = 0;
    copy(&v, sizeof v, what);
    return v;
  }
  std::uint32_t u32(const char* what) {
    std::uint32_t v = 0;
    copy(&v, sizeof v, what);
    return v;
  }
  std::uint8_t u8(const char* what) {
    std::uint8_t v = 0;
    copy(&v, sizeof v, what);
    return v;
  }
  // `rows` x `cols` float32, row-major, each finite: (rows, cols)
  Mat floats(long long rows, long long cols, const std::string& what) {
    Mat m(rows, cols);
    copy(m.data(), static_cast<size_t>(rows * cols) * sizeof(float), what.c_str());
    if (!m.allFinite()) throw_input_error({"the checkpoint's ", what, " holds a NaN or infinite value"});
    return m;
  }
  void skip(long long n, const char* what) {
    need(n, what);
    at_ += static_cast<size_t>(n);
  }
  void seek(size_t at) { at_ = at; }
  size_t left() const { return file_.size - at_; }

 private:
  void need(long long n, const char* what) const {
    if (n < 0 || static_cast<unsigned long long>(n) > left()) {
      throw_input_error({"the checkpoint ends before its ", what, " (", left(), " bytes left, ", n,
                         " needed): the file is truncated or its header is wrong"});
    }
  }
  void copy(void* out, size_t n, const char* what) {
    need(static_cast<long long>(n), what);
    if (n > 0) file_.copy(out, at_, n);
    at_ += n;
  }
  const FileRange& file_;
  size_t at_ = 0;
};

struct Header {
  int dim = 0, hidden = 0, layers = 0, heads = 0, kv_heads = 0, vocab = 0, seq_len = 0;
  bool shared = true;
};

void check_header(const Header& h) {
  require_range(h.dim, 1, kMaxDim, "the checkpoint's dim");
  require_range(h.hidden, 1, kMaxHidden, "the checkpoint's hidden_dim");
  require_range(h.layers, 1, kMaxLayers, "the checkpoint's n_layers");
  require_range(h.heads, 1, h.dim, "the checkpoint's n_heads");
  require_range(h.kv_heads, 1, h.heads, "the checkpoint's n_kv_heads");
  require_range(h.vocab, 1, kMaxVocab, "the checkpoint's vocab_size");
  require_range(h.seq_len, 1, 1 << 20, "the checkpoint's seq_len");
  if (h.dim % h.heads != 0)
    throw_input_error({"the checkpoint's dim ", h.dim, " is not divisible by its ", h.heads, " heads"});
  if (h.heads % h.kv_heads != 0) {
    throw_input_error(
        {"the checkpoint's ", h.kv_heads, " key/value heads do not divide its ", h.heads, " heads"});
  }
  const long long d = h.dim, f = h.hidden, kv = static_cast<long long>(h.dim / h.heads) * h.kv_heads;
  const long long floats =
      h.vocab * d * (h.shared ? 1 : 2) + h.layers * (2 * d + 2 * d * d + 2 * kv * d + 3 * d * f) + d;
  if (floats > kMaxFloats) {
    throw_input_error({"the checkpoint's header asks for ", floats, " weights; allowed: up to ", kMaxFloats});
  }
}

// The model the header describes, its layers' tensors still empty but w_qkv's (D, D + 2 G d_k).
LmModel new_model(const Header& h) {
  LmModel m;
  m.format = "llama2c";
  m.max_len = h.seq_len;
  TransformerConfig& c = m.config;
  c.d_model = h.dim, c.heads = h.heads, c.kv_heads = h.kv_heads, c.layers = h.layers, c.d_ff = h.hidden;
  c.norm = Norm::PreRMSNorm, c.activation = Activation::SwiGLU, c.positions = Scheme::Rope, c.causal = true;
  c.vocab = h.vocab;
  m.layers.resize(static_cast<size_t>(h.layers));
  for (auto& w : m.layers) w.w_qkv.resize(h.dim, h.dim + 2 * (h.dim / h.heads * h.kv_heads));
  return m;
}

// One (rows, cols) tensor per layer, each handed to put(layer's weights, tensor) as it is read: only one
// layer's tensor is held beside the model.
template <class Put>
void each_layer(Cursor& c, LmModel& m, long long rows, long long cols, const char* name, Put put) {
  for (size_t l = 0; l < m.layers.size(); ++l) {
    put(m.layers[l], c.floats(rows, cols, std::string(name) + " of layer " + std::to_string(l)));
  }
}

// The layers' tensors in the file's order: (out, in) matrices stored transposed, the core's (in, out).
void attention_weights(Cursor& c, LmModel& m, long long d, long long kv) {
  const auto dd = static_cast<Eigen::Index>(d), kk = static_cast<Eigen::Index>(kv);  // checked sizes
  each_layer(c, m, d, d, "wq",
             [&](LayerWeightsT<float>& w, const Mat& t) { w.w_qkv.leftCols(dd) = t.transpose(); });
  each_layer(c, m, kv, d, "wk",
             [&](LayerWeightsT<float>& w, const Mat& t) { w.w_qkv.middleCols(dd, kk) = t.transpose(); });
  each_layer(c, m, kv, d, "wv",
             [&](LayerWeightsT<float>& w, const Mat& t) { w.w_qkv.rightCols(kk) = t.transpose(); });
  each_layer(c, m, d, d, "wo", [](LayerWeightsT<float>& w, const Mat& t) { w.w_o = t.transpose(); });
}
void feed_forward_weights(Cursor& c, LmModel& m, long long d, long long f) {
  each_layer(c, m, f, d, "w1", [](LayerWeightsT<float>& w, const Mat& t) { w.w1 = t.transpose(); });
  each_layer(c, m, d, f, "w2", [](LayerWeightsT<float>& w, const Mat& t) { w.w2 = t.transpose(); });
  each_layer(c, m, f, d, "w3", [](LayerWeightsT<float>& w, const Mat& t) { w.w3 = t.transpose(); });
}
void attention_norms(Cursor& c, LmModel& m, long long d) {
  each_layer(c, m, 1, d, "attention norm", [](LayerWeightsT<float>& w, Mat t) { w.ln1_gain = std::move(t); });
}
void feed_forward_norms(Cursor& c, LmModel& m, long long d) {
  each_layer(c, m, 1, d, "feed-forward norm",
             [](LayerWeightsT<float>& w, Mat t) { w.ln2_gain = std::move(t); });
}

}  // namespace

FileRange range_of(const std::string& bytes) {
  return {bytes.size(), [&bytes](void* dst, size_t at, size_t n) { std::memcpy(dst, bytes.data() + at, n); }};
}

LmModel read_llama2c(const std::string& bytes) {
  return read_llama2c(range_of(bytes));
}

LmModel read_llama2c(const FileRange& file) {
  Cursor c(file);
  Header h;
  const size_t size = file.size;
  const bool versioned = size >= 4 && [&] {
    std::uint32_t magic = 0;
    file.copy(&magic, 0, 4);
    return magic == kMagic;
  }();
  if (versioned) {
    c.u32("magic");
    const int version = c.i32("version");
    if (version != 1) {
      throw_input_error({"this is a version-", version,
                         " llama2.c export; only float32 checkpoints are read (the "
                         "legacy format and version 1): export it again with --version 1"});
    }
  }
  h.dim = c.i32("header"), h.hidden = c.i32("header"), h.layers = c.i32("header"), h.heads = c.i32("header");
  h.kv_heads = c.i32("header"), h.vocab = c.i32("header"), h.seq_len = c.i32("header");
  if (versioned) {
    h.shared = c.u8("header") != 0;
    c.seek(kVersionedHeader);
    if (size < static_cast<size_t>(kVersionedHeader))
      throw InputError("the checkpoint ends inside its header");
  } else {
    h.shared = h.vocab > 0;
    h.vocab = h.vocab < 0 && h.vocab != INT32_MIN ? -h.vocab : h.vocab;
  }
  check_header(h);
  const long long d = h.dim, f = h.hidden, kv = d / h.heads * h.kv_heads, head = d / h.heads;
  // the size the header describes, checked before anything is allocated
  const long long floats = h.vocab * d * (h.shared ? 1 : 2) +
                           h.layers * (2 * d + 2 * d * d + 2 * kv * d + 3 * d * f) + d +
                           (versioned ? 0 : 2LL * h.seq_len * (head / 2));
  const long long want = (versioned ? kVersionedHeader : 28) + 4 * floats;
  if (want != static_cast<long long>(size)) {
    throw_input_error({"the checkpoint is ", size, " bytes but its header describes ", want, " (",
                       want > static_cast<long long>(size) ? "the file ends before its last weight: it is "
                                                             "truncated or its header is wrong"
                                                           : "bytes after its last weight",
                       ")"});
  }
  LmModel m = new_model(h);
  if (versioned) {
    attention_norms(c, m, d);
    feed_forward_norms(c, m, d);
    m.final_gain = c.floats(1, d, "final norm");
    m.embedding = c.floats(h.vocab, d, "token embedding");
    attention_weights(c, m, d, kv);
    feed_forward_weights(c, m, d, f);
  } else {
    m.embedding = c.floats(h.vocab, d, "token embedding");
    attention_norms(c, m, d);
    attention_weights(c, m, d, kv);
    feed_forward_norms(c, m, d);
    feed_forward_weights(c, m, d, f);
    m.final_gain = c.floats(1, d, "final norm");
    c.skip(2LL * h.seq_len * (head / 2) * static_cast<long long>(sizeof(float)), "RoPE tables");  // unused
  }
  m.tied = h.shared;
  if (!h.shared) m.classifier = c.floats(h.vocab, d, "output layer").transpose();
  if (c.left() != 0) {
    throw_input_error({"the checkpoint has ", c.left(),
                       " bytes after its last weight: its header does not "
                       "describe this file"});
  }
  return m;
}

Llama2cTokenizer read_llama2c_tokenizer(const std::string& bytes, int vocab) {
  require_range(vocab, 1, kMaxVocab, "the vocabulary size");
  const FileRange file = range_of(bytes);
  Cursor c(file);
  Llama2cTokenizer t;
  t.max_piece_length = c.i32("tokenizer header");
  require_range(t.max_piece_length, 1, 1 << 16, "the tokenizer's longest piece");
  for (int i = 0; i < vocab; ++i) {
    const float score = c.floats(1, 1, "tokenizer's score of piece " + std::to_string(i))(0, 0);
    const int len = c.i32("tokenizer piece length");
    require_range(len, 0, t.max_piece_length, "a tokenizer piece's length");
    std::string piece(static_cast<size_t>(len), '\0');
    for (int k = 0; k < len; ++k) piece[static_cast<size_t>(k)] = static_cast<char>(c.u8("tokenizer piece"));
    t.pieces.push_back(std::move(piece));
    t.scores.push_back(score);
  }
  return t;
}

std::vector<int> llama2c_encode(const Llama2cTokenizer& tok, const std::string& text, bool bos) {
  // the ids in the order of their pieces (equal pieces by id): a piece's lookup finds its smallest id
  const auto piece = [&](int id) -> const std::string& { return tok.pieces[static_cast<size_t>(id)]; };
  std::vector<int> order(tok.pieces.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return piece(a) < piece(b) || (piece(a) == piece(b) && a < b); });
  const auto lookup = [&](const std::string& s) {
    const auto it = std::lower_bound(order.begin(), order.end(), s,
                                     [&](int id, const std::string& key) { return piece(id) < key; });
    return it != order.end() && piece(*it) == s ? *it : -1;
  };
  const int byte_base = 3, vocab = static_cast<int>(tok.pieces.size());
  std::vector<int> ids;
  if (bos) ids.push_back(1);
  if (!text.empty()) {
    const int space = lookup(" ");
    if (space < 0) throw InputError("the tokenizer has no \" \" piece to put before the text");
    ids.push_back(space);
  }
  // 1. each UTF-8 character (a lead byte and up to three continuation bytes) as its piece, else its bytes
  for (size_t i = 0; i < text.size();) {
    size_t n = 1;
    while (i + n < text.size() && n < 4 && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
    const int id = lookup(text.substr(i, n));
    if (id >= 0) {
      ids.push_back(id);
    } else {
      for (size_t k = 0; k < n; ++k) {
        const int b = byte_base + static_cast<unsigned char>(text[i + k]);
        if (b >= vocab) throw_input_error({"byte ", b - byte_base, " has no piece in this tokenizer"});
        ids.push_back(b);
      }
    }
    i += n;
  }
  // 2. merge the best-scoring pair (the first of equals) until no pair joins into a piece
  for (;;) {
    float best = -1e10f;
    int best_id = -1;
    size_t at = 0;
    for (size_t i = 0; i + 1 < ids.size(); ++i) {
      const int id =
          lookup(tok.pieces[static_cast<size_t>(ids[i])] + tok.pieces[static_cast<size_t>(ids[i + 1])]);
      if (id >= 0 && tok.scores[static_cast<size_t>(id)] > best) {
        best = tok.scores[static_cast<size_t>(id)], best_id = id, at = i;
      }
    }
    if (best_id < 0) break;
    ids[at] = best_id;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(at) + 1);
  }
  return ids;
}

std::string llama2c_piece(const Llama2cTokenizer& tok, int prev, int id) {
  if (id < 0 || id >= static_cast<int>(tok.pieces.size())) return "";
  std::string p = tok.pieces[static_cast<size_t>(id)];
  if (prev == 1 && !p.empty() && p[0] == ' ') p.erase(0, 1);
  unsigned byte = 0;
  char tail = 0;
  if (p.size() == 6 && std::sscanf(p.c_str(), "<0x%02X%c", &byte, &tail) == 2 && tail == '>') {
    return std::string(1, static_cast<char>(byte));
  }
  return p;
}

}  // namespace attn::lm
