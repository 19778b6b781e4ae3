// Start here: what the lesson shows, in three lines, and the path through the scenes.
#include <imgui.h>

#include "app/scenes/scenes.hpp"
#include "app/widgets/widgets.hpp"

namespace app {

void draw_start_scene(SceneContext& ctx) {
  ImGui::SetWindowFontScale(1.25f);
  paragraph("Word order, seen from inside a transformer");
  ImGui::SetWindowFontScale(1.0f);
  ImGui::Spacing();
  paragraph(
      "1. Attention on its own reads a sentence as a bag of words: \"Refund the delivery fee, not the "
      "cake.\" and \"Refund the cake, not the delivery fee.\" get the same label with the same confidence.");
  paragraph(
      "2. Positional encodings fix that: every position gets a reading of clock hands turning at different "
      "speeds, added to the word that sits there.");
  paragraph(
      "3. Several heads let each word follow different relationships at once; at the end you train a small "
      "refund router on this machine and look inside it.");
  ImGui::Spacing();
  paragraph("Every number on these screens is computed live by the same core, from the settings you choose.");
  ImGui::Spacing();
  const std::vector<SceneInfo>& scenes = scene_table();
  const bool begin = ImGui::Button("Begin: the clock  >");
  mark_item("start/begin");
  if (begin) ctx.switch_to(scenes.at(1).id);
  ImGui::Spacing();
  text_wrapped_disabled("The path, in lesson order (Back and Next above each scene walk it):");
  for (size_t i = 1; i < scenes.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Button(scenes[i].title)) ctx.switch_to(scenes[i].id);
    ImGui::SameLine();
    text_wrapped_disabled("%s", scenes[i].instruction);
    ImGui::PopID();
  }
  ctx.report([](nlohmann::json& shown) { shown["path"] = static_cast<int>(scene_table().size()) - 1; });
}

}  // namespace app
