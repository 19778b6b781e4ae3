// The README's URL reference: every scene and setting with what it means (only the native build calls it,
// so the browser build links none of these sentences).
#include <string>
#include <utility>
#include <vector>

#include "app/logic/settings.hpp"
#include "app/logic/text.hpp"

namespace app {
namespace {

// What each setting of param_table() means, by name.
const char* meaning(const std::string& name) {
  static const std::vector<std::pair<const char*, const char*>> meanings = {
      {"scene", "which scene is open"},
      {"d_model", "width of each position or token vector"},
      {"base", "the sinusoidal base (10000 in the original transformer)"},
      {"pos", "the position on the clock, where the word sits, or RoPE's query position"},
      {"pos2", "the second position to compare with (RoPE: the key's)"},
      {"count", "how many positions the table shows"},
      {"length", "text length in tokens (naive schemes; the long email)"},
      {"emb", "the word's embedding"},
      {"heads", "number of attention heads"},
      {"text", "the input sentence"},
      {"positions", "the position scheme"},
      {"causal", "hide keys after each query"},
      {"seed",
       "seed of the random weights (train, induction: initial weights and batch order; lm: sampling and the "
       "roles' segment)"},
      {"head", "the enlarged head (mha) or the head shown per scheme (schemes)"},
      {"row", "the query token whose row every head shows side by side"},
      {"span", "how many tokens a grid shows: a window that zooms in on a long text"},
      {"from", "the window's first query token (its first row)"},
      {"key_from", "the window's first key token (its first column)"},
      {"heads_view",
       "the heads as grids or as text shaded by the query's weights; auto: text when a whole grid would have "
       "cells under 3 px"},
      {"perm", "the shuffle test's new order"},
      {"slots", "slots of the learned position table"},
      {"layers", "attention layers of the model to train"},
      {"train", "training runs or pauses; reset starts over with fresh weights, paused"},
      {"max_steps", "training stops at this step (the router also stops once 99% test accuracy holds)"},
      {"off",
       "heads switched off in the trained model (What each head does): the held-out measures, and the "
       "router's label for the email, are recomputed without them; lm: the pretrained model's next token, "
       "generation and grids"},
      {"ablate", "with off: a head switched off outputs zeros, or its mean output over the training emails"},
      {"model",
       "random (seeded) weights, the model trained in the train scene, or a model file the page fetches"},
      {"layer", "with model=trained: the layer whose heads are shown"},
      {"checkpoint",
       "a pretrained model's files the page fetches from its own site and opens (a llama2.c .bin with its "
       "tokenizer.bin, or a Hugging Face folder's files: for m/gpt2/ its config.json, its weights (the "
       "shards "
       "model.safetensors.index.json names, else model.safetensors) and tokenizer.json, else vocab.json and "
       "merges.txt)"},
      {"generate", "tokens the pretrained model writes after the text, one at a time"},
      {"temperature", "0 picks the most likely next token; above 0 draws it, seeded by seed"},
      {"grid", "the pretrained model's head shown enlarged, with the text's tokens on its axes"},
      {"find", "the role whose heads the model view marks: previous-token, induction or first-token"},
      {"answer", "the learner's answer to the scene's exercise"},
      {"colormap", "colours of weight heatmaps (signed tables use a diverging map)"},
      {"embed", "1 hides the menus and the scene list, for iframes"},
      {"view",
       "figure: only the scene's figure, its caption and the controls a lesson leaves unlocked, sized to "
       "the column's width (course pages; embed.js's default)"},
      {"hide", "panels and controls to hide (lesson mode)"},
      {"theme",
       "dark or light colours; auto follows the page's prefers-color-scheme (embed.js passes the course "
       "page's)"},
      {"font_scale", "text size, times the default (the browser's zoom scales it too)"},
      {"lock", "settings the learner cannot change: their controls are greyed, with a note (lesson mode)"},
      {"caption", "a short text above the figure (lesson mode)"},
      {"steps", "a guided sequence: each step a caption and settings, with Back / Next (lesson mode)"},
      {"step", "the step of `steps` shown"},
  };
  for (const auto& [n, m] : meanings) {
    if (name == n) return m;
  }
  return "(not documented: add it to src/app/logic/url_reference.cpp)";
}

}  // namespace

std::string url_reference_markdown() {
  std::string md = "| scene | what it shows |\n|---|---|\n";
  for (const SceneInfo& s : scene_table()) md += "| `" + std::string(s.id) + "` | " + s.title + " |\n";
  md += "\n| setting | allowed | used by | meaning |\n|---|---|---|---|\n";
  for (const ParamInfo& p : param_table()) {
    std::string allowed = p.allowed;
    for (size_t i = 0; (i = allowed.find('|', i)) != std::string::npos; i += 2) allowed.replace(i, 1, "\\|");
    std::string scenes;
    if (std::string(p.scenes) == "*") {
      scenes = "all";
    } else {
      for (const std::string& item : split_list(p.scenes, ',')) {
        if (is_scene(item)) scenes += (scenes.empty() ? "" : ", ") + item;
      }
      if (scenes.empty()) scenes = "reserved for the attention scenes";
    }
    md += "| `" + std::string(p.name) + "` | " + allowed + " | " + scenes + " | " + meaning(p.name) + " |\n";
  }
  return md;
}

}  // namespace app
