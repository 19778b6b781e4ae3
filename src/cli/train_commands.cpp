// `attention_cli train` and `router --model`: the core's Trainer and the model_io JSON files, as JSON out.
#include "train_commands.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/positions.hpp"
#include "core/train/cost.hpp"
#include "core/train/trainer.hpp"
#include "head_json.hpp"
#include "model_io/model_json.hpp"
#include "run_clock.hpp"

namespace attn::cli {
namespace {

// The model's config as its file holds it, with the run's training options.
json config_json(const train::ModelConfig& c, const TrainOptions& o) {
  json j = model_io::config_json(c);
  j["steps"] = o.steps;
  j["batch"] = o.batch;
  j["learning_rate"] = o.lr;
  j["eval_every"] = o.eval_every;
  return j;
}

// Accuracy on the held-out emails with `extra` filler tokens in front; a learned table too short for
// them reports the core's error instead.
json longer_json(const train::Model& model, const train::Vocab& vocab, const train::Dataset& data,
                 int extra) {
  json out = {{"extra_tokens", extra}};
  try {
    const train::SetMetrics m = evaluate_set(model, vocab, train::lengthen(data.test, extra));
    out["test_accuracy"] = tidy(m.accuracy);
    out["flipped_pair_accuracy"] = tidy(m.pair_accuracy);
    out["max_pair_difference"] = tidy(m.max_pair_difference);
  } catch (const InputError& e) {
    out["error"] = e.what();
  }
  return out;
}

std::string rounded(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

// The run's estimated work (train::train_flops); InputError past train::kMaxTrainFlops.
double require_train_budget(const train::ModelConfig& c, const TrainOptions& o, const train::Dataset& data) {
  return require_train_flops(
      train::train_flops(c, train::train_work(data, o.steps, o.batch, o.eval_every, o.longer)));
}

// The router's measures with the heads of `off` switched off: the fields of `final`.
json metrics_json(const train::Trainer& trainer, const HeadSwitch* off) {
  const train::TrainingData& set = trainer.data();
  const train::SetMetrics tr = evaluate_set(trainer.model(), set.vocab, set.data.train, &set.train_ids, off);
  const train::SetMetrics te = evaluate_set(trainer.model(), set.vocab, set.data.test, nullptr, off);
  return {{"train_accuracy", tidy(tr.accuracy)},
          {"test_accuracy", tidy(te.accuracy)},
          {"test_loss", tidy(te.loss)},
          {"flipped_pair_accuracy", tidy(te.pair_accuracy)},
          {"max_pair_difference", tidy(te.max_pair_difference)}};
}

}  // namespace

double require_train_flops(double flops) {
  if (flops > train::kMaxTrainFlops) {
    throw InputError("train: this run needs about " + rounded(flops) +
                     " floating-point operations; allowed: up to " + rounded(train::kMaxTrainFlops) +
                     " (about " + rounded(train::kMaxTrainFlops / train::kMeasuredFlopsPerSecond / 60) +
                     " minutes at the speed of a 2-core test machine); use fewer --steps, a smaller --batch "
                     "or model");
  }
  return flops;
}

void use_induction_defaults(TrainOptions& o, bool steps_given, bool layers_given, bool batch_given,
                            bool eval_every_given) {
  const train::InductionConfig task;
  if (!steps_given) o.steps = 2000;
  if (!layers_given) o.layers = train::induction_model_config(task, Scheme::Rope, 1).layers;
  if (!batch_given) o.batch = task.batch;
  if (!eval_every_given) o.eval_every = 100;
}

json run_train(const TrainOptions& o) {
  if (o.task == "induction") return run_train_induction(o);
  if (o.task != "router") throw InputError("--task must be router or induction, not '" + o.task + "'");
  train::ModelConfig mc;
  mc.positions = parse_scheme(o.positions, train::trainable_schemes());
  require_range(o.steps, 0, 100000, "--steps");
  require_range(o.eval_every, 1, 1000000, "--eval-every");
  require_range(o.batch, 1, 4096, "--batch");
  require_range(o.longer, 0, kMaxTokens, "--longer (extra tokens)");
  require_range(o.layers, 1, 4, "--layers");  // as on the page
  if (!(o.lr > 0.0 && o.lr <= 1.0)) {
    throw InputError("--lr must be a learning rate in (0, 1], not " + std::to_string(o.lr));
  }
  mc.d_model = o.d_model;
  mc.heads = o.heads;
  mc.layers = o.layers;
  mc.d_ff = o.d_ff;
  mc.max_len = o.max_len;
  mc.causal = o.causal;
  mc.seed = o.seed;
  train::TrainConfig tc;
  tc.batch = o.batch;
  tc.learning_rate = static_cast<float>(o.lr);

  const auto t_start = Clock::now();
  const train::Dataset data = train::make_refund_dataset();
  mc.vocab = train::Vocab::build(data).size();
  mc.classes = data.classes();
  train::validate_config(mc);  // sizes and weights in words, before the work is counted
  HeadSwitch off = heads_off(o.off, o.ablate, mc.layers, mc.heads);
  const double flops = require_train_budget(mc, o, data);
  train::Trainer trainer(mc, tc, data);
  const train::Model& model = trainer.model();

  // 1. train in chunks of eval_every steps; the curve holds the mean minibatch loss of each chunk and the
  //    held-out accuracy after it. Only the steps count towards steps_per_second.
  json curve = json::array();
  const train::SetMetrics start = evaluate_set(model, trainer.vocab(), data.test);
  curve.push_back({{"step", 0},
                   {"loss", nullptr},
                   {"test_loss", tidy(start.loss)},
                   {"test_accuracy", tidy(start.accuracy)}});
  double train_seconds = 0.0;
  json reached = nullptr;  // {step, train_seconds} of the first evaluation at >= 99% test accuracy
  while (trainer.steps() < o.steps) {
    const int chunk = std::min(o.eval_every, o.steps - trainer.steps());
    const double loss = train_chunk(trainer, chunk, train_seconds);
    const train::SetMetrics m = evaluate_set(model, trainer.vocab(), data.test);
    curve.push_back({{"step", trainer.steps()},
                     {"loss", tidy(static_cast<float>(loss))},
                     {"test_loss", tidy(m.loss)},
                     {"test_accuracy", tidy(m.accuracy)}});
    if (reached.is_null() && m.accuracy >= 0.99f) {
      reached = {{"step", trainer.steps()}, {"train_seconds", std::round(train_seconds * 1e6) / 1e6}};
    }
  }

  // 2. final measures: both sets, the order-flipped twins, and longer emails.
  json final_json = metrics_json(trainer, nullptr);
  json longer = o.longer > 0 ? longer_json(model, trainer.vocab(), data, o.longer) : json(nullptr);

  json out = {{"config", config_json(model.config, o)},
              {"parameters", model.params.parameter_count()},
              {"estimated_flops", flops},
              {"data",
               {{"train_examples", data.train.size()},
                {"test_examples", data.test.size()},
                {"labels", data.label_names()}}},
              {"curve", std::move(curve)},
              {"final", final_json},
              {"longer_emails", longer},
              {"heads", roles_json(train::router_head_roles(model, trainer.vocab(), data.items, data.test))},
              {"reached_99", reached},
              {"train_seconds", std::round(train_seconds * 1e6) / 1e6},
              {"steps_per_second", train_seconds > 0 ? std::round(o.steps / train_seconds * 10) / 10 : 0.0}};
  // 3. each head switched off alone, and the heads of --off together (zeros, or their mean output over
  //    the training emails)
  const auto means = o.ablate == "mean" ? train::mean_head_outputs(model, trainer.data().train_ids)
                                        : std::vector<std::vector<std::vector<double>>>{};
  json ablation = json::array();
  for (const HeadSwitch& one : single_heads(mc.layers, mc.heads, means)) {
    const train::SetMetrics m = evaluate_set(model, trainer.vocab(), data.test, nullptr, &one);
    ablation.push_back({{"off", train::heads_off_names(one).front()},
                        {"test_accuracy", tidy(m.accuracy)},
                        {"flipped_pair_accuracy", tidy(m.pair_accuracy)},
                        {"test_loss", tidy(m.loss)}});
  }
  out["ablation"] = std::move(ablation);
  out["ablate"] = o.ablate;
  if (!o.off.empty()) {
    off.mean = means;
    out["ablated"] = metrics_json(trainer, &off);
    out["ablated"]["off"] = train::heads_off_names(off);
  }
  if (o.dump) {  // the weights, the vocabulary and the held-out emails as tokens
    out["weights"] = model_io::model_to_json_value(model, trainer.vocab(), data.label_names())["tensors"];
    out["vocab"] = trainer.vocab().words;
    json held_out = json::array();
    for (const auto& e : data.test) {
      held_out.push_back({{"tokens", train::Vocab::tokens(e.text)},
                          {"label", e.label},
                          {"keep", e.keep},
                          {"pair", e.pair},
                          {"template", e.template_id}});
    }
    out["held_out"] = std::move(held_out);
  }
  out["seconds"] = seconds_since(t_start);
  if (!o.timing) {  // the same seed then gives byte-identical output (and model file)
    for (const char* k : {"train_seconds", "steps_per_second", "seconds"}) out.erase(k);
    if (out["reached_99"].is_object()) out["reached_99"].erase("train_seconds");
  }

  // 3. the model file, with how it was trained.
  if (!o.out.empty()) {
    json info = final_json;
    info["steps"] = trainer.steps();
    info["batch"] = o.batch;
    info["learning_rate"] = o.lr;
    if (o.timing) info["seconds"] = out["seconds"];
    info["trained_by"] = "attention_cli train";
    model_io::save_model_file(o.out, model, trainer.vocab(), data.label_names(), info);
    out["model_file"] = o.out;
  }
  return out;
}

json run_router_model(const std::string& model_path, const std::string& text) {
  const model_io::LoadedModel m = model_io::load_model_file(model_path);
  const train::TextPrediction p = train::predict_text(m.model, m.vocab, text);
  json unknown = json::array();
  for (size_t i = 0; i < p.tokens.size(); ++i) {
    if (p.ids[i] == 0) unknown.push_back(p.tokens[i]);
  }
  const auto label = static_cast<size_t>(p.prediction.label);
  return {{"model", model_path},
          {"tokens", p.tokens},
          {"unknown_tokens", unknown},
          {"positions", scheme_name(m.model.config.positions)},
          {"labels", m.labels},
          {"label", m.labels[label]},
          {"confidence", tidy(p.prediction.confidence)},
          {"probabilities", tidy(p.prediction.probabilities)}};
}

}  // namespace attn::cli
