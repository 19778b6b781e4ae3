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

// What a model adds to its embeddings: (T, D) at positions 0 .. t-1, or an empty matrix.
Mat added_positions(Scheme s, int t, const SchemeArgs& args);

}  // namespace attn
