# Sanitizer build of the native unit tests (CMake preset "asan", included through CMAKE_PROJECT_INCLUDE):
# bounds-checked too (-D_GLIBCXX_ASSERTIONS, and Eigen asserts: the preset leaves NDEBUG off);
# the preset sets -fsanitize=address,undefined; this file adds the target `sanitized_tests`, which builds
# exactly the GoogleTest programs (the ImGui ones, wrap_font_test, theme_contrast_test, keyboard_test and
# desktop_text_field_test, only when Dear ImGui was found), nothing else.
include_guard(GLOBAL)

set(ATTN_SANITIZED_TESTS core_tests gemm_tests app_settings_test app_text_tests exercises_test memo_test
    lesson_settings_test model_io_tests gfx_tests long_text_test wrap_font_test theme_contrast_test
    desktop_text_field_test keyboard_test train_link_test)

# Runs once the whole project is configured, when every test target exists.
function(attn_add_sanitized_tests_target)
  add_custom_target(sanitized_tests)
  foreach(t IN LISTS ATTN_SANITIZED_TESTS)
    if(TARGET ${t})
      add_dependencies(sanitized_tests ${t})
    elseif(NOT t MATCHES "^(wrap_font_test|theme_contrast_test|desktop_text_field_test|keyboard_test)$")
      message(FATAL_ERROR "sanitizers.cmake: test target '${t}' does not exist (renamed in tests/?)")
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL attn_add_sanitized_tests_target)
