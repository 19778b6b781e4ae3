# Native colormap tests (the CPU half of src/gfx; the GPU half is checked pixel by pixel in the app tests).
# Included from tests/CMakeLists.txt; builds colormap.cpp itself, so it needs no GL and no gfx library.
attn_gtest(gfx_tests STRICT
           SOURCES ${CMAKE_CURRENT_LIST_DIR}/gfx_test.cpp ${CMAKE_SOURCE_DIR}/src/gfx/colormap.cpp)
target_include_directories(gfx_tests PRIVATE ${CMAKE_SOURCE_DIR}/src)
