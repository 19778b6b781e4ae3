// The holder of the page's pretrained language model: opens a checkpoint's files, answers LmRequests
// (ids, pieces, the next token's top 10, generation, every head's grid, role scores) and lets the model go.
// It runs in the page's compute worker (src/platform/compute_web.cpp), or in the app's thread on the
// desktop, in the tests and where no worker runs: the same code either way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/logic/lm_messages.hpp"
#include "core/lm/lm_model.hpp"
#include "core/rng.hpp"
#include "model_io/checkpoint.hpp"

namespace app {

class LmHost {
 public:
  // File `index` of `count` of open number `open` (a file of another open drops the earlier one's files);
  // the last one opens them all: the model it replaces goes first. Returns the info once opened (or not).
  std::optional<LmInfo> add_file(long long open, int index, int count, attn::model_io::NamedFile file);
  // The files, opened as open number `open`.
  LmInfo open(long long open, std::vector<attn::model_io::NamedFile> files);
  LmAnswer answer(const LmRequest& q);
  bool has_model() const { return checkpoint_.has_value(); }

 private:
  // The last answer's question and forward (its key/value cache): a question that asks only for more
  // generated ids continues it, one step per new id.
  struct Kept {
    LmRequest q;
    std::vector<int> ids;
    attn::lm::LmForward f;
    attn::Rng rng{1};
  };
  // Whether the kept forward answers q: q asks what it asked but for more generated ids, the roles or
  // another enlarged head.
  bool continues_kept(const LmRequest& q) const;
  std::optional<attn::model_io::Checkpoint> checkpoint_;
  std::optional<Kept> kept_;
  long long model_ = 0;
  long long open_ = 0;  // the open whose files are arriving
  std::vector<attn::model_io::NamedFile> files_;
};

}  // namespace app
