// Byte-level BPE (byte_bpe.hpp): GPT-2's byte map, the tokenizer made from a vocabulary and merges, and
// encoding (added tokens, pre-tokenizer, merges by rank) and decoding.
#include "core/lm/byte_bpe.hpp"

#include <algorithm>
#include <queue>

#include "core/error.hpp"
#include "core/input_limits.hpp"

namespace attn::lm {

namespace {

constexpr std::uint32_t kMappedLimit = 256 + 68;  // the map's image is below this code point

bool maps_to_itself(int b) {
  return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
}

// (324,) the byte each code point below kMappedLimit stands for, -1 for none
const std::array<int, kMappedLimit>& code_point_to_byte() {
  static const std::array<int, kMappedLimit> table = [] {
    std::array<int, kMappedLimit> t{};
    t.fill(-1);
    for (int b = 0; b < 256; ++b) t[byte_to_code_point(static_cast<unsigned char>(b))] = b;
    return t;
  }();
  return table;
}

void append_utf8(std::string& out, std::uint32_t cp) {  // cp < 0x800 here: the map's image
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string hex_byte(unsigned char b) {
  const char* digits = "0123456789ABCDEF";
  return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

// One entry of the merge queue: the pair starting at symbol `pos`, merged lowest rank first, then leftmost.
struct Candidate {
  int rank, pos, left, right;
  bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
};

// The ids of one word's bytes, merged: the pair of adjacent symbols with the lowest-ranked merge is joined
// (the leftmost of equal ones), again and again, until no adjacent pair has a merge.
void encode_word(const ByteBpe& bpe, std::string_view word, std::vector<int>& out) {
  if (bpe.options.ignore_merges) {
    const auto whole = bpe.ids.find(std::string(word));
    if (whole != bpe.ids.end()) {
      out.push_back(whole->second);
      return;
    }
  }
  const int n = static_cast<int>(word.size());
  std::vector<int> id(n), next(n), prev(n);  // a symbol per byte; id -1 once merged into its left neighbour
  for (int i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(word[i]);
    id[i] = bpe.byte_ids[b] >= 0 ? bpe.byte_ids[b] : bpe.options.unk_id;
    if (id[i] < 0) {
      throw_input_error({"the tokenizer's vocabulary has no entry for the byte ", hex_byte(b),
                         " (and no unknown-token entry)"});
    }
    next[i] = i + 1 < n ? i + 1 : -1, prev[i] = i - 1;
  }
  const auto merge_of = [&](int left, int right) {
    return bpe.merges.find(static_cast<std::uint64_t>(left) << 32 | static_cast<std::uint32_t>(right));
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
  const auto offer = [&](int pos) {  // the pair starting at pos, when it has a merge
    if (pos < 0 || next[pos] < 0) return;
    const auto m = merge_of(id[pos], id[next[pos]]);
    if (m != bpe.merges.end()) queue.push({m->second.rank, pos, id[pos], id[next[pos]]});
  };
  for (int i = 0; i + 1 < n; ++i) offer(i);
  while (!queue.empty()) {
    const Candidate c = queue.top();
    queue.pop();
    const int r = next[c.pos];
    if (id[c.pos] != c.left || r < 0 || id[r] != c.right) continue;  // an old entry: the pair has changed
    id[c.pos] = merge_of(c.left, c.right)->second.id;
    id[r] = -1, next[c.pos] = next[r];
    if (next[r] >= 0) prev[next[r]] = c.pos;
    offer(prev[c.pos]);
    offer(c.pos);
  }
  for (int i = n > 0 ? 0 : -1; i >= 0; i = next[i]) out.push_back(id[i]);
}

// A stretch of text with no added token: the pre-tokenizer's words, each encoded.
void encode_text(const ByteBpe& bpe, std::string_view text, Span span, std::vector<int>& out) {
  std::vector<Span> pieces, words;
  digit_split(text, span, bpe.options.digits, pieces);
  std::string prefixed;
  for (const Span& p : pieces) {
    std::string_view view = text;
    Span s = p;
    if (bpe.options.add_prefix_space && text[p.begin] != ' ') {
      prefixed = " ";
      prefixed.append(text.substr(p.begin, p.end - p.begin));
      view = prefixed, s = {0, prefixed.size()};
    }
    words.clear();
    if (bpe.options.gpt2_split) {
      gpt2_split(view, s, words);
    } else {
      words.push_back(s);
    }
    for (const Span& w : words) encode_word(bpe, view.substr(w.begin, w.end - w.begin), out);
  }
}

}  // namespace

std::uint32_t byte_to_code_point(unsigned char b) {
  if (maps_to_itself(b)) return b;
  int n = 0;  // how many bytes below b are not mapped to themselves
  for (int k = 0; k < b; ++k) n += maps_to_itself(k) ? 0 : 1;
  return 256 + static_cast<std::uint32_t>(n);
}

bool token_to_bytes(const std::string& token, std::string& bytes) {
  bytes.clear();
  const auto& inverse = code_point_to_byte();
  for (std::size_t i = 0; i < token.size();) {
    const auto b0 = static_cast<unsigned char>(token[i]);
    std::uint32_t cp = b0;
    std::size_t len = 1;
    if (b0 >= 0xC2 && b0 <= 0xDF && i + 1 < token.size() &&
        (static_cast<unsigned char>(token[i + 1]) & 0xC0) == 0x80) {
      cp = (b0 & 0x1Fu) << 6 | (static_cast<unsigned char>(token[i + 1]) & 0x3Fu), len = 2;
    } else if (b0 >= 0x80) {
      return false;  // past U+07FF or invalid: not in the map's image
    }
    if (cp >= kMappedLimit || inverse[cp] < 0) return false;
    bytes += static_cast<char>(inverse[cp]);
    i += len;
  }
  return true;
}

std::string bytes_to_token(const std::string& bytes) {
  std::string out;
  for (const char c : bytes) append_utf8(out, byte_to_code_point(static_cast<unsigned char>(c)));
  return out;
}

ByteBpe make_byte_bpe(const std::vector<std::string>& vocab,
                      const std::vector<std::pair<std::string, std::string>>& merges,
                      ByteBpeOptions options) {
  if (vocab.size() > kMaxBpeVocab || merges.size() > kMaxBpeVocab) {
    throw_input_error({"the tokenizer has ", static_cast<long long>(vocab.size()), " vocabulary entries and ",
                       static_cast<long long>(merges.size()), " merges; at most ",
                       static_cast<long long>(kMaxBpeVocab), " of each are allowed"});
  }
  ByteBpe bpe;
  const int v = static_cast<int>(vocab.size());
  bpe.pieces.resize(vocab.size());
  bpe.known.assign(vocab.size(), false);
  std::string bytes;
  for (int i = 0; i < v; ++i) {
    if (vocab[i].empty()) continue;
    bpe.known[i] = true;
    if (token_to_bytes(vocab[i], bytes)) {
      bpe.pieces[i] = bytes;
      bpe.ids.emplace(bytes, i);
    } else {
      bpe.pieces[i] = vocab[i];
    }
  }
  for (int b = 0; b < 256; ++b) {
    const auto it = bpe.ids.find(std::string(1, static_cast<char>(b)));
    bpe.byte_ids[b] = it == bpe.ids.end() ? -1 : it->second;
  }
  std::string left, right;
  for (std::size_t r = 0; r < merges.size(); ++r) {
    const auto& [a, b] = merges[r];
    const bool mapped = token_to_bytes(a, left) && token_to_bytes(b, right);
    const auto l = bpe.ids.find(left), rt = bpe.ids.find(right), joined = bpe.ids.find(left + right);
    if (!mapped || l == bpe.ids.end() || rt == bpe.ids.end() || joined == bpe.ids.end()) {
      throw_input_error(
          {"merge ", static_cast<long long>(r + 1), " ('", one_line(a, 60), " ", one_line(b, 60),
           "') joins tokens that are not all in the vocabulary (each side and their join must be)"});
    }
    const std::uint64_t key =
        static_cast<std::uint64_t>(l->second) << 32 | static_cast<std::uint32_t>(rt->second);
    bpe.merges.emplace(key, ByteBpe::Merge{static_cast<int>(r), joined->second});  // the first of duplicates
  }
  if (options.unk_id < -1 || options.unk_id >= v) {
    throw_input_error({"the unknown token's id ", options.unk_id, " is outside the vocabulary of ", v});
  }
  for (const AddedToken& t : options.added) {
    if (t.id < 0 || t.id >= v) {
      throw_input_error(
          {"the added token '", one_line(t.text, 60), "' has id ", t.id, ", outside the vocabulary of ", v});
    }
    if (t.text.empty()) throw_input_error({"an added token (id ", t.id, ") is empty"});
    bpe.pieces[t.id] = t.text, bpe.known[t.id] = true;
  }
  std::stable_sort(options.added.begin(), options.added.end(),
                   [](const AddedToken& a, const AddedToken& b) { return a.text.size() > b.text.size(); });
  for (std::size_t k = 0; k < options.added.size(); ++k) {
    bpe.added_by_first_byte[static_cast<unsigned char>(options.added[k].text[0])].push_back(
        static_cast<int>(k));
  }
  bpe.options = std::move(options);
  return bpe;
}

std::vector<int> encode(const ByteBpe& bpe, const std::string& text) {
  if (text.size() > kMaxBpeTextBytes) {
    throw_input_error({"the text is ", static_cast<long long>(text.size()),
                       " bytes; the tokenizer takes at most ", static_cast<long long>(kMaxBpeTextBytes)});
  }
  std::vector<int> out;
  std::size_t start = 0;  // the start of the stretch not yet encoded
  for (std::size_t i = 0; i < text.size();) {
    const AddedToken* found = nullptr;
    for (const int k : bpe.added_by_first_byte[static_cast<unsigned char>(text[i])]) {
      const AddedToken& t = bpe.options.added[k];
      if (text.compare(i, t.text.size(), t.text) == 0) {
        found = &t;
        break;
      }
    }
    if (!found) {
      ++i;
      continue;
    }
    const std::size_t before = found->lstrip ? space_run_begin(text, start, i) : i;
    const std::size_t after =
        found->rstrip ? space_run_end(text, i + found->text.size(), text.size()) : i + found->text.size();
    encode_text(bpe, text, {start, before}, out);
    out.push_back(found->id);
    start = i = after;
  }
  encode_text(bpe, text, {start, text.size()}, out);
  return out;
}

const std::string& decode_piece(const ByteBpe& bpe, int id) {
  if (id < 0 || id >= static_cast<int>(bpe.pieces.size()) || !bpe.known[id]) {
    throw_input_error({"token id ", id, " is not in the tokenizer's vocabulary of ",
                       static_cast<long long>(bpe.pieces.size())});
  }
  return bpe.pieces[id];
}

std::string decode(const ByteBpe& bpe, const std::vector<int>& ids) {
  std::string out;
  for (const int id : ids) out += decode_piece(bpe, id);
  return out;
}

}  // namespace attn::lm
