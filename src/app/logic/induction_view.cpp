// The Induction scene's measures of its session: evaluations, formation steps, comparison rows, a held-out
// sequence's attention and the prediction about switching the induction heads off.
#include "app/logic/induction_view.hpp"

#include <algorithm>
#include <cstdio>

#include "core/error.hpp"

namespace app::induction {

const attn::train::InductionConfig& task() {
  static const attn::train::InductionConfig t;
  return t;
}

attn::train::InductionMetrics evaluation(const train_ui::Curves& c, std::size_t e, int layers, int heads) {
  attn::train::InductionMetrics m;
  m.length = task().length;
  m.loss_first_half = c.first_half.at(e);
  m.loss_second_half = c.second_half.at(e);
  const auto n = static_cast<std::size_t>(layers * heads);
  if (c.scores.size() < (e + 1) * 2 * n) throw attn::InputError("an evaluation's head scores are missing");
  const float* row = c.scores.data() + e * 2 * n;  // previous-token scores, then prefix-matching ones
  for (auto* scores : {&m.previous_token, &m.induction}) {
    scores->assign(static_cast<std::size_t>(layers), std::vector<double>(static_cast<std::size_t>(heads)));
    for (auto& layer : *scores) {
      for (double& s : layer) s = *row++;
    }
  }
  return m;
}

Formed formed(const train_ui::Curves& c, int layers, int heads) {
  Formed f;
  for (std::size_t e = 0; e < c.eval_step.size(); ++e) {
    const attn::train::InductionMetrics m = evaluation(c, e, layers, heads);
    const int step = static_cast<int>(c.eval_step[e]);
    if (f.previous_token < 0 && attn::train::has_previous_token_head(m)) f.previous_token = step;
    if (f.induction < 0 && attn::train::has_induction_head(m)) f.induction = step;
  }
  return f;
}

std::optional<Row> row_of(const train_ui::SessionKey& key, const train_ui::Curves& c,
                          const nlohmann::json& info, int layers, int heads) {
  if (c.eval_step.empty() || !info.is_object() || !info.contains("eval_length") || !info.contains("steps") ||
      info["steps"] != static_cast<int>(c.eval_step.back()))
    return std::nullopt;
  Row r;
  r.positions = key.positions;
  r.seed = key.seed;
  r.steps = static_cast<int>(c.eval_step.back());
  r.formed = formed(c, layers, heads);
  const attn::train::InductionMetrics m = evaluation(c, c.eval_step.size() - 1, layers, heads);
  r.best_previous = *std::max_element(m.previous_token.front().begin(), m.previous_token.front().end());
  r.best_induction = *std::max_element(m.induction.back().begin(), m.induction.back().end());
  r.loss_first_half = m.loss_first_half;
  r.loss_second_half = m.loss_second_half;
  for (const nlohmann::json& at : info["eval_length"]) {
    AtLength a;
    a.length = at.value("length", 0);
    a.loss_second_half = at.value("loss_second_half", 0.0);
    a.error = at.value("error", "");
    r.longer.push_back(std::move(a));
  }
  return r;
}

std::string row_summary(const Row& r) {
  const auto when = [&](int step, const char* what, double best) {
    char buf[160];
    if (step >= 0) {
      std::snprintf(buf, sizeof buf, "%s formed by step %d (now %.2f)", what, step, best);
    } else {
      std::snprintf(buf, sizeof buf, "no %s by step %d (best %.2f)", what, r.steps, best);
    }
    return std::string(buf);
  };
  std::string out = attn::scheme_name(r.positions) + ": " +
                    when(r.formed.previous_token, "previous-token head", r.best_previous) + "; " +
                    when(r.formed.induction, "induction head", r.best_induction) + ". ";
  char buf[200];
  const double ratio = r.loss_first_half > 0 ? r.loss_second_half / r.loss_first_half : 1.0;
  std::snprintf(buf, sizeof buf, "The repeat's loss is %.2f against the first half's %.2f (%.0f%%).",
                r.loss_second_half, r.loss_first_half, 100.0 * ratio);
  out += buf;
  if (r.positions == attn::Scheme::None) {
    out += ratio < 0.9
               ? " Without positions the model still predicts some of the repeat: a causal mask lets a "
                 "token count how many came before it, so some order leaks in (Haviv et al., 2022)."
               : " Without positions no head can find the token after an earlier copy.";
  }
  for (const AtLength& a : r.longer) {
    if (!a.error.empty()) {
      out += " At " + std::to_string(a.length) +
             " tokens it cannot run at all: its learned table has no vector past its last slot.";
      break;
    }
  }
  return out;
}

nlohmann::json row_json(const Row& r) {
  nlohmann::json j;
  j["positions"] = attn::scheme_name(r.positions);
  j["seed"] = r.seed;
  j["steps"] = r.steps;
  const auto step = [](int s) { return s >= 0 ? nlohmann::json(s) : nlohmann::json(nullptr); };
  j["formed"]["previous_token"] = step(r.formed.previous_token);
  j["formed"]["induction"] = step(r.formed.induction);
  j["best_previous_token"] = r.best_previous;
  j["best_induction"] = r.best_induction;
  j["loss_first_half"] = r.loss_first_half;
  j["loss_second_half"] = r.loss_second_half;
  nlohmann::json& longer = j["eval_length"] = nlohmann::json::array();
  for (const AtLength& a : r.longer) {
    nlohmann::json at;
    at["length"] = a.length;
    if (a.error.empty()) {
      at["loss_second_half"] = a.loss_second_half;
    } else {
      at["error"] = a.error;
    }
    longer.push_back(std::move(at));
  }
  j["summary"] = row_summary(r);
  return j;
}

SequenceAttention sequence_attention(const attn::train::Model& model, const attn::HeadSwitch* off) {
  SequenceAttention out;
  out.ids = attn::train::induction_eval_set(model.config.seed, task().tokens, task().length, 1).front();
  attn::train::Forward f;
  model.forward(out.ids, f, off);
  for (int l = 0; l < model.config.layers; ++l) {
    for (int h = 0; h < model.config.heads; ++h) out.weights.push_back(f.weights(l, h));
  }
  return out;
}

attn::train::InductionMetrics measure(const attn::train::Model& model, const attn::HeadSwitch* off) {
  return attn::train::evaluate_induction(
      model,
      attn::train::induction_eval_set(model.config.seed, task().tokens, task().length, task().eval_sequences),
      off);
}

attn::HeadSwitch induction_heads(const attn::train::InductionMetrics& m) {
  const auto layers = m.induction.size();
  const auto heads = layers ? m.induction.front().size() : 0;
  attn::HeadSwitch off;
  off.off.assign(layers, std::vector<char>(heads, 0));
  for (std::size_t l = 1; l < layers; ++l) {
    for (std::size_t h = 0; h < heads; ++h) off.off[l][h] = m.induction[l][h] >= kSwitchFloor ? 1 : 0;
  }
  return off;
}

OffEffect off_effect(const attn::train::InductionMetrics& on, const attn::train::InductionMetrics& off) {
  if (off.loss_second_half >= 0.75 * off.loss_first_half) return OffEffect::BackUp;
  if (off.loss_second_half >= 1.5 * on.loss_second_half) return OffEffect::Rises;
  return OffEffect::Stays;
}

const char* off_effect_text(OffEffect e) {
  switch (e) {
    case OffEffect::BackUp:
      return "the repeat's loss climbs back to at least three quarters of the first half's";
    case OffEffect::Rises:
      return "the repeat's loss rises (by half or more) but stays well below the first half's";
    case OffEffect::Stays:
      return "the repeat's loss hardly moves";
  }
  return "";
}

}  // namespace app::induction
