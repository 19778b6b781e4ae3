// A pretrained model's files, by name, opened together: a llama2.c .bin (with its tokenizer.bin) or a
// Hugging Face folder's config.json and model.safetensors; the model and what its tokenizer makes of text.
// The CLI reads the files from disk, the page from a picker, a drop or a link: the same rules either way.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/lm/llama2c.hpp"
#include "core/lm/lm_model.hpp"

namespace attn::model_io {

struct NamedFile {
  NamedFile() = default;
  NamedFile(std::string file_name, std::string contents)
      : name(std::move(file_name)), bytes(std::move(contents)) {}
  std::string name;     // the file's name (a path's folders are ignored)
  std::string bytes;    // its contents, or:
  lm::FileRange range;  // when it has a copy function: the contents read a range at a time (a llama2.c
                        // checkpoint is read tensor by tensor; another file whole)
};

struct Checkpoint {
  lm::LmModel model;
  bool has_tokenizer = false;
  lm::Llama2cTokenizer llama2c;  // when has_tokenizer (llama2.c's tokenizer.bin)

  // The text's ids (BOS first). Throws InputError without a tokenizer.
  std::vector<int> encode(const std::string& text) const;
  // What id `id` after `prev` (-1 at the start) shows: its text, or its piece ("<0xE2>") when it is one
  // byte of a longer character. Without a tokenizer, the id's number.
  std::string piece(int prev, int id) const;
  // The ids' text (BOS dropped, bytes joined into characters); "" without a tokenizer.
  std::string text(const std::vector<int>& ids) const;
};

// Reads a Hugging Face folder's config.json and model.safetensors (hf_gpt2.hpp's read_hf_folder). A build
// that does not link the Hugging Face readers (the page: its download budget) passes none.
using HfFolderReader = lm::LmModel (*)(const std::string& config_json, const std::string& safetensors);

// What a file's name says it is.
enum class CheckpointPart { Llama2c, Llama2cTokenizer, HfConfig, Safetensors, Unknown };
CheckpointPart checkpoint_part(const std::string& name);

// The files -> the checkpoint, a Hugging Face folder read by `hf`. Throws InputError in words when a file is
// not one of a checkpoint's, a needed one is missing, two files are the same part, a reader refuses its
// file, or the files are a Hugging Face folder and `hf` is null.
Checkpoint open_checkpoint(std::vector<NamedFile> files, HfFolderReader hf);

}  // namespace attn::model_io
