// The keyboard as in a web form, on Dear ImGui without a window: the tab stops come in at the first or last
// control and say when Tab leaves past either end; a focused slider takes arrows, PageUp / PageDown, Home /
// End and a typed value; its steppers are named and are not tab stops.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

#include "app/widgets/number_input.hpp"
#include "font.hpp"
#include "imgui_hooks.hpp"

namespace {

class Keyboard : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ASSERT_TRUE(platform::load_font(1.0f)) << "the embedded font did not load";
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.IniFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    platform::enable_item_hooks();
    for (int i = 0; i < 3; ++i) frame();
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame: a button, two sliders in a flattened child, a last button.
  void frame() {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    platform::focused_value().clear();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("app", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::Button("first");
    ImGui::BeginChild("scene", ImVec2(0, 300), false, ImGuiWindowFlags_NavFlattened);
    platform::mark_scene_tab_stops();
    ImGui::SetNextItemWidth(300);
    app::slider_int("position", &position, 0, 2047);
    ImGui::SetNextItemWidth(300);
    app::slider_int("heads", &heads, 1, 16);
    ImGui::EndChild();
    ImGui::Button("last");
    ImGui::End();
    ImGui::Render();
    label = platform::focused_item().present ? platform::focused_item().label : "";
  }
  void key(ImGuiKey k, bool shift = false) {
    ImGuiIO& io = ImGui::GetIO();
    if (shift) io.AddKeyEvent(ImGuiMod_Shift, true);
    io.AddKeyEvent(k, true);
    frame();
    io.AddKeyEvent(k, false);
    if (shift) io.AddKeyEvent(ImGuiMod_Shift, false);
    frame();
    frame();
  }
  // Typed characters, then Enter at once (queued before a frame, as a fast typist's keys are).
  void type_and_enter(const char* text) {
    ImGuiIO& io = ImGui::GetIO();
    io.AddInputCharactersUTF8(text);
    io.AddKeyEvent(ImGuiKey_Enter, true);
    io.AddKeyEvent(ImGuiKey_Enter, false);
    for (int i = 0; i < 10; ++i) frame();
  }

  int position = 44, heads = 4;
  std::string label;
};

TEST_F(Keyboard, FocusComesInAtEitherEndAndTabLeavesPastIt) {
  ASSERT_TRUE(platform::focus_tab_stop(platform::TabStop::First));
  frame();
  EXPECT_EQ(label, "first");
  EXPECT_TRUE(platform::tab_leaves(true)) << "Shift+Tab on the first control leaves";
  EXPECT_FALSE(platform::tab_leaves(false));
  std::vector<std::string> walk;
  for (int i = 0; i < 3; ++i) {
    key(ImGuiKey_Tab);
    walk.push_back(label);
  }
  EXPECT_EQ(walk, (std::vector<std::string>{"position", "heads", "last"})) << "the steppers are no tab stops";
  EXPECT_TRUE(platform::tab_leaves(false)) << "Tab on the last control leaves";
  EXPECT_FALSE(platform::tab_leaves(true));
  key(ImGuiKey_Tab, true);
  EXPECT_EQ(label, "heads");
  ASSERT_TRUE(platform::focus_tab_stop(platform::TabStop::Last));
  frame();
  EXPECT_EQ(label, "last");
  ASSERT_TRUE(platform::focus_tab_stop(platform::TabStop::Scene));
  frame();
  EXPECT_EQ(label, "position") << "the skip link lands on the scene's first control";
}

TEST_F(Keyboard, AFocusedSliderTakesArrowsPagesEndsAndATypedValue) {
  ASSERT_TRUE(platform::focus_tab_stop(platform::TabStop::Scene));
  frame();
  ASSERT_EQ(label, "position");
  key(ImGuiKey_RightArrow);
  EXPECT_EQ(position, 45);
  key(ImGuiKey_LeftArrow);
  key(ImGuiKey_LeftArrow);
  EXPECT_EQ(position, 43);
  EXPECT_EQ(label, "position") << "the arrows step the slider, not the focus";
  key(ImGuiKey_PageUp);
  EXPECT_EQ(position, 43 + 204) << "a tenth of 0..2047";
  key(ImGuiKey_End);
  EXPECT_EQ(position, 2047);
  key(ImGuiKey_Home);
  EXPECT_EQ(position, 0);
  key(ImGuiKey_RightArrow);
  for (const int want : {17, 3, 49}) {
    type_and_enter(std::to_string(want).c_str());
    EXPECT_EQ(position, want) << "a digit opens the typed entry, in place of the value; Enter keeps it";
  }
  EXPECT_EQ(label, "position");
}

}  // namespace
