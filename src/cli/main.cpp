// attention_cli: the core's numbers as JSON for course authors and tests; bad input -> "error: ..." and
// exit 2.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "core/error.hpp"
#include "core/input_limits.hpp"
#include "lm_command.hpp"
#include "tokenize_command.hpp"
#include "train_commands.hpp"

namespace {

// Seeds are whole numbers that a JSON model file stores exactly: 0 .. 2^53 - 1 (no wrap-around of -1).
const CLI::Range kSeedRange(0LL, attn::kMaxSeed,
                            "a whole number from 0 to " + std::to_string(attn::kMaxSeed));

// Whole numbers on the command line are decimal digits with an optional minus: CLI11 alone reads 010 as 8
// (octal) and 0x10 as 16. Leading zeros are dropped (010 is ten); anything else (1e3, 2.5, an empty value)
// is refused, never rounded or wrapped.
const CLI::Validator kDecimal(
    [](std::string& s) -> std::string {
      const std::size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
      if (s.size() == sign || s.find_first_not_of("0123456789", sign) != std::string::npos) {
        return "'" + attn::one_line(s) + "' is not a whole number (decimal digits, e.g. 42)";
      }
      s.erase(sign, std::min(s.find_first_not_of('0', sign), s.size() - 1) - sign);
      return {};
    },
    "");  // no text in --help: the option's type (INT, UINT) says it

// An option holding a whole number (or a list of them): parsed as kDecimal says.
template <class T>
CLI::Option* whole(CLI::App* cmd, const std::string& name, T& value, const std::string& help) {
  return cmd->add_option(name, value, help)->transform(kDecimal);
}

// One line on stderr, whatever the message echoes (a newline in an input value cannot forge a second line).
int fail(const std::string& message) {
  std::cerr << "error: " << attn::one_line(message, 4000) << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace attn::cli;
  CLI::App app{"attention_cli: positional encodings, attention and the refund router as JSON"};
  app.require_subcommand(1);

  PeOptions pe;
  auto* pe_cmd = app.add_subcommand("pe", "a position table, one row per position");
  pe_cmd->add_option("--scheme", pe.scheme, attn::scheme_list(attn::schemes_for(attn::kUseTable)))
      ->capture_default_str();
  whole(pe_cmd, "--d-model", pe.d_model, "width of each position vector")->required();
  whole(pe_cmd, "--positions", pe.positions, "comma-separated positions, e.g. 0,1,44")
      ->delimiter(',')
      ->transform(CLI::Validator(
          [](std::string& s) { return s.empty() ? "an empty list; give positions such as 0,1,44" : ""; },
          ""));
  whole(pe_cmd, "--count", pe.count, "positions 0 .. N-1");
  pe_cmd->add_option("--base", pe.base, "sinusoidal base")->capture_default_str();
  whole(pe_cmd, "--max-len", pe.max_len, "slots of the learned table")->capture_default_str();
  auto* length_opt = whole(pe_cmd, "--length", pe.length,
                           "text length for the fraction scheme (default: last position + 1)");
  whole(pe_cmd, "--seed", pe.seed, "seed of the learned table")->capture_default_str()->check(kSeedRange);

  std::string attend_input;
  auto* attend_cmd = app.add_subcommand("attend", "single-head or multi-head attention on JSON input");
  attend_cmd->add_option("--input", attend_input, "JSON file, or - for stdin")->required();

  int d_model = 0, heads = 0;
  auto* params_cmd = app.add_subcommand("params", "parameter accounting of a multi-head layer");
  whole(params_cmd, "--d-model", d_model, "model width")->required();
  whole(params_cmd, "--heads", heads, "number of heads")->required();

  const std::string router_schemes = attn::scheme_list(attn::schemes_for(attn::kUseRouter));
  RouterOptions router;
  std::string router_model;
  auto* router_cmd =
      app.add_subcommand("router", "label an email with the seeded or a trained refund router");
  router_cmd->add_option("--text", router.text, "the email")->required();
  auto* model_opt = router_cmd->add_option("--model", router_model,
                                           "a model file from `train --out` (else seeded weights)");
  for (auto* opt : {router_cmd->add_option("--positions", router.positions, router_schemes),
                    whole(router_cmd, "--seed", router.seed, "weights seed")->check(kSeedRange),
                    whole(router_cmd, "--d-model", router.d_model, "model width"),
                    whole(router_cmd, "--heads", router.heads, "number of heads"),
                    whole(router_cmd, "--max-len", router.max_len, "slots of the learned table")}) {
    opt->capture_default_str()->excludes(model_opt);  // a model file brings its own settings
  }

  TrainOptions train;
  auto* train_cmd = app.add_subcommand(
      "train",
      "train the refund router or the induction task's language model; curve, measures and heads as JSON");
  train_cmd
      ->add_option("--task", train.task, "router, or induction: next-token prediction of repeated sequences")
      ->check(CLI::IsMember({"router", "induction"}))
      ->capture_default_str();
  train_cmd->add_option("--positions", train.positions, router_schemes)->capture_default_str();
  auto* steps_opt = whole(train_cmd, "--steps", train.steps, "Adam steps (minibatches; induction: 2000)")
                        ->capture_default_str();
  whole(train_cmd, "--seed", train.seed, "initial weights and minibatch order")
      ->capture_default_str()
      ->check(kSeedRange);
  train_cmd->add_option("--out", train.out, "save the trained model to this JSON file");
  whole(train_cmd, "--d-model", train.d_model, "model width")->capture_default_str();
  whole(train_cmd, "--heads", train.heads, "attention heads per layer")->capture_default_str();
  auto* layers_opt =
      whole(train_cmd, "--layers", train.layers, "attention layers (induction: 2)")->capture_default_str();
  whole(train_cmd, "--d-ff", train.d_ff, "feed-forward width (0: none)")->capture_default_str();
  whole(train_cmd, "--max-len", train.max_len, "slots of the learned position table")->capture_default_str();
  train_cmd->add_flag("--causal", train.causal, "mask keys after each query");
  bool no_timing = false;
  train_cmd->add_flag("--no-timing", no_timing, "leave out the wall-clock fields (byte-identical runs)");
  auto* batch_opt =
      whole(train_cmd, "--batch", train.batch, "emails per minibatch (induction: sequences, 16)")
          ->capture_default_str();
  train_cmd->add_option("--lr", train.lr, "Adam learning rate")->capture_default_str();
  auto* eval_every_opt =
      whole(train_cmd, "--eval-every", train.eval_every, "test measures every K steps (induction: 100)")
          ->capture_default_str();
  train_cmd->add_flag("--dump", train.dump, "also print the weights and the held-out data (for checks)");
  train_cmd->add_option("--off", train.off, "heads switched off for the `ablated` measures: L.H,... from 0");
  train_cmd->add_option("--ablate", train.ablate, "a switched-off head outputs zero, or its mean output")
      ->check(CLI::IsMember({"zero", "mean"}))
      ->capture_default_str();
  whole(train_cmd, "--tokens", train.tokens, "induction: the vocabulary of the sequences")
      ->capture_default_str();
  whole(train_cmd, "--length", train.length, "induction: the training length")->capture_default_str();
  whole(train_cmd, "--eval-length", train.eval_lengths,
        "induction: also measure at these lengths (even, e.g. 64,128)")
      ->delimiter(',');
  whole(train_cmd, "--longer", train.longer, "extra tokens for the longer-email accuracy (0: skip)")
      ->capture_default_str();

  std::string block_input;
  auto* block_cmd = app.add_subcommand("block", "one encoder block with every intermediate");
  block_cmd->add_option("--input", block_input, "JSON file, or - for stdin")->required();

  LmOptions lm;
  auto* lm_cmd = app.add_subcommand("lm",
                                    "a pretrained language model (llama2.c, Hugging Face Llama) on a text: "
                                    "next tokens, generation, attention");
  lm_cmd
      ->add_option(
          "--model", lm.model,
          "a llama2.c .bin checkpoint (legacy or version 1), or a Hugging Face Llama or GPT-2 folder "
          "(config.json, model.safetensors)")
      ->required();
  lm_cmd->add_option("--tokenizer", lm.tokenizer, "its tokenizer.bin (for --text and for pieces)");
  auto* lm_text = lm_cmd->add_option(
      "--text", lm.text,
      "the prompt as text (needs --tokenizer, or the folder's tokenizer.json or vocab.json + merges.txt)");
  auto* lm_ids = whole(lm_cmd, "--ids", lm.ids, "the prompt as token ids, e.g. 1,450,2501")->delimiter(',');
  whole(lm_cmd, "--generate", lm.generate, "tokens to generate after the prompt")->capture_default_str();
  auto* lm_temp =
      lm_cmd->add_option("--temperature", lm.temperature, "sample at this temperature (leave out: greedy)");
  lm_cmd->add_option("--seed", lm.seed, "the sampling seed")->check(kSeedRange)->capture_default_str();
  lm_cmd->add_flag("--attention", lm.attention, "also print every head's weights, [layer][head][T][T]");
  lm_cmd->add_option("--off", lm.off, "heads switched off: L.H,... from 0");
  lm_cmd->add_flag(
      "--roles", lm.roles,
      "measure every head on a repeated random segment: previous-token, induction and first-token "
      "scores and a role");

  TokenizeOptions tok;
  auto* tok_cmd = app.add_subcommand(
      "tokenize",
      "a byte-level BPE tokenizer (GPT-2, Hugging Face tokenizer.json) on a text: ids and pieces");
  tok_cmd
      ->add_option("--tokenizer", tok.tokenizer,
                   "a folder with tokenizer.json, or with GPT-2's vocab.json and merges.txt")
      ->required();
  auto* tok_text = tok_cmd->add_option("--text", tok.text, "the text");
  tok_cmd->add_option("--text-file", tok.text_file, "a file holding the text (any bytes)")
      ->excludes(tok_text);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }

