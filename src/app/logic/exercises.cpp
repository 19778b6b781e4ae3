// The exercises' checking (numbers as typed, answers as text, feedback) and the clock scene's exercise.
#include "app/logic/exercises.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "app/logic/captions.hpp"
#include "app/logic/settings.hpp"
#include "app/logic/text.hpp"
#include "core/attention.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/index_sort.hpp"
#include "core/pipeline.hpp"
#include "core/seeded_router.hpp"
#include "core/tokenizer.hpp"

namespace app {
ClockExercise clock_exercise(const attn::PositionClock& clock) {
  constexpr int kLo = 1, kHi = 49;
  ClockExercise ex;
  ex.answer = attn::nearest_return(clock, 0, 0, kLo, kHi);
  // Every candidate's fast-hand distance from position 0, nearest first (ties: the smaller position).
  std::vector<double> distance;  // of position kLo + i
  for (int p = kLo; p <= kHi; ++p) distance.push_back(attn::compare_positions(clock, 0, p)[0].distance);
  std::vector<int> ranked;
  attn::sort_indices(
      static_cast<int>(distance.size()),
      [&](int a, int b) { return distance[a] != distance[b] ? distance[a] < distance[b] : a < b; }, ranked);
  for (size_t i = 0; i < ranked.size() && ex.near_misses.size() < 2; ++i) {
    if (kLo + ranked[i] != ex.answer) ex.near_misses.push_back(kLo + ranked[i]);
  }
  const std::vector<attn::HandReading> hands = attn::compare_positions(clock, 0, ex.answer);
  const attn::HandReading &fast = hands.front(), &slow = hands.back();
  ex.prompt = format(
      "Which position between %d and %d has its fast hand (hand 0, dimensions 0 and 1, one radian per token) "
      "closest to position 0's? %s",
      kLo, kHi,
      hands.size() > 1 ? "Then look at that position's slow hand: is it close to position 0's too?"
                       : "This clock has no other hand: what else could tell that position from 0?");
  ex.hint =
      "The fast hand comes back round every 2π = 6.28 tokens. Look for a whole number of tokens that is "
      "very nearly a whole number of turns.";
  ex.why = format(
      "Position %d: %d tokens are %.3f turns of the fast hand, so its reading is only %.3f away from "
      "position 0's. ",
      ex.answer, ex.answer, ex.answer / fast.wavelength, fast.distance);
  if (hands.size() < 2) {
    ex.why += "This clock has only that one hand, so nothing tells the two positions apart.";
  } else {
    const auto widest = std::max_element(
        hands.begin(), hands.end(), [](const auto& a, const auto& b) { return a.distance < b.distance; });
    const std::string apart =
        " so read together the hands keep the two positions distinct. That is why a clock needs several "
        "hands.";
    if (slow.distance >= attn::kNearlyRepeats) {
      ex.why +=
          format("The slow hand (hand %d) is not close: it is %.3f away,", slow.hand, slow.distance) + apart;
    } else if (widest->distance >= attn::kNearlyRepeats) {
      ex.why +=
          format(
              "The slowest hand (hand %d) is close too, only %.3f away, because it has barely moved in %d "
              "tokens; but hand %d is %.3f away,",
              slow.hand, slow.distance, ex.answer, widest->hand, widest->distance) +
          apart;
    } else {
      ex.why += format(
          "No hand of this clock is %.2f or more away, so with these hands the two positions read "
          "almost the same.",
          attn::kNearlyRepeats);
    }
  }
  if (ex.near_misses.size() == 2) {
    const int a = ex.near_misses[0], b = ex.near_misses[1];
    ex.why += format(
        " Near misses: %d (%.3f turns, fast hand %.3f away) and %d (%.3f turns, %.3f away), because %d and "
        "%d "
        "tokens are also close to whole numbers of turns, i.e. to multiples of 6.28.",
        a, a / fast.wavelength, attn::compare_positions(clock, 0, a)[0].distance, b, b / fast.wavelength,
        attn::compare_positions(clock, 0, b)[0].distance, a, b);
  }
  return ex;
}

bool parse_number_answer(const std::string& text, long long& out) {
  std::string digits;
  bool negative = false, seen_digit = false;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      digits += ch;
      seen_digit = true;
    } else if (ch == '-' && !seen_digit && !negative && digits.empty()) {
      negative = true;
    } else if (ch == ' ' || ((ch == ',' || ch == '_' || ch == '\'') && seen_digit)) {
      continue;
    } else {
      return false;
    }
  }
  if (digits.empty() || digits.size() > 15) return false;
  out = std::stoll(digits) * (negative ? -1 : 1);
  return true;
}

std::string answer_text(const Question& q) {
  if (q.kind == AnswerKind::Number) return grouped(q.answer);
  if (q.answer < 0 || q.answer >= static_cast<long long>(q.choices.size())) return "(none)";
  return q.choices[static_cast<size_t>(q.answer)];
}

Feedback check_answer(const Question& q, long long given) {
  Feedback f;
  if (q.kind == AnswerKind::Choice) {
    if (given < 0 || given >= static_cast<long long>(q.choices.size()))
      return {false, "Pick one of the options first."};
    f.correct = given == q.answer;
    f.text = f.correct ? "Right. " + q.why : "Not this one. " + q.choice_notes[static_cast<size_t>(given)];
    return f;
  }
  f.correct = given == q.answer;
  if (f.correct) {
    f.text = "Right. " + q.why;
  } else {
    const std::string note = q.wrong_note ? q.wrong_note(given) : "";
    f.text = "Not quite: " + grouped(given) + " is not it. " + (note.empty() ? "" : note + " ") +
             "Try again, or take the hint.";
  }
  return f;
}

}  // namespace app
