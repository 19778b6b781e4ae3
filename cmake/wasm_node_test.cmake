# core_node: tests/wasm/core_node.cpp linked with attention_core, natively and (under Emscripten) as a
# node program. tests/wasm/run_node_test.sh builds both and compares their JSON with compare.py.
add_executable(core_node EXCLUDE_FROM_ALL tests/wasm/core_node.cpp)
target_link_libraries(core_node PRIVATE attention_core)
target_compile_options(core_node PRIVATE ${ATTN_WARNINGS})
if(EMSCRIPTEN)
  # A node-only program. Run it with `node --no-experimental-fetch core_node.js`: Emscripten 3.1.6 loads
  # the .wasm with fetch() whenever fetch exists, which fails on file paths under Node >= 18.
  target_link_options(core_node PRIVATE -O3 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1)
  set_target_properties(core_node PROPERTIES SUFFIX ".js")
endif()
