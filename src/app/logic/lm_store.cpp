// The app's side of the pretrained language model: opens, questions and answers, here or in the worker.
#include "app/logic/lm_store.hpp"

#include "app/logic/compute_link.hpp"

namespace app {
namespace {

void keep_roles(LmStore& st, const LmAnswer& a) {
  if (a.error.empty() && !a.roles.empty()) {
    st.roles = a.roles;
    st.segment = a.segment;
    st.roles_model = a.model;
  }
}

// The answers, the question in flight and the roles go: they were for a model that is gone.
void forget_answers(LmStore& st) {
  st.answer.reset();
  st.answered.reset();
  st.asked.reset();
  st.roles.clear();
  st.roles_model = 0;
}

}  // namespace

LmStore& lm_store() {
  static LmStore s;
  return s;
}

long long lm_open_started(const std::string& names, long long bytes, bool in_worker) {
  LmStore& st = lm_store();
  st.opening = names;
  st.opening_bytes = bytes;
  st.in_worker = in_worker;
  return ++st.last_open;
}

void deliver_lm_info(const LmInfo& info) {
  LmStore& st = lm_store();
  if (info.model != st.last_open) return;
  st.opening.clear();
  st.info = info;
  forget_answers(st);
}

void deliver_lm_answer(const LmAnswer& answer) {
  LmStore& st = lm_store();
  if (!st.asked || answer.serial != st.asked->serial || answer.model != st.info.model) return;
  st.answered = st.asked;
  st.asked.reset();
  keep_roles(st, answer);
  st.answer = std::make_shared<const LmAnswer>(answer);
}

std::shared_ptr<const LmAnswer> lm_answer_for(LmRequest q, bool& waiting) {
  LmStore& st = lm_store();
  waiting = false;
  if (!st.info.ok()) return nullptr;
  q.model = st.info.model;
  if (st.answer && st.answered && st.answered->same_question(q)) return st.answer;
  if (st.asked) {  // one question at a time: a newer one is asked once this answer is in
    waiting = true;
    return st.answer;
  }
  q.serial = ++st.serial;
  if (!st.in_worker && !st.answer_here) {
    st.answer = std::make_shared<const LmAnswer>(
        LmAnswer::failure(q, "no model host in this thread: open the model again"));
    st.answered = q;
    return st.answer;
  }
  if (!st.in_worker) {
    LmAnswer a = st.answer_here(q);
    keep_roles(st, a);
    st.answer = std::make_shared<const LmAnswer>(std::move(a));
    st.answered = q;
    return st.answer;
  }
  if (ComputeLink* link = compute_link()) {
    link->post(encode(q));
    st.asked = q;
    waiting = true;
  } else {
    st.answer = std::make_shared<const LmAnswer>(
        LmAnswer::failure(q, "the compute worker that holds the model stopped: open it again"));
    st.answered = q;
  }
  return st.answer;
}

void lm_close() {
  LmStore& st = lm_store();
  if (st.info.ok()) {
    LmRequest q;
    q.serial = ++st.serial;
    q.model = st.info.model;
    q.close = true;
    if (st.in_worker) {
      if (ComputeLink* link = compute_link()) link->post(encode(q));
    } else if (st.answer_here) {
      st.answer_here(q);
    }
  }
  st.info = LmInfo{};
  forget_answers(st);
}

}  // namespace app
