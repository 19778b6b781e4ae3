// The order scene's cached data and its panels: the refund pair, the shuffle test and the common mistake.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "app/logic/settings.hpp"
#include "core/seeded_router.hpp"
#include "core/shuffle.hpp"

namespace app {

// The lesson's two emails: the same tokens, opposite meanings.
const std::array<std::string, 2>& refund_emails();

// One column of the refund table: both emails through the router with one scheme.
struct RouterColumn {
  attn::Scheme scheme = attn::Scheme::None;
  std::array<attn::SeededRouterResult, 2> emails;
  double difference = 0.0;  // largest |p_a - p_b| over the two labels' probabilities
  std::string error;        // the core's message when the router rejects the settings
};

// The refund pair without positions and with the chosen scheme (from d_model, heads, seed, slots, positions).
struct RouterData {
  attn::Scheme positions = attn::Scheme::None;  // the settings' scheme, as asked for
  int seed = 0;
  RouterColumn plain, positioned;
  bool same_bag = false;  // the two emails' sorted tokens are equal
};

// The shuffle test on Settings.text (from text, perm, positions, d_model, heads, seed, slots).
struct ShuffleData {
  int t = 0;               // tokens after cutting (0 when the text could not be read)
  bool from_seed = false;  // the permutation came from the seed (Settings.perm empty)
  std::vector<int> perm;   // (T,) the permutation used, empty on error
  std::vector<std::string> labels, shuffled_labels;  // (T,) unique token labels, original and new order
  std::vector<std::string> dim_labels;               // (D,)
  attn::ShuffleStudy study;
  float range = 1.0f;  // one colour range (+-range) for every output heatmap
  std::string error;
};

// The router's scheme for Settings.positions: the chosen one, or sinusoidal when it is "none".
attn::Scheme router_scheme(attn::Scheme positions);
// The shuffle test's scheme: the chosen one, or sinusoidal when it is "none".
attn::Scheme shuffle_scheme(attn::Scheme positions);
// Whether a scheme acts inside attention (turns queries and keys, or biases the scores) rather than adding
// to the embeddings.
bool inside_attention(attn::Scheme s);

// The refund pair. trained_blind: the confidences a trained router without positions gives the two emails
// (negative when there is none).
void draw_router(const RouterData& r, const std::array<float, 2>& trained_blind);
// `version`: the shuffle data's Memo version (keys the heatmaps); `randomised`: how often Randomise was
// pressed (each press seeds a new order; kept by the scene).
void draw_shuffle(Settings& s, const ShuffleData& d, std::uint64_t version, int& randomised);
void draw_mistake(const ShuffleData& d, std::uint64_t version);

}  // namespace app
