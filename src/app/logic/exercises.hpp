// The exercises scene's questions: prompts, choices, hints and answers computed by the core (no UI code).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/positions.hpp"

namespace app {

enum class AnswerKind { Number, Choice };

struct Question {
  std::string id;  // stable id for state() and tests: "clock44", "head_dim", ...
  std::string prompt;
  AnswerKind kind = AnswerKind::Number;
  std::vector<std::string> choices;  // Choice: the options, in order
  long long answer = 0;              // Number: the value; Choice: index of the right option (from the core)
  std::string hint;
  std::string why;                        // the answer explained, with the core's numbers
  std::vector<std::string> choice_notes;  // Choice: why each option is right or wrong (one per option)
  // Number: a note for a wrong value (e.g. a common slip), or "" for the generic one.
  std::function<std::string(long long given)> wrong_note;
  std::string link_label;  // "Open the clock at positions 44 and 0"
  std::string link_query;  // URL query of the related scene: "scene=clock&d_model=4&pos=44&pos2=0"
};

// The lesson's first exercise on any clock: the position in 1..49 whose fast hand (hand 0) reads closest
// to position 0's, whether its slowest hand is close too, and the two near misses after it. The texts
// carry the core's numbers (turns, distances). Throws attn::InputError from the core.
struct ClockExercise {
  int answer = 0;
  std::vector<int> near_misses;  // the next two positions by fast-hand distance (19 and 25 for the lesson)
  std::string prompt, hint, why;
};
ClockExercise clock_exercise(const attn::PositionClock& clock);

// Every question with its answer computed by the core. Throws attn::InputError if the core rejects a setup.
std::vector<Question> build_questions();

// "1,048,576" or " 64 " -> number; commas, spaces, underscores and apostrophes between digits are ignored.
// Returns false for anything else (empty, letters, a second sign, a decimal point, out of range).
bool parse_number_answer(const std::string& text, long long& out);

struct Feedback {
  bool correct = false;
  std::string text;  // right: why it is right; wrong: what went wrong (and a nudge)
};
// The right answer as shown on Reveal: "1,048,576", or the right option's text.
std::string answer_text(const Question& q);

// The learner's answer checked: `given` is the number, or the index of the chosen option.
Feedback check_answer(const Question& q, long long given);

}  // namespace app
