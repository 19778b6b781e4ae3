// A pretrained model's files, by name, opened together: a llama2.c .bin (with its tokenizer.bin) or a
// Hugging Face folder (hf_folder.hpp); the model and what its tokenizer makes of text. The CLI reads the
// files from disk, the page from a picker, a drop or a link: the same rules either way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/lm/lm_model.hpp"
#include "model_io/named_file.hpp"

namespace attn::model_io {

// A checkpoint's tokenizer: llama2.c's tokenizer.bin, or a Hugging Face folder's byte-level BPE.
class TextCodec {
 public:
  virtual ~TextCodec() = default;
  // The text's ids (llama2.c: BOS first).
  virtual std::vector<int> encode(const std::string& text) const = 0;
  // What id `id` after `prev` (-1 at the start) shows.
  virtual std::string piece(int prev, int id) const = 0;
  // The ids' text.
  virtual std::string text(const std::vector<int>& ids) const = 0;
};

struct Checkpoint {
  lm::LmModel model;
  std::shared_ptr<const TextCodec> tokenizer;  // null when none came with the model

  bool has_tokenizer() const { return tokenizer != nullptr; }
  // The text's ids. Throws InputError without a tokenizer.
  std::vector<int> encode(const std::string& text) const;
  // What id `id` after `prev` (-1 at the start) shows: its text, or its piece ("<0xE2>") when it is one
  // byte of a longer character. Without a tokenizer, the id's number.
  std::string piece(int prev, int id) const;
  // The ids' text (llama2.c: BOS dropped, bytes joined into characters); "" without a tokenizer.
  std::string text(const std::vector<int>& ids) const;
};

// What a file's name says it is.
enum class CheckpointPart { Llama2c, Llama2cTokenizer, HfConfig, Safetensors, Unknown };
CheckpointPart checkpoint_part(const std::string& name);

// The files -> the checkpoint. Files among which is a config.json or a .safetensors file are a Hugging Face
// folder (hf_folder.hpp's read_hf_folder). Throws InputError in words when a file is not one of a
// checkpoint's, a needed one is missing, two files are the same part or a reader refuses its file.
Checkpoint open_checkpoint(std::vector<NamedFile> files);

}  // namespace attn::model_io
