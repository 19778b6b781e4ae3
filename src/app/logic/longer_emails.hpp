// The Train scene's "longer emails" measure: the trained model's held-out accuracy with neutral filler
// tokens in front of each email, measured one email at a time so that whoever runs it (the compute worker,
// or the page's frame loop) stops between emails; and the worker's job and answer for it as bytes.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/logic/clock.hpp"
#include "app/logic/message_bytes.hpp"
#include "core/train/model.hpp"
#include "core/train/trainer.hpp"
#include "core/train/vocab.hpp"

namespace app {

inline constexpr std::array<int, 3> kLongerExtra = {8, 32, 128};  // filler tokens put in front

struct LongerResult {
  std::string error;  // e.g. the learned table's "position 32 is past the end ...", or ""
  attn::train::SetMetrics metrics;
};
using LongerResults = std::array<LongerResult, kLongerExtra.size()>;

// Where a measure is: every length before `lengths` is in `results`; `fraction` of all emails are measured.
struct LongerState {
  LongerResults results;
  std::uint32_t lengths = 0;
  float fraction = 0.0f;
  bool done() const { return lengths >= kLongerExtra.size(); }
};

class LongerMeasure {
 public:
  // One email, then more while budget_ms lasts; true once every length is measured.
  bool work(const attn::train::Model& model, const attn::train::Vocab& vocab, double budget_ms);
  const LongerState& state() const { return state_; }

 private:
  std::optional<attn::train::SetEvaluation> evaluation_;  // of length state_.lengths
  LongerState state_;
};

// The worker measures a copy of the page's model (its version says which); it answers with where its
// measure is now and then (kLongerProgressEveryMs), and once it is done.
inline constexpr std::uint32_t kLongerJobTag = 0x4a4e4f4c;     // "LONJ"
inline constexpr std::uint32_t kLongerAnswerTag = 0x414e4f4c;  // "LONA"
inline constexpr double kLongerProgressEveryMs = 250.0;

struct LongerJob {
  long long version = 0;  // the page's model version
  attn::train::Model model;
  attn::train::Vocab vocab;
};
struct LongerAnswer {
  long long version = 0;
  LongerState state;
};

Bytes encode_longer_job(long long version, const attn::train::Model& model, const attn::train::Vocab& vocab);
// The same bytes as parts: `head` holds the first (it must outlive them), the weights are the model's.
std::vector<Part> longer_job_parts(Writer& head, long long version, const attn::train::Model& model,
                                   const attn::train::Vocab& vocab);
LongerJob decode_longer_job(const Bytes& bytes);  // throws InputError when malformed
Bytes encode(const LongerAnswer& answer);
LongerAnswer decode_longer_answer(const Bytes& bytes);

// The page's side, kept in the LogicState: the measure of one model version, in the worker or here.
struct LongerStore {
  long long version = -1;  // the model version measured
  bool asked = false;      // its job went to the worker
  LongerMeasure local;     // the measure here, when no worker runs
  LongerState state;       // the worker's last answer, or the local measure's state
};

struct TrainedModel;
struct LongerProgress {
  const LongerState* state = nullptr;
  bool here = false;  // work left in this thread: call again next frame
};
// The measure of model `m`: in the compute worker when it runs (a copy of the model goes there once per
// version; its answers ask for frames), else here, about budget_ms (at least one email) per call.
LongerProgress measure_longer(const TrainedModel& m, double budget_ms);
// The worker's answer (the platform calls this as it arrives); one for another version is dropped.
void deliver_longer_answer(const LongerAnswer& answer);

// The worker's side: the last job it was given (a new one replaces it), measured in slices.
class LongerHost {
 public:
  void receive(LongerJob job);
  // About budget_ms of the job; returns whether work remains.
  bool work(double budget_ms);
  // The answer once the job is done (then the host is idle), else its progress when one is due.
  std::optional<LongerAnswer> take_answer();

 private:
  std::optional<LongerJob> job_;
  LongerMeasure measure_;
  Clock::time_point last_answer_{};
};

}  // namespace app
