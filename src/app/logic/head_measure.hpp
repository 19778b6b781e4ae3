// The Train scene's "What each head does" measures (no UI code): every head's role scores on the held-out
// emails, and the held-out measures with chosen heads switched off (zeroed, or replaced by their mean output
// over the training emails), computed an email at a time so that the frame that runs them stays short.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/model/transformer.hpp"
#include "core/train/head_roles.hpp"
#include "core/train/trainer.hpp"

namespace app {

// What a HeadMeasure has measured of its model.
struct HeadMeasures {
  std::vector<attn::train::HeadRole> roles;  // (layers x heads) once every held-out email is counted
  attn::train::SetMetrics all_on;            // the held-out measures with every head on ...
  attn::train::SetMetrics ablated;           // ... and with the heads switched off
  bool roles_done = false, all_on_done = false, ablated_done = false;
  std::string error;      // why the model could not be measured (an email it cannot read), or ""
  float fraction = 0.0f;  // share of the work done, 0 to 1
};

// The measures of one model (a new model needs a new HeadMeasure).
class HeadMeasure {
 public:
  // For a model of `layers` x `heads` heads.
  HeadMeasure(int layers, int heads);
  // About budget_ms of work (at least one email) on the model with the heads of `off` switched off (none:
  // no ablated measure; other heads than the last call's: it is measured again). mean: a switched-off head
  // outputs its mean output over the training emails (attn::train::mean_head_outputs, measured once)
  // instead of zeros. Returns true once everything is measured (or an error stopped it).
  bool work(const attn::train::Model& model, const attn::train::Vocab& vocab, const attn::HeadSwitch& off,
            bool mean, double budget_ms);
  const HeadMeasures& measures() const { return m_; }
  // The switch the ablated measure uses (with the mean outputs when mean); null while they are not measured.
  const attn::HeadSwitch* applied() const;

 private:
  attn::train::RouterRoleTally tally_;
  size_t next_role_ = 0;  // the next held-out email the tally counts
  attn::train::Forward forward_;
  std::optional<attn::train::SetEvaluation> all_on_, ablated_;  // made at their first email
  bool mean_ = false;
  attn::HeadSwitch zeros_, means_;  // the heads off; means_ with every head's mean output once measured
  HeadMeasures m_;
};

// A head's role in words: "the item to refund, 0.55" for a named head (its score), else "mixed".
std::string role_text(const attn::train::HeadRole& r);

// The heads of `off` as the URL writes them: "0.1,1.2" ("" for none).
std::string heads_off_text(const attn::HeadSwitch& off);
// The off= setting's heads in a model of layers x heads; when it names a head the model does not have (or
// is malformed), no head, and `error` says why ("off=2.0: ...").
attn::HeadSwitch heads_off_setting(const std::string& off, int layers, int heads, std::string& error);

}  // namespace app
