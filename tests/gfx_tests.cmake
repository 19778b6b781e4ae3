# Native colormap tests (the CPU half of src/gfx; the GPU half is checked pixel by pixel in the app tests).
# Included from tests/CMakeLists.txt; builds colormap.cpp itself, so it needs no GL and no gfx library.
add_executable(gfx_tests ${CMAKE_CURRENT_LIST_DIR}/gfx_test.cpp ${CMAKE_SOURCE_DIR}/src/gfx/colormap.cpp)
target_include_directories(gfx_tests PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(gfx_tests PRIVATE GTest::gtest GTest::gtest_main)
target_compile_options(gfx_tests PRIVATE ${ATTN_WARNINGS})
gtest_discover_tests(gfx_tests DISCOVERY_MODE PRE_TEST)
