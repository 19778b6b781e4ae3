// What a position scheme is: one SchemeDef per scheme, each in its own file of core/schemes, listed once
// in schemes.def. Every list of schemes (CLI flags, URL values, menus, help texts, the README's table) and
// every place a model uses positions asks this table instead of naming a scheme.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/types.hpp"

namespace attn {

// Which position signal a model uses; None (the first) is the default.
enum class Scheme {
#define ATTN_SCHEME(id, def) id,
#include "core/schemes/schemes.def"
#undef ATTN_SCHEME
};

// The scheme the lesson starts from (and the trainable router's default): the sinusoidal clock.
inline constexpr Scheme kLessonScheme = Scheme::Sinusoidal;

// What a scheme's tables may depend on.
struct SchemeArgs {
  int d_model = 16;
  double base = 10000.0;      // the clock's and RoPE's base
  int slots = 128;            // a learned table's slots
  std::uint64_t seed = 7;     // a learned table's seed
  std::optional<int> length;  // the text length (none: the last position + 1)
};

// Where a scheme can be chosen.
enum SchemeUse : unsigned {
  kUseAttention = 1u,  // the seeded attention layer, the encoder block, `attend` and `block`
  kUseRouter = 2u,     // the seeded router and the trainable router (`train`, the Train scene)
  kUseTable = 4u,      // `attention_cli pe`: a table of readings per position
};

// A named fact about a scheme's table for `attention_cli pe` (the base, the speeds, ...): one number or a
// list; whole numbers (counts, seeds up to kMaxSeed) are exact in a double.
struct SchemeFact {
  const char* name;
  std::vector<double> values;
  bool list = false;   // a list, else values[0]
  bool whole = false;  // whole numbers
};

// A bias per head for each bucket of the distance from the query to the key, added to the scores. A
// trainable model learns one (H, buckets) table per layer, starting from `initial`; a seeded model uses
// `initial` as it is.
struct DistanceBuckets {
  int buckets = 0;
  int max_distance = 0;  // every distance past it, either way, falls in the same bucket as max_distance
  // The bucket 0 .. buckets - 1 of key position - query position: one-way (causal) or both ways.
  int (*bucket)(int distance, bool causal) = nullptr;
  // The untrained table's entry for head `head` of `heads`.
  double (*initial)(int head, int heads, int bucket) = nullptr;
};

struct SchemeDef {
  Scheme id;
  const char* name;  // in URLs, CLI flags and JSON
  const char* help;  // one line for help texts and the README
  unsigned uses;     // SchemeUse bits
  // What it adds to the embeddings at `positions`: (P, args.d_model); null adds nothing.
  Mat (*added)(const std::vector<int>& positions, const SchemeArgs& args) = nullptr;
  // The added table is a weight of a trainable model, (slots, D), trained with it (`added` draws its
  // initial value for the seeded models).
  bool trained_table = false;
  // How it turns queries and keys: the angles of a width-`width` row at each position; null turns nothing.
  ops::RopeTable (*rotation)(int width, const std::vector<int>& positions, double base) = nullptr;
  // What it adds to head `head` of `heads`'s scores, set on the head's mask; null adds nothing.
  void (*score_bias)(ops::HeadMask& mask, int head, int heads) = nullptr;
  // `pe` writes it as one appended column (the lesson's naive attempts) rather than a D-wide table.
  bool appended = false;
  // It reads args.length (the text length).
  bool takes_length = false;
  // Facts `pe` prints beside the table.
  std::vector<SchemeFact> (*facts)(const std::vector<int>& positions, const SchemeArgs& args) = nullptr;
  // A trained bias per distance bucket; null: none.
  const DistanceBuckets* distance = nullptr;
};

// Every scheme, in menu order.
const std::vector<const SchemeDef*>& scheme_table();
const SchemeDef& scheme_def(Scheme s);
// The schemes with every bit of `uses`, in menu order.
std::vector<Scheme> schemes_for(unsigned uses);

// "none|sinusoidal|..." -> Scheme; throws InputError listing `allowed`.
Scheme parse_scheme(const std::string& name, const std::vector<Scheme>& allowed);
std::string scheme_name(Scheme s);
// "a|b|c" for error messages.
std::string scheme_list(const std::vector<Scheme>& schemes);

// Sets head `head` of `heads`'s bias on its mask (mask.causal already set): the scheme's score_bias and, for
// a scheme with distance buckets, row `head` of `table` (H, buckets), or the scheme's initial values when
// `table` is null or empty, laid out per clipped distance (ops::HeadMask::distance_bias) up to `span`, the
// largest distance between two of the positions.
template <class S>
void set_head_bias(const SchemeDef& scheme, ops::HeadMask& mask, int head, int heads, const MatT<S>* table,
                   int span);
// A distance-bucket scheme's untrained table: (heads, buckets).
Mat initial_distance_table(const SchemeDef& scheme, int heads);

// What a model adds to its embeddings: (T, D) at positions 0 .. t-1, or an empty matrix.
Mat added_positions(Scheme s, int t, const SchemeArgs& args);

}  // namespace attn