  try {
    json out;
    if (*pe_cmd) {
      pe.length_given = length_opt->count() > 0;
      out = run_pe(pe);
    }
    if (*attend_cmd) out = run_attend(attend_input);
    if (*params_cmd) out = run_params(d_model, heads);
    if (*router_cmd) {
      out = router_model.empty() ? run_router(router) : run_router_model(router_model, router.text);
    }
    if (*train_cmd) {
      train.timing = !no_timing;
      if (train.task == "induction") {
        use_induction_defaults(train, steps_opt->count() > 0, layers_opt->count() > 0, batch_opt->count() > 0,
                               eval_every_opt->count() > 0);
      }
      out = run_train(train);
    }
    if (*block_cmd) out = run_block(block_input);
    if (*lm_cmd) {
      lm.text_given = lm_text->count() > 0, lm.ids_given = lm_ids->count() > 0;
      lm.temperature_given = lm_temp->count() > 0;
      out = run_lm(lm);
    }
    if (*tok_cmd) {
      tok.text_given = tok_text->count() > 0;
      out = run_tokenize(tok);
    }
    // lm's generated text and tokenize's pieces may end inside a character: invalid bytes print as U+FFFD
    const bool replace = *lm_cmd || *tok_cmd;
    std::cout << out.dump(-1, ' ', false,
                          replace ? json::error_handler_t::replace : json::error_handler_t::strict)
              << "\n";
    return 0;
  } catch (const attn::InputError& e) {
    return fail(e.what());
  } catch (const json::exception& e) {
    return fail(std::string("the JSON input has a wrong type or field: ") + e.what());
  } catch (const std::bad_alloc&) {
    return fail("the input is too large to fit in memory");
  } catch (const std::exception& e) {
    return fail(std::string("could not complete the command: ") + e.what());
  }
}
