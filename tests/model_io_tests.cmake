# model_io_tests: trained-router JSON files (src/model_io/) round trip bit-identically; broken files fail in words.
# Included by tests/CMakeLists.txt (GTest already found there).
add_executable(model_io_tests test_model_io.cpp test_model_stream.cpp)
target_link_libraries(model_io_tests PRIVATE attention_model_io GTest::gtest GTest::gtest_main)
target_compile_options(model_io_tests PRIVATE -Wall -Wextra -Wpedantic)
gtest_discover_tests(model_io_tests DISCOVERY_MODE PRE_TEST)
