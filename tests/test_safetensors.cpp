// Safetensors sets: shards read as one set of tensors, each tensor copied from its file alone (never the
// whole file; a large one a slice of rows at a time), as stored or transposed, 16-bit values widened, and a
// tensor named in two shards or a header past its file refused with the file named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "model_io/safetensors.hpp"

namespace {

using attn::model_io::NamedFile;
using attn::model_io::SafeTensors;

// A safetensors file of one tensor per entry: {name, dtype, shape text, raw little-endian bytes}.
struct Entry {
  std::string name, dtype, shape;
  std::string raw;
};

std::string write_file(const std::vector<Entry>& entries) {
  std::string header = "{", data;
  for (const Entry& e : entries) {
    header += (header.size() > 1 ? "," : "") + std::string("\"") + e.name + "\":{\"dtype\":\"" + e.dtype +
              "\",\"shape\":[" + e.shape + "],\"data_offsets\":[" + std::to_string(data.size()) + "," +
              std::to_string(data.size() + e.raw.size()) + "]}";
    data += e.raw;
  }
  header += ",\"__metadata__\":{\"format\":\"pt\"}}";
  const std::uint64_t n = header.size();
  std::string out(8, '\0');
  std::memcpy(out.data(), &n, 8);
  return out + header + data;
}

template <class T>
std::string raw_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// A file in memory read through a range that records the largest single copy.
NamedFile watched(const std::string& name, const std::string& bytes, size_t& largest) {
  return NamedFile(name,
                   attn::lm::FileRange{bytes.size(), [&bytes, &largest](void* dst, size_t at, size_t n) {
                                         largest = std::max(largest, n);
                                         std::memcpy(dst, bytes.data() + at, n);
                                       }});
}

TEST(SafeTensors, ShardsAreOneSetReadATensorAtATime) {
  const std::vector<float> a = {1.5f, -2.0f, 0.25f, 3.0f, 4.0f, -0.5f};   // (2, 3)
  const std::vector<std::uint16_t> b = {0x3C00, 0xC000, 0x0001, 0x7BFF};  // F16: 1, -2, 2^-24, 65504
  const std::vector<std::uint16_t> c = {0x3F80, 0xBFC0, 0x4049};          // BF16: 1, -1.5, 3.140625
  const std::vector<float> big(4096, 0.5f);                               // (4096,), the first shard's bulk
  const std::string first = write_file({{"a", "F32", "2,3", raw_of(a)}, {"big", "F32", "4096", raw_of(big)}});
  const std::string second = write_file({{"b", "F16", "4", raw_of(b)}, {"c", "BF16", "1,3", raw_of(c)}});
  size_t largest = 0;
  const NamedFile f1 = watched("model-00001-of-00002.safetensors", first, largest);
  const NamedFile f2 = watched("model-00002-of-00002.safetensors", second, largest);
  const SafeTensors st({&f1, &f2});
  EXPECT_TRUE(st.has("a") && st.has("b") && st.has("c") && st.has("big"));
  EXPECT_FALSE(st.has("__metadata__"));
  EXPECT_LT(largest, 200u) << "the headers are read alone, not the files";

  largest = 0;
  const attn::Mat ma = st.matrix("a", 2, 3);
  EXPECT_EQ(largest, a.size() * 4) << "one tensor's bytes in one copy";
  for (int i = 0; i < 6; ++i) EXPECT_EQ(ma(i / 3, i % 3), a[static_cast<size_t>(i)]);
  const attn::Mat mb = st.matrix("b", 1, 4);
  EXPECT_EQ(mb(0, 0), 1.0f);
  EXPECT_EQ(mb(0, 1), -2.0f);
  EXPECT_EQ(mb(0, 2), 1.0f / 16777216.0f);
  EXPECT_EQ(mb(0, 3), 65504.0f);
  const attn::Mat mc = st.matrix("c", 1, 3);
  EXPECT_EQ(mc(0, 0), 1.0f);
  EXPECT_EQ(mc(0, 1), -1.5f);
  EXPECT_EQ(mc(0, 2), 3.140625f);
  EXPECT_EQ(largest, a.size() * 4) << "16-bit tensors are as small as their bytes";
  EXPECT_THROW(st.matrix("a", 3, 2), attn::InputError);
  EXPECT_THROW(st.matrix("missing", 1, 1), attn::InputError);
}

TEST(SafeTensors, ALargeTensorIsReadASliceAtATimeAsStoredOrTransposed) {
  constexpr int kRows = 300, kCols = 1000;  // 1.2 MB of F32, more than one 1 MB slice
  std::vector<float> v(static_cast<size_t>(kRows) * kCols);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 9973) - 4000.0f;
  const std::vector<std::uint16_t> h = {0x3C00, 0x4000, 0x4200, 0xBC00, 0x0000, 0x3800};  // (2, 3) F16
  const std::string bytes = write_file({{"w", "F32", "300,1000", raw_of(v)}, {"h", "F16", "2,3", raw_of(h)}});
  size_t largest = 0;
  const NamedFile f = watched("model.safetensors", bytes, largest);
  const SafeTensors st({&f});
  const attn::Mat m = st.matrix("w", kRows, kCols);
  EXPECT_LE(largest, size_t{1} << 20) << "no copy is larger than a slice";
  const attn::Mat t = st.transposed("w", kRows, kCols);
  ASSERT_EQ(t.rows(), kCols);
  ASSERT_EQ(t.cols(), kRows);
  int wrong = 0;
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      const float want = v[static_cast<size_t>(r) * kCols + static_cast<size_t>(c)];
      wrong += m(r, c) != want || t(c, r) != want;
    }
  }
  EXPECT_EQ(wrong, 0);
  const attn::Mat ht = st.transposed("h", 2, 3);  // stored (2, 3): 1 2 3 / -1 0 0.5
  EXPECT_EQ(ht(0, 0), 1.0f);
  EXPECT_EQ(ht(2, 0), 3.0f);
  EXPECT_EQ(ht(0, 1), -1.0f);
  EXPECT_EQ(ht(2, 1), 0.5f);
}

TEST(SafeTensors, RefusalsNameTheShard) {
  const std::vector<float> a = {1, 2};
  const std::string file = write_file({{"a", "F32", "2", raw_of(a)}});
  const NamedFile one("one.safetensors", file), two("two.safetensors", file);
  try {
    SafeTensors st({&one, &two});
    FAIL() << "a tensor in two shards was read";
  } catch (const attn::InputError& e) {
    EXPECT_STREQ(e.what(), "the tensor 'a' is in two files: 'one.safetensors' and 'two.safetensors'");
  }
  const NamedFile cut("model-00002-of-00002.safetensors", file.substr(0, file.size() - 4));
  try {
    SafeTensors st({&one, &cut});
    FAIL() << "a truncated shard was read";
  } catch (const attn::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'model-00002-of-00002.safetensors'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("past the end"), std::string::npos) << e.what();
  }
  const NamedFile nan("nan.safetensors", write_file({{"n", "F32", "1", raw_of(std::vector<float>{NAN})}}));
  EXPECT_THROW(SafeTensors({&nan}).matrix("n", 1, 1), attn::InputError);
}

}  // namespace
