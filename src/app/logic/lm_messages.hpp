// A pretrained language model in the page (the Real model scene): what the app asks of the model's holder
// (the compute worker, or this thread) and what it answers, as structs and as the worker's message bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/logic/message_bytes.hpp"
#include "core/types.hpp"

namespace app {

inline constexpr std::uint32_t kLmRequestTag = 0x51524d4c;  // "LMRQ"
inline constexpr std::uint32_t kLmAnswerTag = 0x4e414d4c;   // "LMAN"
inline constexpr std::uint32_t kLmInfoTag = 0x464e4d4c;     // "LMNF"
inline constexpr int kLmGaps = 64;                          // the gaps of LmAnswer::gap_scores: -64 .. 64

// The model that was opened (or why it was not): its format and sizes.
struct LmInfo {
  long long model = 0;  // the open's number (each open, refused or not, has a new one)
  std::string error;    // "" when the model opened
  std::string source;   // its file names, e.g. "stories15M.bin, tokenizer.bin"
  std::string format;   // "llama2c", "llama" or "gpt2"
  int d_model = 0, heads = 0, kv_heads = 0, layers = 0, vocab = 0, max_len = 0, d_ff = 0;
  bool tied = false, has_tokenizer = false, learned_positions = false;
  long long parameters = 0;
  double seconds = 0;    // to read and build it
  long long memory = 0;  // the holder's wasm memory once it is open, bytes (0 outside wasm)
  // (slots, d_model): a learned table as the file has it (GPT-2), else null. Shared, not a matrix: an
  // LmInfo is copied on every delivery, and the page's wasm traps on copying an empty Eigen matrix
  // (message_bytes.cpp, Reader::mat).
  std::shared_ptr<const attn::Mat> position_table;
  bool ok() const { return error.empty() && model > 0; }
};

// One question about the open model: the prompt (text through its tokenizer, or ids), heads switched off,
// tokens to generate, and whether to measure the heads' roles.
struct LmRequest {
  long long serial = 0;  // grows with each request
  long long model = 0;   // the LmInfo::model it is for (an answer for an older model is dropped)
  bool use_text = true;
  std::string text;
  std::vector<int> ids;
  std::string off;  // "layer.head,..." from 0
  int generate = 0;
  double temperature = 0;  // 0: greedy
  std::uint64_t seed = 1;
  bool roles = false;
  int grid = -1;       // layer * heads + head of the enlarged head: its RoPE scores by gap (-1: none)
  bool close = false;  // let the model go instead (its memory is returned)
  // Whether `o` asks the same question (serials aside).
  bool same_question(const LmRequest& o) const;
};

struct LmNext {
  int id = 0;
  double p = 0;
  std::string piece;
};

struct LmHeadScores {
  int layer = 0, head = 0;
  float previous_token = 0, induction = 0, first_token = 0;
  std::string role;  // "previous_token", "induction", "first_token" or "mixed"
};

struct LmAnswer {
  long long serial = 0, model = 0;
  std::string error;     // "" or why the question could not be answered (text too long, bad off=, ...)
  std::vector<int> ids;  // the prompt's ids, then the generated ones
  int prompt = 0;        // how many are the prompt's
  std::vector<std::string> pieces;  // (ids) what each shows
  std::string text;                 // the ids' text ("" without a tokenizer)
  std::vector<LmNext> next;         // the last position's 10 most likely next tokens
  std::vector<attn::Mat> grids;     // (layers * heads) each (T, T): layer-major attention weights
  std::vector<LmHeadScores> roles;  // when asked: every head, layer-major
  int segment = 0;                  // the roles' repeated segment length
  // A RoPE model's enlarged head (LmRequest::grid): the last token's query and the key it weights most
  // (gap_key), taken before RoPE turns them, scored at every gap -kLmGaps .. kLmGaps (query position - key
  // position): 2 kLmGaps + 1 of them, or none (a vector: an empty Eigen matrix's copy traps in the page)
  std::vector<float> gap_scores;
  int gap_key = -1;
  double seconds = 0;  // to compute it

  // An answer that says only why the question `q` could not be answered.
  static LmAnswer failure(const LmRequest& q, std::string why) {
    LmAnswer a;
    a.serial = q.serial;
    a.model = q.model;
    a.error = std::move(why);
    return a;
  }
};

Bytes encode(const LmInfo& info);
LmInfo decode_lm_info(const Bytes& bytes);  // throws InputError when malformed
Bytes encode(const LmRequest& request);
LmRequest decode_lm_request(const Bytes& bytes);
Bytes encode(const LmAnswer& answer);
LmAnswer decode_lm_answer(const Bytes& bytes);

}  // namespace app
