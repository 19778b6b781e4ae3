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

# train_node: tests/wasm/train_node.cpp (train with a seed, save / load model files) natively and for node;
# train_bench: bench/train_bench.cpp (steps per second, time to 99%). Run by tests/wasm/run_node_test.sh
# and bench/train_bench.sh. -sNODERAWFS: the node build reads and writes the real file system.
foreach(_attn_prog train_node train_bench)
  if(_attn_prog STREQUAL "train_node")
    add_executable(${_attn_prog} EXCLUDE_FROM_ALL tests/wasm/train_node.cpp)
  else()
    add_executable(${_attn_prog} EXCLUDE_FROM_ALL bench/train_bench.cpp)
  endif()
  target_link_libraries(${_attn_prog} PRIVATE attention_model_io)
  target_compile_options(${_attn_prog} PRIVATE ${ATTN_WARNINGS} -O3)
  if(EMSCRIPTEN)
    target_link_options(${_attn_prog} PRIVATE -O3 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1)
    set_target_properties(${_attn_prog} PROPERTIES SUFFIX ".js")
  endif()
endforeach()
