// Hugging Face safetensors files: an 8-byte header length, a JSON header naming each tensor's dtype, shape
// and byte range, then the data. A model is one file or several shards (model-00001-of-00002.safetensors,
// ...), read as one set of tensors; each tensor is read from its file when asked for, and F32, F16 and BF16
// are widened to float as they are read.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "model_io/named_file.hpp"

namespace attn::model_io {

class SafeTensors {
 public:
  // Parses every file's header (the files must outlive this). Throws InputError in words for a short file, a
  // header that is not JSON or names a byte range past its file, an unknown dtype, a size that does not fit
  // its shape, or a tensor named in two files. Errors name the file when there are several.
  explicit SafeTensors(const std::vector<const NamedFile*>& files);
  bool has(const std::string& name) const { return tensors_.count(name) > 0; }
  // The tensor `name` as (rows, cols) floats (a 1-D tensor of n as (1, n)); InputError when it is missing, of
  // another shape, or holds a NaN or infinite value. Read 1 MB of rows at a time: only that slice is held
  // beside the result.
  Mat matrix(const std::string& name, long long rows, long long cols) const;
  // The same tensor as its transpose (cols, rows): a (out, in) weight in the core's (in, out) layout.
  Mat transposed(const std::string& name, long long rows, long long cols) const;

 private:
  struct Tensor {
    std::string dtype;             // "F32", "F16" or "BF16"
    std::vector<long long> shape;  // as in the header
    size_t file = 0;               // which of the files holds it
    size_t begin = 0, end = 0;     // its bytes in that file
  };
  void read_header(size_t file, const std::string& where);
  // The tensor `name`, checked to be (rows, cols).
  const Tensor& find(const std::string& name, long long rows, long long cols) const;
  // put(first row, (n, cols) floats) for each slice of the tensor's rows, in order.
  template <class Put>
  void read_rows(const std::string& name, long long rows, long long cols, Put put) const;
  std::vector<lm::FileRange> files_;
  std::vector<std::string> names_;  // each file's name, for errors
  std::map<std::string, Tensor> tensors_;
};

// An IEEE half (binary16) and a bfloat16 as float.
float half_to_float(unsigned short h);
float bf16_to_float(unsigned short h);

}  // namespace attn::model_io
