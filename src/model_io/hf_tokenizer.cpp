// Reading GPT-2's vocab.json + merges.txt and Hugging Face's tokenizer.json (hf_tokenizer.hpp).
#include "model_io/hf_tokenizer.hpp"

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_json.hpp"

namespace attn::model_io {

namespace {

using nlohmann::json;
using Merges = std::vector<std::pair<std::string, std::string>>;

// GPT-2's pattern as tokenizer.json's Split writes it.
constexpr const char* kGpt2Pattern =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

json parse_object(const std::string& text, const char* what) {
  require_json_depth(text, what);
  json j = parse_json(text);
  if (!j.is_object()) throw_input_error({what, " is not a JSON object"});
  return j;
}

// One token -> id entry into vocab (ids 0 .. kMaxBpeVocab - 1, each given once).
void place(std::vector<std::string>& vocab, const std::string& token, const json& id, const char* what) {
  if (!id.is_number_integer() || id.get<long long>() < 0 ||
      id.get<long long>() >= static_cast<long long>(lm::kMaxBpeVocab)) {
    throw_input_error({what, " gives the token '", one_line(token, 60), "' the id ", one_line(id.dump(), 40),
                       "; ids are whole numbers from 0 to ", static_cast<long long>(lm::kMaxBpeVocab) - 1});
  }
  if (token.empty()) throw_input_error({what, " has an empty token"});
  const auto i = id.get<std::size_t>();
  if (i >= vocab.size()) vocab.resize(i + 1);
  if (!vocab[i].empty() && vocab[i] != token) {
    throw_input_error({what, " gives the id ", static_cast<long long>(i), " to both '",
                       one_line(vocab[i], 60), "' and '", one_line(token, 60), "'"});
  }
  vocab[i] = token;
}

std::vector<std::string> read_vocab(const json& j, const char* what) {
  if (!j.is_object()) throw_input_error({what, " is not an object of tokens and their ids"});
  if (j.size() > lm::kMaxBpeVocab) {
    throw_input_error({what, " has ", static_cast<long long>(j.size()), " tokens; at most ",
                       static_cast<long long>(lm::kMaxBpeVocab), " are allowed"});
  }
  std::vector<std::string> vocab;
  for (const auto& [token, id] : j.items()) place(vocab, token, id, what);
  return vocab;
}

// "left right" -> the pair; false unless it is two non-empty tokens around one space.
bool split_merge(std::string_view line, Merges& out) {
  const std::size_t space = line.find(' ');
  if (space == 0 || space == std::string_view::npos || space + 1 == line.size() ||
      line.find(' ', space + 1) != std::string_view::npos) {
    return false;
  }
  out.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
  return true;
}

bool flag(const json& j, const char* key, bool fallback) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_boolean()) throw_input_error({"tokenizer.json's ", key, " is not true or false"});
  return j[key].get<bool>();
}

std::string type_of(const json& step) {
  return step.is_object() && step.contains("type") && step["type"].is_string()
             ? step["type"].get<std::string>()
             : "";
}

// tokenizer.json's pre_tokenizer -> the options: [Digits], [Split by GPT-2's pattern], ByteLevel, in order.
void read_pre_tokenizer(const json& pre, lm::ByteBpeOptions& o) {
  std::vector<json> steps;
  if (type_of(pre) == "Sequence" && pre.contains("pretokenizers") && pre["pretokenizers"].is_array()) {
    for (const json& s : pre["pretokenizers"]) steps.push_back(s);
  } else if (!pre.is_null()) {
    steps.push_back(pre);
  }
  bool byte_level = false;
  o.gpt2_split = false;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const json& s = steps[k];
    const std::string type = type_of(s);
    if (byte_level)
      throw_input_error({"tokenizer.json's pre-tokenizer has a ", type, " step after ByteLevel"});
    if (type == "Digits" && k == 0) {
      o.digits = flag(s, "individual_digits", false) ? lm::DigitSplit::kIndividual : lm::DigitSplit::kRuns;
    } else if (type == "Split") {
      const bool gpt2 = s.contains("pattern") && s["pattern"].is_object() && s["pattern"].contains("Regex") &&
                        s["pattern"]["Regex"] == kGpt2Pattern;
      const bool isolated = s.contains("behavior") && s["behavior"] == "Isolated";
      if (!gpt2 || !isolated || flag(s, "invert", false)) {
        throw_input_error({"tokenizer.json splits the text with a pattern this program does not know (",
                           one_line(s.contains("pattern") ? s["pattern"].dump() : "none", 120),
                           "): only GPT-2's pattern, isolated, is read"});
      }
      o.gpt2_split = true;
    } else if (type == "ByteLevel") {
      byte_level = true;
      o.add_prefix_space = flag(s, "add_prefix_space", false);
      o.gpt2_split = o.gpt2_split || flag(s, "use_regex", true);
    } else {
      throw_input_error({"tokenizer.json's pre-tokenizer has a step this program does not read ('",
                         one_line(type.empty() ? s.dump() : type, 80),
                         "'): it reads Digits, a Split by GPT-2's pattern and ByteLevel"});
    }
  }
  if (!byte_level) {
    throw_input_error(
        {"tokenizer.json has no ByteLevel pre-tokenizer: only byte-level BPE tokenizers (GPT-2's "
         "kind) are read"});
  }
}

