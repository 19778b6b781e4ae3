// `attention_cli train --task induction`: the induction task's language model trained from a seed, its
// half losses and per-head scores as it trains, each head switched off, and other lengths.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/train/cost.hpp"
#include "core/train/induction.hpp"
#include "head_json.hpp"
#include "model_io/model_json.hpp"
#include "run_clock.hpp"
#include "train_commands.hpp"

namespace attn::cli {
namespace {

// One evaluation's measures: {length, loss_first_half, loss_second_half, previous_token, induction}.
json metrics_json(const train::InductionMetrics& m) {
  return {{"length", m.length},
          {"loss_first_half", tidy(m.loss_first_half)},
          {"loss_second_half", tidy(m.loss_second_half)},
          {"previous_token", tidy(m.previous_token)},
          {"induction", tidy(m.induction)}};
}

}  // namespace

json run_train_induction(const TrainOptions& o) {
  require_range(o.steps, 0, 100000, "--steps");
  require_range(o.eval_every, 1, 1000000, "--eval-every");
  require_range(o.layers, 1, 4, "--layers");
  if (!(o.lr > 0.0 && o.lr <= 1.0)) {
    throw InputError("--lr must be a learning rate in (0, 1], not " + std::to_string(o.lr));
  }
  if (!o.out.empty()) {
    throw InputError("--out saves router models; the induction task's model is not written to a file");
  }
  if (o.d_ff != 0) throw InputError("the induction task's model is attention-only: leave out --d-ff");
  train::InductionConfig task;
  task.tokens = o.tokens;
  task.length = o.length;
  task.batch = o.batch;
  task.learning_rate = static_cast<float>(o.lr);
  require_range(task.batch, 1, 4096, "--batch");
  require_range(task.length, 4, 256, "--length");
  require_range(task.tokens, 2, 4096, "--tokens");
  if (o.eval_lengths.size() > 8) throw InputError("--eval-length takes at most 8 lengths");
  for (const int length : o.eval_lengths) {
    require_range(length, 4, 1024, "--eval-length");
    if (length % 2 != 0) throw_input_error({"--eval-length must be even (two equal halves), not ", length});
  }
  if (task.length % 2 != 0)
    throw_input_error({"--length must be even (two equal halves), not ", task.length});
  train::ModelConfig mc =
      train::induction_model_config(task, parse_scheme(o.positions, train::trainable_schemes()), o.seed);
  mc.d_model = o.d_model;
  mc.heads = o.heads;
  mc.layers = o.layers;
  train::validate_config(mc);
  HeadSwitch off = heads_off(o.off, o.ablate, mc.layers, mc.heads);

  // the work, counted before it starts: every step's batch, each evaluation, the ablations
  train::TrainWork work;
  work.steps = o.steps;
  work.batch = task.batch;
  work.eval_every = o.eval_every;
  work.test_examples =
      task.eval_sequences * (2 + mc.layers * mc.heads + static_cast<int>(o.eval_lengths.size()));
  work.tokens = task.length;
  for (const int length : o.eval_lengths) work.tokens = std::max(work.tokens, length);
  const double flops = require_train_flops(train::train_flops(mc, work));

  const auto t_start = Clock::now();
  train::InductionTrainer trainer(task, mc);
  const train::Model& model = trainer.model();

  // 1. train in chunks of eval_every steps; after each, the half losses and every head's scores
  json curve = json::array();
  json formed = {{"previous_token", nullptr}, {"induction", nullptr}};
  const auto measure = [&](json loss) {
    const train::InductionMetrics m = trainer.evaluate();
    json point = metrics_json(m);
    point.erase("length");
    point["step"] = trainer.steps();
    point["loss"] = std::move(loss);
    if (formed["previous_token"].is_null() && train::has_previous_token_head(m)) {
      formed["previous_token"] = trainer.steps();
    }
    if (formed["induction"].is_null() && train::has_induction_head(m)) formed["induction"] = trainer.steps();
    curve.push_back(std::move(point));
  };
  measure(nullptr);
  double train_seconds = 0.0;
  while (trainer.steps() < o.steps) {
    const int chunk = std::min(o.eval_every, o.steps - trainer.steps());
    measure(tidy(train_chunk(trainer, chunk, train_seconds)));
  }

  // 2. the final measures, the roles they give, and each head switched off alone
  const train::InductionMetrics final_m = trainer.evaluate();
  json config = model_io::config_json(model.config);
  config["norm"] = "pre";
  config["output"] = "next_token";
  config["tokens"] = task.tokens;
  config["length"] = task.length;
  config["steps"] = o.steps;
  config["batch"] = task.batch;
  config["learning_rate"] = o.lr;
  config["eval_every"] = o.eval_every;
  config["eval_sequences"] = task.eval_sequences;
  json out = {{"task", "induction"},
              {"config", std::move(config)},
              {"parameters", model.params.parameter_count()},
              {"estimated_flops", flops},
              {"curve", std::move(curve)},
              {"final", metrics_json(final_m)},
              {"loss_first_half", tidy(final_m.loss_first_half)},
              {"loss_second_half", tidy(final_m.loss_second_half)},
              {"previous_token", tidy(final_m.previous_token)},
              {"induction", tidy(final_m.induction)},
              {"formed", formed},
              {"heads", roles_json(train::induction_head_roles(final_m))}};
  const auto means =
      o.ablate == "mean"
          ? train::mean_head_outputs(
                model, train::induction_eval_set(mc.seed, task.tokens, task.length, task.eval_sequences))
          : std::vector<std::vector<std::vector<double>>>{};
  json ablation = json::array();
  for (const HeadSwitch& one : single_heads(mc.layers, mc.heads, means)) {
    const train::InductionMetrics m = trainer.evaluate(0, &one);
    ablation.push_back({{"off", train::heads_off_names(one).front()},
                        {"loss_first_half", tidy(m.loss_first_half)},
                        {"loss_second_half", tidy(m.loss_second_half)}});
  }
  out["ablation"] = std::move(ablation);
  out["ablate"] = o.ablate;
  if (!o.off.empty()) {
    off.mean = means;
    out["ablated"] = metrics_json(trainer.evaluate(0, &off));
    out["ablated"]["off"] = train::heads_off_names(off);
  }
  // 3. other lengths: a learned table stops at its last slot, the other schemes stretch
  if (!o.eval_lengths.empty()) {
    nlohmann::json& at = out["eval_length"] = nlohmann::json::array();
    for (const int length : o.eval_lengths) {
      try {
        at.push_back(metrics_json(trainer.evaluate(length)));
      } catch (const InputError& e) {
        at.push_back({{"length", length}, {"error", e.what()}});
      }
      if (o.dump)
        at.back()["held_out"] = train::induction_eval_set(mc.seed, task.tokens, length, task.eval_sequences);
    }
  }
  if (o.dump) {  // the weights and the held-out sequences
    train::Vocab names;
    for (int i = 0; i < task.tokens; ++i) names.words.push_back(std::to_string(i));
    out["weights"] = model_io::model_to_json_value(model, names, names.words)["tensors"];
    out["held_out"] = train::induction_eval_set(mc.seed, task.tokens, task.length, task.eval_sequences);
  }
  out["train_seconds"] = std::round(train_seconds * 1e6) / 1e6;
  out["steps_per_second"] = train_seconds > 0 ? std::round(o.steps / train_seconds * 10) / 10 : 0.0;
  out["seconds"] = seconds_since(t_start);
  if (!o.timing) {
    for (const char* k : {"train_seconds", "steps_per_second", "seconds"}) out.erase(k);
  }
  return out;
}

}  // namespace attn::cli
