// Learned relative position biases (T5, Raffel et al., 2020): each head adds a trained bias for the bucket
// of the key's distance from the query: one bucket per distance up close, log-spaced buckets further out,
// and one shared bucket for everything from max_distance on.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "core/rng.hpp"
#include "core/schemes/scheme.hpp"

namespace attn {
namespace {

constexpr int kBuckets = 32;
constexpr int kMaxDistance = 128;

// distance = key position - query position -> its bucket 0 .. kBuckets - 1. Both ways, keys before the
// query take buckets 0 .. 15 and keys after it 16 .. 31; one-way (causal), keys before take all 32. Of
// each side's n buckets, the first n / 2 are the distances 0 .. n / 2 - 1 one by one; the rest split
// n / 2 .. kMaxDistance evenly in log(distance), and the last also holds every longer distance.
int distance_bucket(int distance, bool causal) {
  int n = -distance;  // how far back the key is
  int side = kBuckets, first = 0;
  if (causal) {
    n = std::max(n, 0);
  } else {
    side = kBuckets / 2;
    if (n < 0) first = side;
    n = std::abs(n);
  }
  const int exact = side / 2;
  if (n < exact) return first + n;
  const double share =
      std::log2(static_cast<double>(n) / exact) / std::log2(static_cast<double>(kMaxDistance) / exact);
  return first + std::min(side - 1, exact + static_cast<int>(share * (side - exact)));
}

// The untrained bias: normal(0, 0.5^2) per head and bucket, the same for every model.
double seeded_bias(int head, int heads, int bucket) {
  Rng rng(mix_seed(0x7e1a71feULL + static_cast<std::uint64_t>(heads),
                   static_cast<std::uint64_t>(head) * kBuckets + static_cast<std::uint64_t>(bucket)));
  return 0.5 * rng.normal();
}

const DistanceBuckets kT5Buckets = {kBuckets, kMaxDistance, distance_bucket, seeded_bias};

}  // namespace

extern const SchemeDef kRelativeScheme;
const SchemeDef kRelativeScheme = {
    Scheme::Relative,
    "relative",
    "each head adds a learned bias for how far the key is from the query (T5's buckets)",
    kUseAttention | kUseRouter,
    /*added=*/nullptr,
    /*trained_table=*/false,
    /*rotation=*/nullptr,
    /*score_bias=*/nullptr,
    /*appended=*/false,
    /*takes_length=*/false,
    /*facts=*/nullptr,
    &kT5Buckets};

}  // namespace attn
