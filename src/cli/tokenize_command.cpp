// attention_cli tokenize (tokenize_command.hpp): the tokenizer folder read, the text encoded, ids and pieces.
#include "tokenize_command.hpp"

#include <filesystem>

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
  const std::filesystem::path dir(folder);
  if (std::filesystem::exists(dir / "tokenizer.json", ec)) {
    return model_io::read_tokenizer_json(
        read_file_capped((dir / "tokenizer.json").string(), "tokenizer.json"));
  }
  if (!std::filesystem::exists(dir / "vocab.json", ec) || !std::filesystem::exists(dir / "merges.txt", ec)) {
    throw_input_error({"the folder '", one_line(folder, 200),
                       "' has neither tokenizer.json nor both vocab.json and merges.txt"});
  }
  return model_io::read_gpt2_tokenizer(read_file_capped((dir / "vocab.json").string(), "vocab.json"),
                                       read_file_capped((dir / "merges.txt").string(), "merges.txt"));
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
