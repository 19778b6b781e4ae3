// The byte form of the messages between the app and its compute worker: a writer that appends each field's
// in-memory bytes (strings, float arrays and matrices after their u32 sizes), and a reader that takes them
// back with bounds checks. Sender and receiver are one build on one machine: one byte order, one layout.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"

namespace app {

using Bytes = std::vector<std::uint8_t>;

// A message in pieces where they lie (a header, then weights in their matrices), posted without first
// copying them into one buffer; join() is the one buffer.
using Part = std::pair<const void*, std::size_t>;
Bytes join(const std::vector<Part>& parts);

// A message's first four bytes, its kind; 0 for fewer bytes.
std::uint32_t message_tag(const Bytes& bytes);

struct Writer {
  Bytes out;
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(&v, sizeof(T));
  }
  void raw(const void* p, std::size_t n);    // n bytes as they are
  void bytes(const void* p, std::size_t n);  // n (u32), then the bytes
  void text(const std::string& s) { bytes(s.data(), s.size()); }
  void floats(const std::vector<float>& v) { bytes(v.data(), 4 * v.size()); }
  // rows and cols (i32), then the row-major values
  void mat(const attn::Mat& m);
};

// Reads a message's fields in order: from bytes in memory, or through `copy` from wherever they are (the
// page reads a large answer from the worker's buffer straight into its matrices).
class Reader {
 public:
  using Copy = void (*)(void* dst, std::size_t at, std::size_t n);
  Reader(const Bytes& in, const char* what) : data_(in.data()), size_(in.size()), what_(what) {}
  Reader(std::size_t size, Copy copy, const char* what) : size_(size), copy_(copy), what_(what) {}

  [[noreturn]] void fail() const;  // "a <what> message is malformed"
  void read(void* dst, std::size_t n);
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    read(&v, sizeof(T));
    return v;
  }
  // An enum written as i32, checked against its last value.
  template <class E>
  E enumerator(E last) {
    const auto v = get<std::int32_t>();
    if (v < 0 || v > static_cast<std::int32_t>(last)) fail();
    return static_cast<E>(v);
  }
  std::string text();
  void floats(std::vector<float>& v);
  attn::Mat mat();
  void end() const;  // fails unless every byte was read
  std::size_t left() const { return size_ - at_; }

 private:
  const std::uint8_t* data_ = nullptr;  // or null: read through copy_
  std::size_t size_ = 0, at_ = 0;
  Copy copy_ = nullptr;
  const char* what_;
};

}  // namespace app
