// The messages between the Train scene and its training session, which may run in another thread (the
// page's compute worker): commands to the session, updates from it. Each travels as bytes, its fields in
// order in the sender's byte order, which is the receiver's (one machine, one build).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/logic/message_bytes.hpp"
#include "app/logic/train_session.hpp"

namespace app::train_ui {

inline constexpr std::uint32_t kCommandTag = 0x434e5254;          // "TRNC"
inline constexpr std::uint32_t kUpdateTag = 0x554e5254;           // "TRNU": the router's session
inline constexpr std::uint32_t kInductionUpdateTag = 0x55444e49;  // "INDU": the induction task's
inline std::uint32_t update_tag(Task task) {
  return task == Task::Induction ? kInductionUpdateTag : kUpdateTag;
}

struct Command {
  // a new session for key; no trainer; run or pause (and max_steps); `acked` updates were applied
  enum class Kind { Start, Detach, Run, Ack };
  Kind kind = Kind::Run;
  long long generation = 0;  // grows with every Start and Detach: updates of an older one are stale
  SessionKey key;            // Start
  bool run = false;          // Run
  int max_steps = 0;         // Run
  long long acked = 0;       // Ack: the updates of this generation applied so far
};

// What changed in a session since the last update.
struct Update {
  long long generation = 0;  // the Command::generation it answers
  Task task = Task::Router;  // its session's (it travels as the tag: the page hands it to that scene)
  Stop stop = Stop::None;    // why the session stopped running (it then runs no more until told to)
  Progress progress;
  Curves tails;  // the values appended to each curve since the last update ...
  long long loss_from = 0, eval_from = 0, train_from = 0;  // ... starting at these indices
  bool has_model = false;                                  // a new snapshot:
  std::vector<float> weights;  // every tensor of Params::named_tensors(), in order, row-major
  nlohmann::json info;         // Session::snapshot_info()
};

std::vector<std::uint8_t> encode(const Command& c);
std::vector<std::uint8_t> encode(const Update& u);
// Throw InputError for bytes that are not a well-formed message of that kind.
Command decode_command(const std::vector<std::uint8_t>& bytes);
Update decode_update(const std::vector<std::uint8_t>& bytes);

// The weights of `model` in message order, and back (InputError when the count does not fit).
std::vector<float> flat_weights(const attn::train::Model& model);
void set_weights(attn::train::Model& model, const std::vector<float>& weights);

}  // namespace app::train_ui
