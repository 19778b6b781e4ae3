// attention_cli tokenize (tokenize_command.hpp): the tokenizer folder read, the text encoded, ids and pieces.
#include "tokenize_command.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/hf_tokenizer.hpp"

namespace attn::cli {

lm::ByteBpe read_tokenizer_folder(const std::string& folder) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    throw_input_error({"the tokenizer '", one_line(folder, 200),
                       "' is not a folder (it should hold tokenizer.json, or vocab.json and merges.txt)"});
  }
  // the texts of the tokenizer files the folder has
  std::optional<std::string> files[3];
  const char* const names[3] = {"tokenizer.json", "vocab.json", "merges.txt"};
  for (int i = 0; i < 3; ++i) {
    const std::filesystem::path path = std::filesystem::path(folder) / names[i];
    if (std::filesystem::exists(path, ec)) files[i] = read_file_capped(path.string(), names[i]);
  }
  const auto text = [&](int i) { return files[i] ? &*files[i] : nullptr; };
  std::optional<lm::ByteBpe> bpe = model_io::read_hf_tokenizer(text(0), text(1), text(2));
  if (!bpe) {
    throw_input_error({"the folder '", one_line(folder, 200),
                       "' has neither tokenizer.json nor both vocab.json and merges.txt"});
  }
  return std::move(*bpe);
}

json run_tokenize(const TokenizeOptions& o) {
  if (!o.text_given && o.text_file.empty()) throw InputError("give the text with --text or --text-file");
  const lm::ByteBpe bpe = read_tokenizer_folder(o.tokenizer);
  const std::string text = o.text_given ? o.text : read_file_capped(o.text_file, "the text file");
  const std::vector<int> ids = lm::encode(bpe, text);
  require_printable(static_cast<long long>(ids.size()), "the token ids");
  json pieces = json::array();
  for (const int id : ids) pieces.push_back(lm::decode_piece(bpe, id));
  return {{"ids", ids}, {"pieces", std::move(pieces)}};
}

}  // namespace attn::cli
