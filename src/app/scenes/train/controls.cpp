// The controls the Train and Induction scenes share: the position scheme a model trains with, and Train /
// Pause / Reset with the session's progress.
#include <imgui.h>

#include "app/scenes/train/train.hpp"
#include "app/widgets/widgets.hpp"

namespace app::train_ui {

void scheme_combo(Settings& s, const char* help) {
  ImGui::SetNextItemWidth(130);
  if (begin_combo("positions", attn::scheme_name(s.positions).c_str())) {
    for (const attn::Scheme scheme : attn::train::trainable_schemes()) {
      if (ImGui::Selectable(attn::scheme_name(scheme).c_str(), s.positions == scheme)) s.positions = scheme;
    }
    ImGui::EndCombo();
  }
  help_marker(help);
}

void run_buttons(Settings& s, const TrainClient& ses, const char* mark) {
  const bool running = s.train == Training::Run;
  ImGui::BeginDisabled(running);
  if (ImGui::Button(ses.steps() > 0 ? "Continue training" : "Train")) s.train = Training::Run;
  ImGui::EndDisabled();
  mark_item(mark);
  ImGui::SameLine();
  ImGui::BeginDisabled(!running);
  if (ImGui::Button("Pause")) s.train = Training::Pause;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Reset")) s.train = Training::Reset;
  same_line_if_fits(ImGui::CalcTextSize("not trained yet: press Train").x);
  if (ses.steps() > 0) {
    text_wrapped("step %d   %.0f steps/s   loss %.4f   %.1f s%s", ses.steps(), ses.steps_per_second(),
                 static_cast<double>(ses.last_loss()), ses.seconds(), running ? "   training..." : "");
  } else {
    ImGui::TextUnformatted(running ? "starting..." : "not trained yet: press Train");
  }
}

void max_steps_note(const Settings& s, const TrainClient& ses) {
  if (s.train != Training::Run && ses.steps() >= s.max_steps)
    text_wrapped_disabled("Stopped at max steps (%d); raise it to train longer.", s.max_steps);
}

}  // namespace app::train_ui
