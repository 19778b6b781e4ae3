// The Train scene's "Longer emails" panel: held-out accuracy with filler tokens in front, and the advice
// that goes with it (a model is only as good as the lengths it was trained on).
#include <imgui.h>

#include <algorithm>

#include "app/logic/longer_emails.hpp"
#include "app/logic/text.hpp"
#include "app/scenes/scenes.hpp"
#include "app/scenes/train/train.hpp"
#include "app/widgets/table.hpp"
#include "app/widgets/theme.hpp"
#include "app/widgets/widgets.hpp"
#include "core/tokenizer.hpp"

namespace app::train_ui {
namespace {

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

// Time for the measure per frame when it runs here (at least one email: a few milliseconds at +128 tokens
// for the app's router; far more for a large model file, which is why the worker measures when it runs).
constexpr double kBudgetMs = 6.0;

}  // namespace

void draw_longer(const TrainedModel& m, bool training, nlohmann::json& shown) {
  const int longest = longest_training_email();
  text_wrapped(
      "Every training email is at most %d tokens long. Here the held-out emails get neutral filler words in "
      "front (\"hello team, hope you are well.\" repeated), which changes no label, only the length:",
      longest);
  LongerProgress progress;
  if (training) {
    text_wrapped_disabled("(measured when training pauses or stops)");
  } else {
    progress = measure_longer(m, kBudgetMs);
    if (progress.here) request_next_frame();  // the rest is measured in the next frames
  }
  nlohmann::json list = nlohmann::json::array();
  if (!training &&
      begin_table("longer",
                  {{"email length", 190}, {"held-out accuracy", 150}, {"both orders of a twin right"}})) {
    const LongerState* st = progress.state;
    for (size_t i = 0; i < kLongerExtra.size(); ++i) {
      table_row();
      table_cell();
      ImGui::Text("+%d tokens", kLongerExtra[i]);
      if (!st || i >= st->lengths) {
        table_cell();
        // this length's share of the emails measured so far (each length is a third of them)
        const float part =
            st ? std::clamp(st->fraction * static_cast<float>(kLongerExtra.size()) - static_cast<float>(i),
                            0.0f, 1.0f)
               : 0.0f;
        if (part > 0.0f)
          ImGui::TextDisabled("measuring ... %d%%", static_cast<int>(100.0f * part));
        else
          ImGui::TextDisabled("measuring ...");
        continue;
      }
      const LongerResult& run = st->results[i];
      nlohmann::json item;
      item["extra_tokens"] = kLongerExtra[i];
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
  if (progress.state) shown["longer_progress"] = progress.state->fraction;
  text_wrapped(
      "A learned table has no slot past its last one, so it stops with an error; a clock or RoPE has a "
      "reading "
      "for any position, but a model never trained at those positions may still get worse there. The same "
      "holds at any scale: a model trained on 2,000-token texts will not handle 20,000-token ones well just "
      "because you pass them in. Before giving a model long texts, check its documented context length.");
}

}  // namespace app::train_ui
