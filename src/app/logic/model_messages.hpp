// A model file read in the page's compute worker, and the worker's answer as bytes
// (app/logic/message_bytes.hpp): the model it built with the page's own reader (config, vocab, labels,
// training info and every weight), or the reader's words for why it could not. The answer starts with its
// tag and the page's number for the load (u32 each), so the page's script knows whose load it answers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/logic/message_bytes.hpp"
#include "model_io/model_json.hpp"

namespace app {

inline constexpr std::uint32_t kModelAnswerTag = 0x41444f4d;  // "MODA"

struct ModelAnswer {
  std::uint32_t load = 0;  // the page's number for the load it answers
  std::string error;       // why the file was refused, or "" and `model`
  attn::model_io::LoadedModel model;
};

// A model's parts, as both answers and jobs carry them: its config and every weight; a word list.
void put_model(Writer& w, const attn::train::Model& model);
// The same as `head` (its bytes so far, then the config) and the weights where they lie.
std::vector<Part> model_parts(Writer& head, const attn::train::Model& model);
attn::train::Model get_model(Reader& r);  // the shapes are those of the config read
void put_words(Writer& w, const std::vector<std::string>& words);
std::vector<std::string> get_words(Reader& r);

Bytes encode(const ModelAnswer& answer);
// The model an answer carries. Throws InputError with the answer's error, or when the bytes are malformed.
attn::model_io::LoadedModel decode_model_answer(Reader& r);  // r: "model answer"

// The worker's side: the model file in `bytes` (total_bytes long) read and answered as load `load`.
ModelAnswer read_model_file(attn::model_io::ByteSource& bytes, long long total_bytes, std::uint32_t load);

}  // namespace app
