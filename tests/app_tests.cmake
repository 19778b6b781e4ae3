# Native tests of the app's logic without UI (URL state, the README's parameter table, exercises, captions).
add_executable(app_settings_test ${CMAKE_CURRENT_SOURCE_DIR}/app_settings_test.cpp)
target_link_libraries(app_settings_test PRIVATE attention_app_logic GTest::gtest GTest::gtest_main)
target_compile_definitions(app_settings_test PRIVATE ATTN_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(app_settings_test PRIVATE -Wall -Wextra -Wpedantic)
gtest_discover_tests(app_settings_test DISCOVERY_MODE PRE_TEST)

# Lesson mode's settings (theme, font_scale, lock, caption, steps) and its steps JSON.
add_executable(lesson_settings_test ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_settings.cpp)
target_link_libraries(lesson_settings_test PRIVATE attention_app_logic GTest::gtest GTest::gtest_main)
target_compile_options(lesson_settings_test PRIVATE ${ATTN_WARNINGS})
gtest_discover_tests(lesson_settings_test DISCOVERY_MODE PRE_TEST)

# The desktop app under a virtual display (Debian's xvfb): each scene renders and reports its state.
if(TARGET attention_demo)
  add_test(NAME desktop_smoke COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/desktop_smoke.py)
  set_tests_properties(desktop_smoke PROPERTIES ENVIRONMENT "ATTENTION_DEMO=$<TARGET_FILE:attention_demo>"
                                                TIMEOUT 600)
endif()

# Long texts in the multi-head scene: token windows, the heads as text, the find box (no UI).
add_executable(long_text_test ${CMAKE_CURRENT_SOURCE_DIR}/test_long_text.cpp)
target_link_libraries(long_text_test PRIVATE attention_app_logic GTest::gtest GTest::gtest_main)
target_compile_options(long_text_test PRIVATE ${ATTN_WARNINGS})
gtest_discover_tests(long_text_test DISCOVERY_MODE PRE_TEST)

# The exercises' questions and answers (computed by the core), without the UI.
add_executable(exercises_test ${CMAKE_CURRENT_SOURCE_DIR}/test_exercises.cpp)
target_link_libraries(exercises_test PRIVATE attention_app_logic GTest::gtest GTest::gtest_main)
target_compile_options(exercises_test PRIVATE -Wall -Wextra -Wpedantic)
gtest_discover_tests(exercises_test DISCOVERY_MODE PRE_TEST)

# The captions computed from the core, the text helpers and the learned-table presets (no UI).
add_executable(app_text_tests ${CMAKE_CURRENT_SOURCE_DIR}/test_captions.cpp)
target_link_libraries(app_text_tests PRIVATE attention_app_logic GTest::gtest GTest::gtest_main)
target_compile_options(app_text_tests PRIVATE ${ATTN_WARNINGS})
gtest_discover_tests(app_text_tests DISCOVERY_MODE PRE_TEST)

# A gtest on Dear ImGui without a window: attn_imgui_test(name FONT|NOFONT sources...) builds it with the
# app's logic (FONT: with the desktop font's code and bytes).
function(attn_imgui_test name font)
  add_executable(${name} ${ARGN})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/platform)
  target_link_libraries(${name} PRIVATE attention_app_logic attn_imgui GTest::gtest GTest::gtest_main)
  target_compile_options(${name} PRIVATE ${ATTN_WARNINGS})
  if(font STREQUAL "FONT")
    target_sources(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/platform/font.cpp)
    attn_embed_font(${name})
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST)
endfunction()

if(TARGET attn_imgui)
  # The app's long texts wrapped with the app's own font (Dear ImGui's atlas, no window): no number split.
  attn_imgui_test(wrap_font_test FONT ${CMAKE_CURRENT_SOURCE_DIR}/test_wrap_font.cpp)
  # Both looks' colours: text at least 4.5:1, lines and shapes at least 3:1.
  attn_imgui_test(theme_contrast_test NOFONT ${CMAKE_CURRENT_SOURCE_DIR}/test_theme_contrast.cpp
                  ${CMAKE_SOURCE_DIR}/src/app/widgets/theme.cpp ${CMAKE_SOURCE_DIR}/src/app/widgets/ui_state.cpp)
endif()
# The keyboard as in a web form: tab stops in and out of the app, a focused slider's keys and typed value.
if(TARGET attn_imgui)
  attn_imgui_test(keyboard_test FONT ${CMAKE_CURRENT_SOURCE_DIR}/test_keyboard.cpp
                  ${CMAKE_SOURCE_DIR}/src/app/widgets/number_input.cpp ${CMAKE_SOURCE_DIR}/src/app/widgets/widgets.cpp
                  ${CMAKE_SOURCE_DIR}/src/app/widgets/theme.cpp ${CMAKE_SOURCE_DIR}/src/app/widgets/ui_state.cpp
                  ${CMAKE_SOURCE_DIR}/src/gfx/colormap.cpp)
endif()
# The desktop text box: what is typed into ImGui's InputText comes out exactly (emoji, marks, RTL).
if(TARGET attn_imgui AND NOT EMSCRIPTEN)
  attn_imgui_test(desktop_text_field_test FONT ${CMAKE_CURRENT_SOURCE_DIR}/test_desktop_text_field.cpp
                  ${CMAKE_SOURCE_DIR}/src/platform/text_field_desktop.cpp)
endif()

# The scene cache: recompute only on change, one version per recompute, errors kept (no UI).
add_executable(memo_test ${CMAKE_CURRENT_SOURCE_DIR}/test_memo.cpp)
target_link_libraries(memo_test PRIVATE attention_app_logic GTest::gtest GTest::gtest_main)
target_compile_options(memo_test PRIVATE ${ATTN_WARNINGS})
gtest_discover_tests(memo_test DISCOVERY_MODE PRE_TEST)

# Every sentence true at every setting: each scene's paragraphs read back at sampled settings and checked
# against numpy (tests/claims/, one checker per scene; the desktop app under Xvfb with --sweep).
if(TARGET attention_demo)
  add_test(NAME scene_claims COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/claims/sweep_test.py)
  set_tests_properties(scene_claims PROPERTIES ENVIRONMENT
                       "ATTENTION_DEMO=$<TARGET_FILE:attention_demo>;ATTENTION_CLI=$<TARGET_FILE:attention_cli>"
                       TIMEOUT 900)
endif()
