# libFuzzer targets for every parser of untrusted input (tokenizer, URL/set() settings, attend/block JSON,
# model files, llama2.c checkpoints and tokenizers, safetensors). Included by cmake/fuzz.cmake at the end of
# the "fuzz" preset's configure (clang-14, ASan + UBSan, every library of the project instrumented); built
# and run by tests/fuzz/run.sh.
find_package(nlohmann_json 3 REQUIRED)
set(ATTN_FUZZ_DIR "${CMAKE_CURRENT_LIST_DIR}")

add_custom_target(fuzz_targets)
function(attn_fuzz_target name)
  add_executable(fuzz_${name} ${ATTN_FUZZ_DIR}/fuzz_${name}.cpp ${ARGN})
  target_include_directories(fuzz_${name} PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_compile_options(fuzz_${name} PRIVATE -Wall -Wextra)
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  add_dependencies(fuzz_targets fuzz_${name})
endfunction()

attn_fuzz_target(tokenizer)
target_link_libraries(fuzz_tokenizer PRIVATE attention_core)

attn_fuzz_target(settings)
target_link_libraries(fuzz_settings PRIVATE attention_app_logic)

# The CLI's attend/block from a JSON text: the CLI's own sources, without main.cpp.
attn_fuzz_target(attend_block ${CMAKE_SOURCE_DIR}/src/cli/commands.cpp ${CMAKE_SOURCE_DIR}/src/cli/json_io.cpp)
target_link_libraries(fuzz_attend_block PRIVATE attention_core nlohmann_json::nlohmann_json)

attn_fuzz_target(model_json)
target_link_libraries(fuzz_model_json PRIVATE attention_model_io)

attn_fuzz_target(checkpoints)
target_link_libraries(fuzz_checkpoints PRIVATE attention_model_io)
