// A file given by its name: its bytes in memory, or a function that copies any range of it (a picked file
// in the page's worker, a file on disk in the CLI), so a large file is read a tensor at a time.
#pragma once

#include <string>
#include <utility>

#include "core/lm/llama2c.hpp"

namespace attn::model_io {

// A file name without its folders ("models/gpt2/config.json" -> "config.json").
inline std::string base_name(const std::string& name) {
  const size_t slash = name.find_last_of("/\\");
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

// Whether `s` ends with `end` (a file name's extension).
inline bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

struct NamedFile {
  NamedFile() = default;
  NamedFile(std::string file_name, std::string contents)
      : name(std::move(file_name)), bytes(std::move(contents)) {}
  NamedFile(std::string file_name, lm::FileRange r) : name(std::move(file_name)), range(std::move(r)) {}
  std::string name;     // the file's name (a path's folders are ignored)
  std::string bytes;    // its contents, or:
  lm::FileRange range;  // when it has a copy function: the contents read a range at a time

  // The file as a range: `range`, or one over `bytes` (this file must outlive it).
  lm::FileRange as_range() const { return range.copy ? range : lm::range_of(bytes); }
  // Reads a file given as a range into `bytes` (`range` is then empty); one in memory stays as it is.
  void read_whole() {
    if (!range.copy) return;
    bytes.resize(range.size);
    if (range.size > 0) range.copy(bytes.data(), 0, range.size);
    range = {};
  }
};

}  // namespace attn::model_io
