// The compute worker's messages as bytes: Writer appends fields, Reader takes them back or fails cleanly.
#include "app/logic/message_bytes.hpp"

#include <cstring>
#include <utility>

namespace app {

Bytes join(const std::vector<Part>& parts) {
  Writer w;
  std::size_t n = 0;
  for (const Part& part : parts) n += part.second;
  w.out.reserve(n);
  for (const Part& part : parts) w.raw(part.first, part.second);
  return std::move(w.out);
}

std::uint32_t message_tag(const Bytes& bytes) {
  std::uint32_t tag = 0;
  if (bytes.size() >= sizeof tag) std::memcpy(&tag, bytes.data(), sizeof tag);
  return tag;
}

void Writer::raw(const void* p, std::size_t n) {
  if (n == 0) return;
  // resize + memcpy: the range insert compiled (at -Os, in the page) to a loop of single bytes, 38 ms for a
  // 12.7 MB model
  const std::size_t at = out.size();
  out.resize(at + n);
  std::memcpy(out.data() + at, p, n);
}

void Writer::bytes(const void* p, std::size_t n) {
  put(static_cast<std::uint32_t>(n));
  raw(p, n);
}

void Writer::mat(const attn::Mat& m) {
  const std::int32_t shape[2] = {static_cast<std::int32_t>(m.rows()), static_cast<std::int32_t>(m.cols())};
  raw(shape, sizeof shape);
  raw(m.data(), sizeof(float) * static_cast<std::size_t>(m.size()));
}

void Reader::fail() const {
  throw attn::InputError(std::string("a ") + what_ + " message is malformed");
}

void Reader::read(void* dst, std::size_t n) {
  if (n > size_ - at_) fail();
  if (n == 0) return;
  if (data_)
    std::memcpy(dst, data_ + at_, n);
  else
    copy_(dst, at_, n);
  at_ += n;
}

std::string Reader::text() {
  const auto n = get<std::uint32_t>();
  if (n > left()) fail();
  std::string s(n, '\0');
  read(s.data(), n);
  return s;
}

void Reader::floats(std::vector<float>& v) {
  const auto n = get<std::uint32_t>();
  if (n % 4 != 0 || n > left()) fail();
  v.resize(n / 4);
  read(v.data(), n);
}

attn::Mat Reader::mat() {
  const auto rows = get<std::int32_t>(), cols = get<std::int32_t>();
  if (rows < 0 || cols < 0) fail();
  const auto count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (count > left() / sizeof(float)) fail();
  // an empty one (a scheme's missing position table) as a default matrix: sized (0, 0) through Eigen's
  // resize, the page's wasm traps (its overflow check divides by the 0 here)
  if (count == 0) return attn::Mat();
  attn::Mat m(rows, cols);
  read(m.data(), sizeof(float) * count);
  return m;
}

void Reader::end() const {
  if (at_ != size_) fail();
}

}  // namespace app
