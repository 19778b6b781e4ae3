// Desktop free-text fields: ImGui's own InputText (app/platform_io.hpp).
#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/platform_io.hpp"

namespace app {

bool text_field(const char* label, const char* hint, std::string& value, bool* entered) {
  const bool changed = ImGui::InputTextWithHint(label, hint, &value);
  if (entered) *entered = ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGuiKey_Enter);
  if (ImGui::IsItemFocused()) focused_value() = value;  // the screen-reader mirror says it with the label
  return changed;
}

}  // namespace app
