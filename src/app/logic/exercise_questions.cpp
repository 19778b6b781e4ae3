// The exercises' eight questions in the order of the lesson: every answer and every number in an
// explanation is computed by the core here.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "app/logic/captions.hpp"
#include "app/logic/exercises.hpp"
#include "app/logic/pipeline_cache.hpp"
#include "app/logic/settings.hpp"
#include "app/logic/text.hpp"
#include "core/attention.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/pipeline.hpp"
#include "core/seeded_router.hpp"
#include "core/tokenizer.hpp"

namespace app {
namespace {

// The settings a link opens, so that an explanation shows the numbers the linked scene will show.
Settings linked_settings(const std::string& query) {
  std::vector<std::string> notes;
  return parse_query(query, notes);
}

// A question with its id and kind, and the link to the scene it is about (URL query and label).
Question question(const char* id, AnswerKind kind, std::string link_query, std::string link_label) {
  Question q;
  q.id = id;
  q.kind = kind;
  q.link_query = std::move(link_query);
  q.link_label = std::move(link_label);
  return q;
}

const char* const kEmails[2] = {"Refund the delivery fee, not the cake.",
                                "Refund the cake, not the delivery fee."};

// [SECTION] the questions, in the order of the lesson

Question clock_question() {
  const attn::PositionClock clock(4);
  const ClockExercise ex = clock_exercise(clock);
  Question q =
      question("clock44", AnswerKind::Number, format("scene=clock&d_model=4&pos=%d&pos2=0", ex.answer),
               format("Open the clock at positions %d and 0", ex.answer));
  q.prompt = "A 4-number sinusoidal clock (d_model 4) has a fast hand and a slow hand. " + ex.prompt;
  q.answer = ex.answer;
  q.hint = ex.hint;
  q.why = ex.why;
  q.wrong_note = [clock](long long given) -> std::string {
    if (given < 1 || given > 49) return "The answer lies between 1 and 49.";
    const auto h = attn::compare_positions(clock, 0, static_cast<int>(given));
    return format(
        "Position %lld's fast hand is %.3f away from position 0's (%.2f turns); another position comes "
        "closer.",
        given, h[0].distance, static_cast<double>(given) / h[0].wavelength);
  };
  return q;
}

Question head_dim_question() {
  const int dk = attn::head_dim(768, 12);
  Question q = question("head_dim", AnswerKind::Number, "scene=mha&d_model=768&heads=12",
                        "Open multi-head attention at 768 wide with 12 heads");
  q.prompt =
      "A model 768 numbers wide with 12 heads (the size of BERT-base and GPT-2 small): how many numbers does "
      "each head's query have per token?";
  q.answer = dk;
  q.hint = "The heads do not each get the whole vector: they split d_model between them.";
  q.why = format(
      "dₖ = d_model / heads = 768 / 12 = %d. Each head works on its own slice of %d numbers, so twelve "
      "heads "
      "cost no more than one full-width head.",
      dk, dk);
  q.wrong_note = [](long long given) -> std::string {
    if (given == 768) return "768 is the whole vector; each head works on a slice of it.";
    if (given == 12) return "12 is how many heads there are, not how wide each one is.";
    if (given == 768LL * 12)
      return "Multiplying makes each head wider than the model; the heads split d_model.";
    return "";
  };
  return q;
}

Question parameters_question() {
  const int d = 512, heads = 8;
  const attn::ParameterCount pc = attn::count_parameters(d, heads);
  const long long qkv = 3LL * heads * d * pc.d_k, wo = 1LL * d * d;
  Question q = question("parameters", AnswerKind::Number, "scene=mha&d_model=512&heads=8",
                        "Open the parameter accounting at 512 wide with 8 heads");
  q.prompt =
      "How many weights does one multi-head attention layer have at d_model 512 with 8 heads? Count W_Q, W_K "
      "and W_V of every head and the output matrix W_O (no biases).";
  q.answer = pc.fused;
  q.hint =
      "Each head's W_Q, W_K and W_V are 512 × dₖ, with dₖ = 512 / 8. Do not forget W_O, which is 512 × "
      "512.";
  q.why = format(
      "8 heads × 3 matrices × 512 × %d = %s for queries, keys and values, plus W_O = 512 × 512 = %s: %s in "
      "all. "
      "One full-width head costs the same (%s): eight viewpoints for the price of one.",
      pc.d_k, grouped(qkv).c_str(), grouped(wo).c_str(), grouped(pc.fused).c_str(),
      grouped(pc.single_head).c_str());
  q.wrong_note = [qkv, pc](long long given) -> std::string {  // wo: a constant, not captured
    if (given == qkv) return "That counts the queries, keys and values; W_O (512 × 512) comes on top.";
    if (given == wo) return "That is W_O alone; the heads' W_Q, W_K and W_V come on top.";
    if (given == 8 * pc.fused)
      return "That gives every head full 512 × 512 matrices; each head is only " + std::to_string(pc.d_k) +
             " wide.";
    if (given == pc.fused / 8) return "That is one eighth; the question asks for the whole layer.";
    return "";
  };
  return q;
}

Question invalid_heads_question() {
  const int d = 512;
  const int options[] = {4, 6, 8, 16};
  Question q = question("invalid_heads", AnswerKind::Choice, "scene=mha&d_model=512&heads=6",
                        "See the error in multi-head attention at 512 with 6 heads");
  q.prompt = "A model is 512 numbers wide. Which of these head counts cannot be used?";
  q.answer = -1;
  std::string valid, refused;
  for (size_t i = 0; i < 4; ++i) {
    const int h = options[i];
    q.choices.push_back(std::to_string(h) + " heads");
    try {
      const int dk = attn::head_dim(d, h);
      q.choice_notes.push_back(
          format("512 / %d = %d: a whole number, so each of the %d heads gets %d numbers.", h, dk, h, dk));
      valid += (valid.empty() ? "" : ", ") + format("%d heads get %d each", h, dk);
    } catch (const attn::InputError& e) {
      if (q.answer < 0)
        q.answer = static_cast<long long>(i), refused = format("%d heads: \"%s\"", h, e.what());
      q.choice_notes.push_back(e.what());
    }
  }
  q.hint = "Each head gets d_model / heads numbers. Which division does not come out whole?";
  q.why = "The core refuses " + refused + ". The others split evenly: " + valid + ".";
  return q;
}

Question shuffle_question() {
  const std::string link = "scene=order&positions=sinusoidal";
  const Settings s = linked_settings(link);
  const std::vector<std::string> tokens = attn::tokenize(s.text);
  const std::vector<int> perm =
      attn::random_permutation(static_cast<int>(tokens.size()), static_cast<std::uint64_t>(s.seed));
  std::vector<std::string> shuffled;
  for (int p : perm) shuffled.push_back(tokens[static_cast<size_t>(p)]);
  auto check = [&](attn::Scheme scheme) {
    const attn::PipelineConfig c = pipeline_config(s, scheme);
    const attn::PipelineResult a = attn::run_pipeline(tokens, c), b = attn::run_pipeline(shuffled, c);
    return attn::compare_shuffled(a.mha.output, b.mha.output, perm);
  };
  const attn::ShuffleCheck none = check(attn::Scheme::None), sin = check(attn::kLessonScheme);
  Question q = question("shuffle_positions", AnswerKind::Choice, link,
                        "Run the shuffle test in the order-blindness scene");
  q.prompt = format(
      "The shuffle test on \"%s\": shuffle the tokens, then add the same sinusoidal position table as before "
      "(positions belong to slots, not to words). Is the attention output still the original output in the "
      "new "
      "order (allclose: true)?",
      s.text.c_str());
  q.choices = {"Yes: allclose stays true", "No: allclose becomes false"};
  q.answer = sin.allclose ? 0 : 1;
  q.hint = "After the shuffle, does 'cake' still get the same position vector as before?";
  const std::string numbers = format(
      "Without positions the largest difference is %.2g (allclose: %s). With the table added after shuffling "
      "it "
      "is %.2g (allclose: %s).",
      static_cast<double>(none.max_diff), none.allclose ? "true" : "false", static_cast<double>(sin.max_diff),
      sin.allclose ? "true" : "false");
  q.why = numbers + (sin.allclose
                         ? " Positions made no difference here."
                         : " Each word now picks up the clock reading of its new slot, so its query, key "
                           "and value change, and the blends with them: order is visible.");
  q.choice_notes = {numbers, numbers};
  return q;
}

// The scheme whose added table is a list of trained slots (the lesson's learned table).
attn::Scheme trained_table_scheme() {
  for (const attn::SchemeDef* d : attn::scheme_table()) {
    if (d->trained_table) return d->id;
  }
  throw std::logic_error("no position scheme has a trained table");
}

Question learned_question() {
  const std::string link = "scene=schemes&slots=128&length=400";
  const Settings s = linked_settings(link);
  attn::PipelineConfig c = pipeline_config(s, trained_table_scheme());
  Question q = question("learned_limit", AnswerKind::Choice, link,
                        "See the table run out in the position schemes scene");
  q.prompt = format(
      "A model uses a learned position table with %d slots (positions 0 to %d). A %d-token "
      "complaint arrives. What happens?",
      s.slots, s.slots - 1, s.length);
  q.choices = {format("It works: the table stretches to %d slots", s.length),
               format("Positions from %d on wrap round and reuse slots 0, 1, 2, ...", s.slots),
               format("It stops with an error at position %d: there is no slot for it", s.slots),
               format("The extra tokens all share the last slot, %d", s.slots - 1)};
  std::string outcome;
  try {
    const attn::Mat table = attn::additive_positions(c, s.length);  // (length, D)
    const auto last = static_cast<Eigen::Index>(s.slots);
    q.answer = 0;  // a row for every position, none of them a copy: the table stretched
    if (last < table.rows() && table.row(last) == table.row(0)) q.answer = 1;
    if (last < table.rows() && table.row(last) == table.row(last - 1)) q.answer = 3;
    outcome = "The core returned a table for every position.";
  } catch (const attn::InputError& e) {
    q.answer = 2;
    outcome = format("The core stops: \"%s\".", e.what());
  }
  c.positions = attn::kLessonScheme;
  const bool sin_ok = attn::additive_positions(c, s.length).rows() == s.length;
  q.hint =
      "A learned table is a list of vectors, one per slot, trained like any other weight. Where would a "
      "vector for a slot it never had come from?";
  q.why =
      outcome + (sin_ok ? format(" The sinusoidal clock has a reading for all %d positions, because it is a "
                                 "formula rather than a list.",
                                 s.length)
                        : std::string());
  for (size_t i = 0; i < q.choices.size(); ++i) q.choice_notes.push_back(outcome);
  return q;
}

Question refund_question() {
  const std::string link = "scene=order&positions=sinusoidal";
  const Settings s = linked_settings(link);
  auto run = [&](attn::Scheme scheme) {
    attn::SeededRouterConfig c;
    c.d_model = s.d_model, c.heads = s.heads, c.seed = static_cast<std::uint64_t>(s.seed);
    c.positions = scheme, c.learned_slots = s.slots;
    const attn::SeededRouter router(c);
    return std::array<attn::SeededRouterResult, 2>{router.classify(kEmails[0]), router.classify(kEmails[1])};
  };
  const auto plain = run(attn::Scheme::None), placed = run(attn::kLessonScheme);
  const double diff =
      std::fabs(static_cast<double>(plain[0].confidence) - static_cast<double>(plain[1].confidence));
  const bool same = plain[0].label == plain[1].label && diff <= 1e-5;
  Question q = question("refund_pair", AnswerKind::Choice, link,
                        "Compare the two emails in the order-blindness scene");
  q.prompt = format(
      "The router without positions reads \"%s\" and \"%s\". Do the two emails get the same label "
      "with the same confidence?",
      kEmails[0], kEmails[1]);
  q.choices = {"Yes: same label, same confidence", "No: the word order changes the confidence"};
  q.answer = same ? 0 : 1;
  q.hint =
      "Compare the words of the two emails, ignoring their order. What does attention without positions see?";
  const std::string numbers = format(
      "Without positions: '%s' at %.2f and '%s' at %.2f (confidences %s). With sinusoidal positions: %.4f "
      "and %.4f.",
      attn::SeededRouter::labels()[static_cast<size_t>(plain[0].label)].c_str(),
      static_cast<double>(plain[0].confidence),
      attn::SeededRouter::labels()[static_cast<size_t>(plain[1].label)].c_str(),
      static_cast<double>(plain[1].confidence), order_difference(diff).c_str(),
      static_cast<double>(placed[0].confidence), static_cast<double>(placed[1].confidence));
  q.why =
      numbers + (same ? " The two emails are the same bag of words; attention followed by averaging over the "
                        "tokens cannot tell which word came first."
                      : "");
  q.choice_notes = {numbers, numbers};
  return q;
}

Question rope_question() {
  const attn::RowVec qv = attn::embed_token("refund", 16, 7), kv = attn::embed_token("cake", 16, 7);
  const float target = attn::rope_score(qv, kv, 10, 7);
  int best = 0;
  float best_d = std::numeric_limits<float>::infinity();
  for (int p = 0; p <= 49; ++p) {
    const float d = std::fabs(attn::rope_score(qv, kv, p, 2) - target);
    if (d < best_d) best = p, best_d = d;
  }
  Question q = question("rope_gap", AnswerKind::Number, "scene=schemes&pos=10&pos2=7",
                        "Move the RoPE sliders in the position schemes scene");
  q.prompt =
      "With RoPE, a query at position 10 meets a key at position 7. Now the key sits at position 2: at which "
      "query position (0 to 49) is the score the same as before?";
  q.answer = best;
  q.hint =
      "RoPE turns the query and the key by angles set by their positions; in the score the two turns "
      "partly cancel. What is left?";
  q.why = format(
      "Position %d: the score depends only on the gap, 10 - 7 = 3 = %d - 2. Score at (10, 7): %.4f; "
      "at (%d, 2): %.4f.",
      best, best, static_cast<double>(target), best, static_cast<double>(attn::rope_score(qv, kv, best, 2)));
  q.wrong_note = [qv, kv, target](long long given) -> std::string {
    if (given < 0 || given > 49) return "The answer lies between 0 and 49.";
    const float sc = attn::rope_score(qv, kv, static_cast<int>(given), 2);
    return format("At (%lld, 2) the gap is %lld and the score is %.4f, not %.4f.", given, given - 2,
                  static_cast<double>(sc), static_cast<double>(target));
  };
  return q;
}

}  // namespace

std::vector<Question> build_questions() {
  return {clock_question(),   head_dim_question(), parameters_question(), invalid_heads_question(),
          shuffle_question(), learned_question(),  refund_question(),     rope_question()};
}

}  // namespace app
