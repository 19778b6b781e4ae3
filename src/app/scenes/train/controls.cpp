// What the Train and Induction scenes share: the position scheme a model trains with, Train / Pause / Reset
// with the session's progress, and keeping the session in step with the settings.
#include <imgui.h>

#include <string>

#include "app/scenes/train/train.hpp"
#include "app/widgets/number_input.hpp"
#include "app/widgets/widgets.hpp"
#include "core/error.hpp"

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

void seed_and_steps(Settings& s, const char* help) {
  ImGui::SetNextItemWidth(130);
  input_int("seed", &s.seed, 0, 2147483647);
  same_line_if_fits(130, "max steps");
  ImGui::SetNextItemWidth(130);
  input_int("max steps", &s.max_steps, 1, 100000, 100);
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

bool entered_again(int& last_frame) {
  const int frame = ImGui::GetFrameCount();
  const bool entered = frame != last_frame + 1;
  last_frame = frame;
  return entered;
}

bool sync_session(Settings& s, TrainClient& ses, const SessionKey& key, std::string& error, int max_width) {
  const bool reset = s.train == Training::Reset;
  if (reset) s.train = Training::Pause;
  const bool fresh = ses.key() != key || (s.train == Training::Run && !ses.has_trainer() && error.empty());
  if (!reset && !fresh) return false;
  error.clear();
  try {
    if (key.d_model > max_width) {
      throw attn::InputError("d_model " + std::to_string(key.d_model) +
                             " is too wide to train in the page: one step would " +
                             "take longer than a frame; allowed here: up to " + std::to_string(max_width));
    }
    ses.reset(key);
  } catch (const attn::InputError& e) {
    error = e.what();
    ses.detach(key);
    s.train = Training::Pause;
  }
  return true;
}

}  // namespace app::train_ui