// added_tokens -> the options' added tokens, each placed in vocab under its id.
void read_added(const json& added, std::vector<std::string>& vocab, lm::ByteBpeOptions& o) {
  if (added.is_null()) return;
  if (!added.is_array()) throw_input_error({"tokenizer.json's added_tokens is not a list"});
  if (added.size() > lm::kMaxBpeVocab) throw_input_error({"tokenizer.json has too many added tokens"});
  for (const json& t : added) {
    if (!t.is_object() || !t.contains("content") || !t["content"].is_string() || !t.contains("id")) {
      throw_input_error({"an entry of tokenizer.json's added_tokens has no content or id"});
    }
    const std::string content = t["content"].get<std::string>();
    if (flag(t, "single_word", false)) {
      throw_input_error({"the added token '", one_line(content, 60),
                         "' matches single words only (single_word), which this program does not read"});
    }
    // the vocabulary spells a byte-level token through the byte map: compare in that spelling
    std::string bytes;
    const std::size_t slot = t["id"].is_number_unsigned() ? t["id"].get<std::size_t>() : vocab.size();
    const bool same = slot < vocab.size() && lm::token_to_bytes(vocab[slot], bytes) && bytes == content;
    if (!same) place(vocab, content, t["id"], "tokenizer.json's added_tokens");
    o.added.push_back({content, t["id"].get<int>(), flag(t, "lstrip", false), flag(t, "rstrip", false)});
  }
}

}  // namespace

lm::ByteBpe read_gpt2_tokenizer(const std::string& vocab_json, const std::string& merges_txt) {
  const std::vector<std::string> vocab = read_vocab(parse_object(vocab_json, "vocab.json"), "vocab.json");
  Merges merges;
  std::size_t line_no = 0;
  for (std::size_t at = 0; at < merges_txt.size();) {
    std::size_t end = merges_txt.find('\n', at);
    if (end == std::string::npos) end = merges_txt.size();
    std::string_view line(merges_txt.data() + at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at = end + 1, ++line_no;
    if (line.empty() || (line_no == 1 && line.rfind("#version", 0) == 0)) continue;
    if (merges.size() >= lm::kMaxBpeVocab) throw_input_error({"merges.txt has too many lines"});
    if (!split_merge(line, merges)) {
      throw_input_error({"merges.txt line ", static_cast<long long>(line_no), " ('", one_line(line, 60),
                         "') is not two tokens separated by one space"});
    }
  }
  return lm::make_byte_bpe(vocab, merges, {});
}

lm::ByteBpe read_tokenizer_json(const std::string& tokenizer_json) {
  const json j = parse_object(tokenizer_json, "tokenizer.json");
  if (!j.contains("model") || !j["model"].is_object()) throw_input_error({"tokenizer.json has no model"});
  const json& m = j["model"];
  const std::string type = type_of(m).empty() && m.contains("merges") ? "BPE" : type_of(m);
  if (type != "BPE") {
    throw_input_error({"tokenizer.json's model is '", one_line(type, 40),
                       "'; only BPE (byte-level, GPT-2's kind) is read"});
  }
  if (j.contains("normalizer") && !j["normalizer"].is_null()) {
    throw_input_error({"tokenizer.json has a normalizer (", one_line(type_of(j["normalizer"]), 40),
                       "), which this program does not apply"});
  }
  if (m.contains("dropout") && !m["dropout"].is_null() && m["dropout"] != 0) {
    throw_input_error({"tokenizer.json's BPE has dropout (random merges), which this program does not do"});
  }
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    if (m.contains(key) && !m[key].is_null() && m[key] != "") {
      throw_input_error({"tokenizer.json's BPE has a ", key, ", which byte-level BPE does not use"});
    }
  }
  std::vector<std::string> vocab =
      read_vocab(m.contains("vocab") ? m["vocab"] : json(), "tokenizer.json's vocab");
  if (!m.contains("merges") || !m["merges"].is_array())
    throw_input_error({"tokenizer.json has no list of merges"});
  if (m["merges"].size() > lm::kMaxBpeVocab) throw_input_error({"tokenizer.json has too many merges"});
  Merges merges;
  for (const json& e : m["merges"]) {
    const bool ok = e.is_string() ? split_merge(e.get_ref<const std::string&>(), merges)
                    : e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string()
                        ? (merges.emplace_back(e[0].get<std::string>(), e[1].get<std::string>()), true)
                        : false;
    if (!ok) {
      throw_input_error({"tokenizer.json's merge ", static_cast<long long>(merges.size() + 1), " (",
                         one_line(e.dump(), 60), ") is not two tokens"});
    }
  }
  lm::ByteBpeOptions o;
  o.ignore_merges = flag(m, "ignore_merges", false);
  read_pre_tokenizer(j.contains("pre_tokenizer") ? j["pre_tokenizer"] : json(), o);
  read_added(j.contains("added_tokens") ? j["added_tokens"] : json(), vocab, o);
  if (m.contains("unk_token") && m["unk_token"].is_string()) {
    const std::string& unk = m["unk_token"].get_ref<const std::string&>();
    for (std::size_t i = 0; i < vocab.size() && o.unk_id < 0; ++i) {
      if (vocab[i] == unk) o.unk_id = static_cast<int>(i);
    }
  }
  return lm::make_byte_bpe(vocab, merges, std::move(o));
}

std::optional<lm::ByteBpe> read_hf_tokenizer(const std::string* tokenizer_json, const std::string* vocab_json,
                                             const std::string* merges_txt) {
  if (tokenizer_json) return read_tokenizer_json(*tokenizer_json);
  if (vocab_json && merges_txt) return read_gpt2_tokenizer(*vocab_json, *merges_txt);
  if (vocab_json || merges_txt) {
    throw InputError(vocab_json ? "vocab.json came without merges.txt: GPT-2's tokenizer needs both"
                                : "merges.txt came without vocab.json: GPT-2's tokenizer needs both");
  }
  return std::nullopt;
}

}  // namespace attn::model_io
