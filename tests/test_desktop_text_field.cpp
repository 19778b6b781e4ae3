// The desktop app's text box (ImGui's InputText, 32-bit characters) keeps what is typed: an emoji outside
// the 16-bit range, combining marks and right-to-left text, with no replacement character and no NUL.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "app/platform_io.hpp"
#include "font.hpp"

namespace {

class DesktopTextField : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ASSERT_TRUE(platform::load_font(1.0f)) << "the embedded font did not load";
    ImGui::GetIO().DisplaySize = ImVec2(800, 600);
    ImGui::GetIO().IniFilename = nullptr;
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame with the field; `focus` gives it the keyboard first.
  void frame(std::string& value, bool focus = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::Begin("test");
    if (focus) ImGui::SetKeyboardFocusHere();
    app::text_field("text", "type", value);
    ImGui::End();
    ImGui::Render();
  }
};

TEST_F(DesktopTextField, KeepsEmojiCombiningMarksAndRightToLeftText) {
  static_assert(sizeof(ImWchar) == 4, "the desktop build uses 32-bit ImGui characters (IMGUI_USE_WCHAR32)");
  std::string value = "cake \U0001F600 end";
  frame(value, true);
  frame(value);
  ImGui::GetIO().AddKeyEvent(ImGuiKey_End, true);
  frame(value);
  ImGui::GetIO().AddKeyEvent(ImGuiKey_End, false);
  ImGui::GetIO().AddInputCharactersUTF8("X e\xCC\x81 \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \U0001F370");
  for (int i = 0; i < 20; ++i) frame(value);  // ImGui takes typed characters over several frames
  EXPECT_EQ(value, "cake \U0001F600 endX e\xCC\x81 \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \U0001F370");
  EXPECT_EQ(value.find('\0'), std::string::npos) << "no NUL in the text";
  EXPECT_EQ(value.find("\xEF\xBF\xBD"), std::string::npos) << "no replacement character in: " << value;
}

}  // namespace
