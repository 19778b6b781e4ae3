# Programs built natively and (under Emscripten, preset wasm-node) for node; the link options are
# attn_wasm_node_program's (cmake/emscripten.cmake).
#
# core_node: tests/wasm/core_node.cpp linked with attention_core. tests/wasm/run_node_test.sh builds both
# and compares their JSON with compare.py.
add_executable(core_node EXCLUDE_FROM_ALL tests/wasm/core_node.cpp)
target_link_libraries(core_node PRIVATE attention_core)
target_compile_options(core_node PRIVATE ${ATTN_WARNINGS})
attn_wasm_node_program(core_node)

# train_node: tests/wasm/train_node.cpp (train with a seed, save / load model files) natively and for node;
# train_bench: bench/train_bench.cpp (steps per second, time to 99%). Run by tests/wasm/run_node_test.sh
# and bench/train_bench.sh. NODERAWFS: the node build reads and writes the real file system.
add_executable(train_node EXCLUDE_FROM_ALL tests/wasm/train_node.cpp)
add_executable(train_bench EXCLUDE_FROM_ALL bench/train_bench.cpp)
foreach(_attn_prog train_node train_bench)
  target_link_libraries(${_attn_prog} PRIVATE attention_model_io)
  target_compile_options(${_attn_prog} PRIVATE ${ATTN_WARNINGS} -O3)
  attn_wasm_node_program(${_attn_prog} NODERAWFS)
endforeach()

# parsers_node: tests/wasm/parsers_node.cpp (model files and settings in, verdicts out) natively and for node,
# compiled as the page's interface code (attn_wasm_ui) and linked with the page's optimisation, so the wasm
# build runs the parsers as the page does. Run by tests/wasm/run_node_test.sh (compare_parsers.py).
add_executable(parsers_node EXCLUDE_FROM_ALL tests/wasm/parsers_node.cpp)
target_link_libraries(parsers_node PRIVATE attention_model_io attention_app_logic)
target_compile_options(parsers_node PRIVATE ${ATTN_WARNINGS})
attn_wasm_ui(parsers_node)
attn_wasm_node_program(parsers_node NODERAWFS PAGE_OPTIMISATION)
