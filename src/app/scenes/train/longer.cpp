// The Train scene's "Longer emails" panel: held-out accuracy with filler tokens in front, and the advice
// that goes with it (a model is only as good as the lengths it was trained on).
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>

#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"
#include "core/tokenizer.hpp"
#include "core/train/set_chunks.hpp"
#include "core/train/trainer.hpp"

namespace app::train_ui {
namespace {

constexpr std::array<int, 3> kExtra = {8, 32, 128};  // filler tokens put in front of each held-out email

struct LongerRun {
  bool done = false;
  std::string error;  // e.g. the learned table's "position 32 is past the end ..."
  attn::train::SetMetrics metrics;
  std::vector<std::vector<attn::train::Example>> chunks;  // the lengthened emails still to measure
  size_t next = 0;                                        // the next chunk
  attn::train::SetTally tally;                            // the chunks measured so far
};

struct LongerData {
  long long version = -1;
  std::array<LongerRun, kExtra.size()> runs;
};

// The longest training email, in tokens (the data set is fixed: computed once).
int longest_training_email() {
  static const int longest = [] {
    int n = 0;
    for (const attn::train::Example& e : refund_data().train)
      n = std::max(n, static_cast<int>(attn::tokenize(e.text).size()));
    return n;
  }();
  return longest;
}

// Measures the missing lengths a few emails at a time for at most about kBudgetMs per frame, so a pause
// never stalls the page; true when every length is measured.
constexpr double kBudgetMs = 6.0;
constexpr size_t kEmailsPerChunk = 2;  // a twin or two: a few milliseconds at +128 tokens in the page

bool measure_some(LongerData& d, const TrainedModel& m) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  if (d.version != m.version) d = LongerData{m.version, {}};
  for (size_t i = 0; i < kExtra.size(); ++i) {
    LongerRun& run = d.runs[i];
    if (run.done) continue;
    try {
      if (run.next == 0 && run.chunks.empty())
        run.chunks =
            attn::train::twin_chunks(attn::train::lengthen(refund_data().test, kExtra[i]), kEmailsPerChunk);
      while (run.next < run.chunks.size()) {
        run.tally.add(attn::train::evaluate_set(m.model, m.vocab, run.chunks[run.next++]));
        if (std::chrono::duration<double, std::milli>(Clock::now() - t0).count() >= kBudgetMs) break;
      }
      if (run.next < run.chunks.size()) return false;
      run.metrics = run.tally.total();
    } catch (const attn::InputError& e) {
      run.error = e.what();
    }
    run.done = true;
    run.chunks = {};
  }
  return true;
}

// draw_longer's state (PanelState::longer).
struct LongerState : SceneState {
  LongerData d;
};

}  // namespace

void draw_longer(PanelState& ps, const TrainedModel& m, bool training, nlohmann::json& shown) {
  LongerData& d = state_in<LongerState>(ps.longer).d;
  const int longest = longest_training_email();
  text_wrapped(
      "Every training email is at most %d tokens long. Here the held-out emails get neutral filler words in "
      "front (\"hello team, hope you are well.\" repeated), which changes no label, only the length:",
      longest);
  if (training) {
    text_wrapped_disabled("(measured when training pauses or stops)");
  } else {
    if (!measure_some(d, m)) request_next_frame();  // the rest is measured in the next frames
  }
  nlohmann::json list = nlohmann::json::array();
  if (!training && d.version == m.version &&
      begin_table("longer",
                  {{"email length", 190}, {"held-out accuracy", 150}, {"both orders of a twin right"}})) {
    for (size_t i = 0; i < kExtra.size(); ++i) {
      const LongerRun& run = d.runs[i];
      table_row();
      table_cell();
      ImGui::Text("+%d tokens", kExtra[i]);
      if (!run.done) {
        table_cell();
        ImGui::TextDisabled("measuring ...");
        continue;
      }
      nlohmann::json item;
      item["extra_tokens"] = kExtra[i];
      if (!run.error.empty()) {
        table_cell();
        table_cell();
        text_wrapped_colored(ink(Ink::Error), "%s", run.error.c_str());
        item["error"] = run.error;
      } else {
        table_cell();
        ImGui::Text("%.1f%%", 100.0 * static_cast<double>(run.metrics.accuracy));
        table_cell();
        ImGui::Text("%.1f%%", 100.0 * static_cast<double>(run.metrics.pair_accuracy));
        item["test_accuracy"] = run.metrics.accuracy;
        item["flipped_pair_accuracy"] = run.metrics.pair_accuracy;
      }
      list.push_back(item);
    }
    end_table();
  }
  shown["longer"] = list;
  text_wrapped(
      "A learned table has no slot past its last one, so it stops with an error; a clock or RoPE has a "
      "reading "
      "for any position, but a model never trained at those positions may still get worse there. The same "
      "holds at any scale: a model trained on 2,000-token texts will not handle 20,000-token ones well just "
      "because you pass them in. Before giving a model long texts, check its documented context length.");
}

}  // namespace app::train_ui
