// Hugging Face safetensors files: an 8-byte header length, a JSON header naming each tensor's dtype, shape
// and byte range, then the data. F32, F16 and BF16 tensors are widened to float as they are read.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace attn::model_io {

struct SafeTensor {
  std::string dtype;             // "F32", "F16" or "BF16"
  std::vector<long long> shape;  // as in the header
  size_t begin = 0, end = 0;     // byte range in the data, after the header
};

class SafeTensors {
 public:
  // Parses the header of `bytes` (kept by reference: it must outlive this). Throws InputError in words for a
  // short file, a header that is not JSON or names a byte range past the file, an unknown dtype or a size
  // that does not fit its shape.
  explicit SafeTensors(const std::string& bytes);
  bool has(const std::string& name) const { return tensors_.count(name) > 0; }
  // The tensor `name` as (rows, cols) floats (a 1-D tensor of n as (1, n)); InputError when it is missing, of
  // another shape, or holds a NaN or infinite value.
  Mat matrix(const std::string& name, long long rows, long long cols) const;

 private:
  const std::string& bytes_;
  size_t data_ = 0;  // where the data starts
  std::map<std::string, SafeTensor> tensors_;
};

// An IEEE half (binary16) and a bfloat16 as float.
float half_to_float(unsigned short h);
float bf16_to_float(unsigned short h);

}  // namespace attn::model_io
