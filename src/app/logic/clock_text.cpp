// The clock scene's sentences, each chosen by what the core computed about the hands.
#include "app/logic/clock_text.hpp"

#include <algorithm>
#include <cmath>

#include "app/logic/text.hpp"

namespace app {

std::string clock_intro(const attn::PositionClock& clock) {
  const int hands = clock.hands(), last = hands - 1;
  const double slow_wave = clock.wavelengths().back();
  std::string out =
      "Each position gets a clock reading: pairs of sine and cosine hands turning at different speeds";
  out +=
      clock.d_model % 2 ? format(" (at odd d_model %d the last hand is a lone sine). ", clock.d_model) : ". ";
  const attn::ClosestOffset close = attn::closest_offset(clock, kClockReach - 1);
  if (hands == 1) {
    return out +
           format(
               "With d_model %d there is one hand: it tells neighbours apart but comes back round every "
               "%.3g tokens, so positions %d apart read nearly alike (%.2g). More hands fix that.",
               clock.d_model, slow_wave, close.offset, close.distance);
  }
  out += "Fast hands tell neighbours apart but come back round; slow hands barely move between neighbours, ";
  out += slow_wave >= kClockReach
             ? format(
                   "and the slowest (hand %d, once every %s tokens) never comes round within positions 0 to "
                   "%d. ",
                   last, grouped(std::llround(slow_wave)).c_str(), kClockReach - 1)
             : format(
                   "but here even the slowest (hand %d) comes round every %.4g tokens, within positions 0 to "
                   "%d. ",
                   last, slow_wave, kClockReach - 1);
  const char* every = clock.d_model % 2 ? "every paired hand" : "every hand";
  if (close.distance >= attn::kNearlyRepeats) {
    return out + format(
                     "Read together, the %d hands give every position up to %d its own reading: the most "
                     "alike, %s, "
                     "still differ by %.3f.",
                     hands, kClockReach - 1,
                     close.offset == 1 ? "neighbours" : format("%d tokens apart", close.offset).c_str(),
                     close.distance);
  }
  return out +
         format(
             "With only %d hands, positions %d tokens apart read nearly alike on %s (%.2g): a clock needs "
             "enough hands at different speeds.",
             hands, close.offset, every, close.distance);
}

namespace {

// Why one hand reads two positions alike, or that it tells them apart.
std::string hand_says(const attn::HandReading& h) {
  switch (h.verdict) {
    case attn::HandVerdict::Same:
      return "reads them alike";
    case attn::HandVerdict::Differs:
      return "tells them apart";
    case attn::HandVerdict::BarelyMoved:
      return format("has barely moved (%.2g of a turn), so it reads them alike", std::fabs(h.turns));
    case attn::HandVerdict::CameRound:
      return format("has come round (%.4g turns), so it reads them alike", std::fabs(h.turns));
    case attn::HandVerdict::SineAlike:
      return "is a lone sine whose two angles happen to have the same sine, so it reads them alike";
  }
  return "";
}

}  // namespace

std::string compare_sentence(const std::vector<attn::HandReading>& hands, int pos, int pos2) {
  if (pos == pos2) return format("Positions %d and %d are the same: every hand reads alike.", pos, pos2);
  const long apart = std::count_if(hands.begin(), hands.end(), [](const attn::HandReading& r) {
    return r.verdict == attn::HandVerdict::Differs;
  });
  const attn::HandReading &fast = hands.front(), &slow = hands.back();
  std::string out = format("Positions %d and %d, hand by hand: ", pos, pos2);
  if (hands.size() > 1) out += format("%ld of %zu hands tell them apart. ", apart, hands.size());
  out += "The fast hand 0 " + hand_says(fast);
  if (hands.size() > 1) {
    const bool too = fast.verdict == attn::HandVerdict::Differs && slow.verdict == attn::HandVerdict::Differs;
    out += format("; the slowest hand %d %s%s", slow.hand, hand_says(slow).c_str(), too ? " too" : "");
  }
  return out + ".";
}

const char* verdict_label(attn::HandVerdict v) {
  switch (v) {
    case attn::HandVerdict::Same:
      return "same position";
    case attn::HandVerdict::Differs:
      return "differs";
    case attn::HandVerdict::BarelyMoved:
      return "barely moved";
    case attn::HandVerdict::CameRound:
      return "came round";
    case attn::HandVerdict::SineAlike:
      return "lone sine alike";
  }
  return "";
}

std::string rotation_sentence(const attn::PositionClock& clock, const attn::HandReading& fast, int pos,
                              int pos2, int second_start, double error) {
  constexpr double kDegrees = 180.0 / M_PI;
  const int k = pos2 - pos;
  std::string out = format(
      "Angles are in radians: one radian is about %.1f degrees, and a full turn is 2π = 6.283 radians. "
      "Moving k tokens turns hand i by k times its speed, wherever you start: ",
      kDegrees);
  if (k == 0) {
    return out + format(
                     "from position %d to itself k = 0 and nothing turns; pick a second position to see "
                     "the turn.",
                     pos);
  }
  out += format(
      "from position %d to %d (k = %d) hand 0 turns by %d × %.4g = %.3f rad (%.1f degrees, %+.3f once whole "
      "turns are taken off). Turning every ",
      pos, pos2, k, k, fast.speed, k * fast.speed, k * fast.speed * kDegrees, fast.phase_diff);
  out += clock.d_model % 2 ? "paired hand" : "hand";
  out += format(
      " of position %d's reading by k × its speed gives position %d's reading, and the same turns take "
      "position %d to %d (largest difference ",
      pos, pos2, second_start, second_start + k);
  out += error == 0.0 ? std::string("0, exact") : format("%.1g, float rounding", error);
  out += clock.d_model % 2 ? "; the lone sine has no cosine to turn with)" : ")";
  return out +
         ". This fixed rotation, the same at every position, is what lets attention read relative offsets "
         "such "
         "as \"two tokens back\".";
}

}  // namespace app
