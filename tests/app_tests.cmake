# Native tests of the app's pure C++ parts (URL state and the README's parameter table).
add_executable(app_settings_test ${CMAKE_CURRENT_SOURCE_DIR}/app_settings_test.cpp)
target_link_libraries(app_settings_test PRIVATE attention_settings GTest::gtest GTest::gtest_main)
target_compile_definitions(app_settings_test PRIVATE ATTN_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(app_settings_test PRIVATE -Wall -Wextra -Wpedantic)
gtest_discover_tests(app_settings_test DISCOVERY_MODE PRE_TEST)

# The desktop app under a virtual display (Debian's xvfb): each scene renders and reports its state.
if(TARGET attention_demo)
  add_test(NAME desktop_smoke COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/desktop_smoke.py)
  set_tests_properties(desktop_smoke PROPERTIES ENVIRONMENT "ATTENTION_DEMO=$<TARGET_FILE:attention_demo>"
                                                TIMEOUT 600)
endif()

# The exercises' questions and answers (computed by the core), without the UI.
add_executable(exercises_test ${CMAKE_CURRENT_SOURCE_DIR}/test_exercises.cpp ${CMAKE_SOURCE_DIR}/src/app/exercises.cpp)
target_link_libraries(exercises_test PRIVATE attention_core attention_settings GTest::gtest GTest::gtest_main)
target_compile_options(exercises_test PRIVATE -Wall -Wextra -Wpedantic)
gtest_discover_tests(exercises_test DISCOVERY_MODE PRE_TEST)
