// Reads safetensors headers and widens F32 / F16 / BF16 tensors to float matrices.
#include "model_io/safetensors.hpp"

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

SafeTensors::SafeTensors(const std::string& bytes) : bytes_(bytes) {
  if (bytes.size() < 8) throw InputError("the safetensors file is shorter than its 8-byte header length");
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  if (n > kMaxHeader || n > bytes.size() - 8) {
    throw_input_error({"the safetensors header says it is ", n, " bytes; the file has ", bytes.size() - 8,
                       " after its length"});
  }
  data_ = 8 + static_cast<size_t>(n);
  const std::string text = bytes.substr(8, static_cast<size_t>(n));
  require_json_depth(text, "the safetensors header");
  const nlohmann::json header = parse_json(text);
  if (!header.is_object()) throw InputError("the safetensors header is not a JSON object");
  const size_t data_size = bytes.size() - data_;
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    if (!t.is_object() || !t.contains("dtype") || !t.contains("shape") || !t.contains("data_offsets") ||
        !t["dtype"].is_string() || !t["shape"].is_array() || !t["data_offsets"].is_array() ||
        t["data_offsets"].size() != 2) {
      throw_input_error(
          {"the safetensors entry '", one_line(name, 80), "' lacks dtype, shape or data_offsets"});
    }
    SafeTensor s;
    s.dtype = t["dtype"].get<std::string>();
    long long count = 1;
    for (const auto& d : t["shape"]) {
      if (!d.is_number_integer() || d.get<long long>() < 0 || d.get<long long>() > (1LL << 40)) {
        throw_input_error({"the safetensors tensor '", one_line(name, 80), "' has a bad shape"});
      }
      s.shape.push_back(d.get<long long>());
      count *= std::max(1LL, s.shape.back());
      if (count > (1LL << 40))
        throw_input_error({"the safetensors tensor '", one_line(name, 80), "' is too large"});
    }
    for (const auto& o : t["data_offsets"]) {
      if (!o.is_number_unsigned())
        throw_input_error({"the safetensors tensor '", one_line(name, 80), "' has bad offsets"});
    }
    s.begin = t["data_offsets"][0].get<size_t>(), s.end = t["data_offsets"][1].get<size_t>();
    if (s.begin > s.end || s.end > data_size) {
      throw_input_error({"the safetensors tensor '", one_line(name, 80),
                         "' lies past the end of the file (bytes ", s.begin, " to ", s.end, " of ", data_size,
                         "): it is truncated"});
    }
    if (static_cast<unsigned long long>(count) * dtype_size(s.dtype) != s.end - s.begin) {
      throw_input_error({"the safetensors tensor '", one_line(name, 80), "' has ", s.end - s.begin,
                         " bytes for its shape of ", count, " ", s.dtype, " values"});
    }
    tensors_[name] = std::move(s);
  }
}

Mat SafeTensors::matrix(const std::string& name, long long rows, long long cols) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw_input_error({"the checkpoint has no tensor '", name, "'"});
  const SafeTensor& s = it->second;
  const bool fits = (s.shape.size() == 2 && s.shape[0] == rows && s.shape[1] == cols) ||
                    (s.shape.size() == 1 && rows == 1 && s.shape[0] == cols);
  if (!fits) {
    std::string shape;
    for (long long d : s.shape) shape += (shape.empty() ? "" : " x ") + std::to_string(d);
    throw_input_error({"the tensor '", name, "' is ", shape.empty() ? "a scalar" : shape,
                       "; the config needs ", rows, " x ", cols});
  }
  Mat m(rows, cols);
  const char* p = bytes_.data() + data_ + s.begin;
  const long long n = rows * cols;
  if (s.dtype == "F32") {
    std::memcpy(m.data(), p, static_cast<size_t>(n) * 4);
  } else {
    const bool half = s.dtype == "F16";
    for (long long i = 0; i < n; ++i) {
      unsigned short h = 0;
      std::memcpy(&h, p + 2 * i, 2);
      m.data()[i] = half ? half_to_float(h) : bf16_to_float(h);
    }
  }
  if (!m.allFinite()) throw_input_error({"the tensor '", name, "' holds a NaN or infinite value"});
  return m;
}

}  // namespace attn::model_io
