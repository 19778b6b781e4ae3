// Reads safetensors headers (one file or a model's shards) and each tensor from its file, widening F32 /
// F16 / BF16 to float matrices.
#include "model_io/safetensors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "model_io/model_json.hpp"

namespace attn::model_io {
namespace {

constexpr std::uint64_t kMaxHeader = 100u << 20;  // 100 MB of JSON header
constexpr size_t kSliceBytes = size_t{1} << 20;   // a tensor is read 1 MB of rows at a time

size_t dtype_size(const std::string& dtype) {
  if (dtype == "F32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  throw_input_error({"a tensor has dtype '", one_line(dtype, 40), "'; read: F32, F16 and BF16"});
}

}  // namespace

float half_to_float(unsigned short h) {
  const unsigned sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  float v = 0;
  if (exponent == 0) {
    v = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal: mantissa x 2^-24
  } else if (exponent == 31) {
    v = mantissa ? std::nanf("") : INFINITY;
  } else {
    v = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  return sign ? -v : v;
}

float bf16_to_float(unsigned short h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float v = 0;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

SafeTensors::SafeTensors(const std::vector<const NamedFile*>& files) {
  for (const NamedFile* f : files) {
    files_.push_back(f->as_range());
    names_.push_back(one_line(f->name, 80));
    read_header(files_.size() - 1, files.size() > 1 ? "the safetensors file '" + names_.back() + "'"
                                                    : std::string("the safetensors file"));
  }
}

void SafeTensors::read_header(size_t file, const std::string& where) {
  const lm::FileRange& f = files_[file];
  if (f.size < 8) throw InputError(where + " is shorter than its 8-byte header length");
  std::uint64_t n = 0;
  f.copy(&n, 0, 8);
  if (n > kMaxHeader || n > f.size - 8) {
    throw_input_error(
        {where, "'s header says it is ", n, " bytes; the file has ", f.size - 8, " after its length"});
  }
  const size_t data = 8 + static_cast<size_t>(n);
  std::string text(static_cast<size_t>(n), '\0');
  if (n > 0) f.copy(text.data(), 8, text.size());
  require_json_depth(text, "the safetensors header");
  const nlohmann::json header = parse_json(text);
  if (!header.is_object()) throw InputError(where + "'s header is not a JSON object");
  const size_t data_size = f.size - data;
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string tensor = "the tensor '" + one_line(name, 80) + "' in " + where;
    if (!t.is_object() || !t.contains("dtype") || !t.contains("shape") || !t.contains("data_offsets") ||
        !t["dtype"].is_string() || !t["shape"].is_array() || !t["data_offsets"].is_array() ||
        t["data_offsets"].size() != 2) {
      throw InputError(tensor + " lacks dtype, shape or data_offsets");
    }
    Tensor s;
    s.file = file;
    s.dtype = t["dtype"].get<std::string>();
    long long count = 1;
    for (const auto& d : t["shape"]) {
      if (!d.is_number_integer() || d.get<long long>() < 0 || d.get<long long>() > (1LL << 40)) {
        throw InputError(tensor + " has a bad shape");
      }
      s.shape.push_back(d.get<long long>());
      count *= std::max(1LL, s.shape.back());
      if (count > (1LL << 40)) throw InputError(tensor + " is too large");
    }
    for (const auto& o : t["data_offsets"]) {
      if (!o.is_number_unsigned()) throw InputError(tensor + " has bad offsets");
    }
    const size_t begin = t["data_offsets"][0].get<size_t>(), end = t["data_offsets"][1].get<size_t>();
    if (begin > end || end > data_size) {
      throw_input_error({tensor, " lies past the end of the file (bytes ", begin, " to ", end, " of ",
                         data_size, "): it is truncated"});
    }
    if (static_cast<unsigned long long>(count) * dtype_size(s.dtype) != end - begin) {
      throw_input_error(
          {tensor, " has ", end - begin, " bytes for its shape of ", count, " ", s.dtype, " values"});
    }
    s.begin = data + begin, s.end = data + end;
    const auto [it, added] = tensors_.emplace(name, std::move(s));
    if (!added) {
      throw InputError("the tensor '" + one_line(name, 80) + "' is in two files: '" +
                       names_[it->second.file] + "' and '" + names_[file] + "'");
    }
  }
}

const SafeTensors::Tensor& SafeTensors::find(const std::string& name, long long rows, long long cols) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw_input_error({"the checkpoint has no tensor '", name, "'"});
  const Tensor& s = it->second;
  const bool fits = (s.shape.size() == 2 && s.shape[0] == rows && s.shape[1] == cols) ||
                    (s.shape.size() == 1 && rows == 1 && s.shape[0] == cols);
  if (!fits) {
    std::string shape;
    for (long long d : s.shape) shape += (shape.empty() ? "" : " x ") + std::to_string(d);
    throw_input_error({"the tensor '", name, "' is ", shape.empty() ? "a scalar" : shape,
                       "; the config needs ", rows, " x ", cols});
  }
  return s;
}

template <class Put>
void SafeTensors::read_rows(const std::string& name, long long rows, long long cols, Put put) const {
  const Tensor& s = find(name, rows, cols);
  const lm::FileRange& f = files_[s.file];
  const size_t size = s.dtype == "F32" ? 4 : 2, row_bytes = static_cast<size_t>(cols) * size;
  const long long step = std::max<long long>(1, static_cast<long long>(kSliceBytes / row_bytes));
  Mat slice;                           // (n, cols) floats
  std::vector<unsigned short> stored;  // (n * cols,) the 16-bit values as stored
  for (long long r = 0; r < rows; r += step) {
    const long long n = std::min(step, rows - r);
    slice.resize(n, cols);
    const size_t at = s.begin + static_cast<size_t>(r) * row_bytes, count = static_cast<size_t>(n * cols);
    if (size == 4) {
      f.copy(slice.data(), at, count * 4);
    } else {
      stored.resize(count);
      f.copy(stored.data(), at, count * 2);
      const bool half = s.dtype == "F16";
      for (size_t i = 0; i < count; ++i)
        slice.data()[i] = half ? half_to_float(stored[i]) : bf16_to_float(stored[i]);
    }
    if (!slice.allFinite()) throw_input_error({"the tensor '", name, "' holds a NaN or infinite value"});
    put(static_cast<Eigen::Index>(r), slice);
  }
}

Mat SafeTensors::matrix(const std::string& name, long long rows, long long cols) const {
  Mat m(rows, cols);
  read_rows(name, rows, cols,
            [&](Eigen::Index r, const Mat& slice) { m.middleRows(r, slice.rows()) = slice; });
  return m;
}

Mat SafeTensors::transposed(const std::string& name, long long rows, long long cols) const {
  Mat m(cols, rows);
  read_rows(name, rows, cols,
            [&](Eigen::Index r, const Mat& slice) { m.middleCols(r, slice.rows()) = slice.transpose(); });
  return m;
}

}  // namespace attn::model_io
