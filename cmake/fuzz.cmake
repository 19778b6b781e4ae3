# libFuzzer build (CMake preset "fuzz", included through CMAKE_PROJECT_INCLUDE): once the project's
# libraries are defined, adds the fuzz targets of tests/fuzz/targets.cmake (clang-14, ASan + UBSan).
include_guard(GLOBAL)
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "the fuzz preset needs clang (libFuzzer): apt-get install clang-14 libclang-rt-14-dev")
endif()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL include "${CMAKE_SOURCE_DIR}/tests/fuzz/targets.cmake")
