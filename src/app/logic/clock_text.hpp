// The clock scene's sentences, each chosen by what the core computed about the hands (no UI code).
#pragma once

#include <string>
#include <vector>

#include "core/clock.hpp"

namespace app {

// Positions the clock scene speaks about: those its sliders reach, 0 to kClockReach - 1.
inline constexpr int kClockReach = 2048;

// What a clock of this width and base does: fast hands, whether the slowest comes round within
// kClockReach positions, and whether every position up to there has its own reading (the lesson's "with
// enough hands").
std::string clock_intro(const attn::PositionClock& clock);

// Two positions compared, hand by hand: how many hands tell them apart, the fast and the slowest hand's
// verdicts. hands: attn::compare_positions(clock, pos, pos2).
std::string compare_sentence(const std::vector<attn::HandReading>& hands, int pos, int pos2);

// The table's verdict for one hand: "same position", "differs", "barely moved", "came round",
// "lone sine alike".
const char* verdict_label(attn::HandVerdict v);

// The fixed rotation from pos to pos2 (k = pos2 - pos) and its check from pos and from second_start:
// `error` is the larger attn::rotation_error of the two. fast: hand 0's reading.
std::string rotation_sentence(const attn::PositionClock& clock, const attn::HandReading& fast, int pos,
                              int pos2, int second_start, double error);

}  // namespace app
