# Native tests of the app's logic without UI (URL state, the README's parameter table, exercises, captions).
attn_gtest(app_settings_test LIBS attention_app_logic
           SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/app_settings_test.cpp)
target_compile_definitions(app_settings_test PRIVATE ATTN_SOURCE_DIR="${CMAKE_SOURCE_DIR}")

# Lesson mode's settings (theme, font_scale, lock, caption, steps) and its steps JSON.
attn_gtest(lesson_settings_test STRICT LIBS attention_app_logic
           SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_lesson_settings.cpp)

# The desktop app under a virtual display (Debian's xvfb): each scene renders and reports its state.
if(TARGET attention_demo)
  add_test(NAME desktop_smoke COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/desktop_smoke.py)
  set_tests_properties(desktop_smoke PROPERTIES ENVIRONMENT "ATTENTION_DEMO=$<TARGET_FILE:attention_demo>"
                                                TIMEOUT 600)
endif()

# Long texts in the multi-head scene: token windows, the heads as text, the find box (no UI).
attn_gtest(long_text_test STRICT LIBS attention_app_logic
           SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_long_text.cpp)

# The exercises' questions and answers (computed by the core), without the UI.
attn_gtest(exercises_test LIBS attention_app_logic SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_exercises.cpp)

# The captions computed from the core, the text helpers and the learned-table presets (no UI).
attn_gtest(app_text_tests STRICT LIBS attention_app_logic
           SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_captions.cpp)

# A gtest on Dear ImGui without a window: attn_imgui_test(name FONT|NOFONT sources...) builds it with the
# app's logic (FONT: with the desktop font's code and bytes).
function(attn_imgui_test name font)
  attn_gtest(${name} STRICT LIBS attention_app_logic attn_imgui SOURCES ${ARGN})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/platform)
  if(font STREQUAL "FONT")
    target_sources(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/platform/font.cpp)
    attn_embed_font(${name})
  endif()
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
attn_gtest(memo_test STRICT LIBS attention_app_logic SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_memo.cpp)

# Every sentence true at every setting: each scene's paragraphs read back at sampled settings and checked
# against numpy (tests/claims/, one checker per scene; the desktop app under Xvfb with --sweep).
if(TARGET attention_demo)
  add_test(NAME scene_claims COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/claims/sweep_test.py)
  set_tests_properties(scene_claims PROPERTIES ENVIRONMENT
                       "ATTENTION_DEMO=$<TARGET_FILE:attention_demo>;ATTENTION_CLI=$<TARGET_FILE:attention_cli>"
                       TIMEOUT 900)
endif()

# The Train scene's session, longer-emails measure and head measures, the multi-head scene's recomputes and
# model files read in the compute worker, behind their messages (in-process and through a compute link).
attn_gtest(train_link_test STRICT LIBS attention_app_logic
           SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_train_link.cpp ${CMAKE_CURRENT_SOURCE_DIR}/test_pipeline_link.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/test_pipeline_messages.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/test_model_messages.cpp ${CMAKE_CURRENT_SOURCE_DIR}/test_longer_link.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/test_head_measure.cpp ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/allclose.cpp ${CMAKE_CURRENT_SOURCE_DIR}/test_induction_session.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/test_induction_messages.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/test_induction_view.cpp ${CMAKE_CURRENT_SOURCE_DIR}/test_lm_link.cpp
                   ${CMAKE_CURRENT_SOURCE_DIR}/test_lm_host.cpp ${CMAKE_CURRENT_SOURCE_DIR}/lm_fixtures.cpp)

