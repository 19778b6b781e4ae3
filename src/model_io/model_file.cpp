// Model files on disk (desktop app, CLI, tests): kept apart from model_json.cpp so the browser build, which
// has no file system, links none of this.
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_json.hpp"

namespace attn::model_io {

using nlohmann::json;

void save_model_file(const std::string& path, const train::Model& model, const train::Vocab& vocab,
                     const std::vector<std::string>& labels, const json& training_info) {
  const std::string text = model_to_json(model, vocab, labels, training_info);
  std::ofstream f(path, std::ios::binary);
  if (!f) throw InputError("cannot write the model file '" + path + "'");
  f << text << "\n";
  f.close();
  if (!f) throw InputError("cannot write the model file '" + path + "' (disk full?)");
}

LoadedModel load_model_file(const std::string& path) {
  const std::string text = read_file_capped(path, "the model file");
  try {
    return model_from_json(text);
  } catch (const InputError& e) {
    std::string msg = e.what();
    const std::string prefix = "model file: ";
    if (msg.compare(0, prefix.size(), prefix) == 0) msg = msg.substr(prefix.size());
    throw InputError("model file '" + path + "': " + msg);
  }
}

}  // namespace attn::model_io
