# attention_model_io: save/load a trained refund router as JSON, and read Hugging Face checkpoints
# (src/model_io/), for the CLI, the app and the tests, natively and under Emscripten. Included by the root
# CMakeLists.txt right after attention_core.
#
# nlohmann-json is header-only. Natively it comes from find_package (nlohmann-json3-dev). Under Emscripten
# /usr/include must never be on an include path (it would pull in glibc's headers): copy just its folder
# into the build tree and define the same imported target. The CLI, the app and the tests use this target.
include_guard(GLOBAL)
if(EMSCRIPTEN)
  set(ATTN_NLOHMANN_DIR "/usr/include/nlohmann" CACHE PATH "nlohmann-json headers (nlohmann-json3-dev)")
  if(NOT EXISTS "${ATTN_NLOHMANN_DIR}/json.hpp")
    message(FATAL_ERROR "attention_model_io: ${ATTN_NLOHMANN_DIR}/json.hpp not found (apt-get install nlohmann-json3-dev)")
  endif()
  file(COPY "${ATTN_NLOHMANN_DIR}" DESTINATION "${CMAKE_BINARY_DIR}/_deps/include")
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_BINARY_DIR}/_deps/include")
else()
  find_package(nlohmann_json 3 REQUIRED)
endif()

add_library(attention_model_io STATIC ${CMAKE_SOURCE_DIR}/src/model_io/model_json.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/model_stream.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/model_file.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/safetensors.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/hf_tokenizer.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/hf_llama.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/hf_gpt2.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/hf_folder.cpp
                                      ${CMAKE_SOURCE_DIR}/src/model_io/checkpoint.cpp)
target_include_directories(attention_model_io PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(attention_model_io PUBLIC attention_core nlohmann_json::nlohmann_json)
target_compile_options(attention_model_io PRIVATE ${ATTN_WARNINGS})
# In wasm: -Os -flto, like the interface that calls it (cmake/emscripten.cmake): 7 KB gzipped less than -O3.
attn_wasm_ui(attention_model_io)
