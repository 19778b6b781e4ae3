// The refund router's word list: sorted tokens of the data set, id 0 for anything unknown.
#include "core/train/vocab.hpp"

#include <algorithm>

#include "core/index_sort.hpp"
#include "core/tokenizer.hpp"

namespace attn::train {
namespace {

std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

}  // namespace

int Vocab::id(const std::string& token) const {
  const std::string t = lower(token);
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == t) return static_cast<int>(i);
  }
  return 0;
}

std::vector<std::string> Vocab::tokens(const std::string& text) {
  std::vector<std::string> t = tokenize(text);
  for (auto& s : t) s = lower(s);
  return t;
}

std::vector<int> Vocab::encode(const std::string& text) const {
  std::vector<int> ids;
  for (const auto& t : tokens(text)) ids.push_back(id(t));
  return ids;
}

Vocab Vocab::build(const Dataset& data) {
  std::vector<std::string> all(filler_tokens());
  for (const auto* set : {&data.train, &data.test}) {
    for (const auto& e : *set) {
      for (auto& t : tokens(e.text)) all.push_back(std::move(t));
    }
  }
  sort_strings(all);
  all.erase(std::unique(all.begin(), all.end()), all.end());
  Vocab v;
  v.words.push_back("<unk>");
  for (auto& w : all) {
    if (w != "<unk>") v.words.push_back(std::move(w));
  }
  return v;
}

}  // namespace attn::train
