// The app's side of the page's pretrained language model: the model that was opened (in the compute worker
// when it runs, else in the app's thread's host, which the desktop app provides), the open under way, the
// last answer and the question in flight.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/logic/lm_messages.hpp"

namespace app {

struct LmStore {
  LmInfo info;          // the last open's result (info.model 0: none yet)
  std::string opening;  // the files being opened ("" when none)
  long long opening_bytes = 0;
  long long last_open = 0;  // the newest open number given out
  bool in_worker = false;   // where the model is: the compute worker, or the app's thread
  // The app's thread's host, answering a question about the model it opened (the desktop app's; the page
  // has none: its models open in the worker, and the page's thread never loads the code that reads them).
  LmAnswer (*answer_here)(const LmRequest& q) = nullptr;
  // The last answer for the open model. Shared: a new answer or model may replace it between frames while
  // the frame that drew it still points at its grids and pieces (heatmaps()), so the scene keeps it too.
  std::shared_ptr<const LmAnswer> answer;
  std::optional<LmRequest> answered;  // the question `answer` answers
  std::optional<LmRequest> asked;     // the question in the worker now
  long long serial = 0;
  std::vector<LmHeadScores> roles;  // the open model's role scores, once measured
  int segment = 0;
  long long roles_model = 0;  // the model they were measured on
};

LmStore& lm_store();

// A new open number; `names` (bytes in all) are being opened from now on (shown until the info arrives).
long long lm_open_started(const std::string& names, long long bytes, bool in_worker);
// The result of open number info.model (older ones are dropped); the last answer goes with the old model.
void deliver_lm_info(const LmInfo& info);
// An answer from the worker (one for an older question or model is dropped).
void deliver_lm_answer(const LmAnswer& answer);
// The answer to `q` (its model and serial are filled here): the last answer when it answers the same
// question, else `q` is asked (of the worker, which answers later, or of the host here, now) and the last
// answer stays meanwhile; `waiting` says whether the worker is still answering. nullptr before any answer.
std::shared_ptr<const LmAnswer> lm_answer_for(LmRequest q, bool& waiting);
// Lets the open model go (its memory is returned); the scene shows "no model" again.
void lm_close();

}  // namespace app
