# Every Emscripten setting of the project, in one place. Included by the root CMakeLists.txt before any
# target is defined. Natively it adds nothing and its functions do nothing, so callers need no if(EMSCRIPTEN).
#
#   common flags                       every wasm object and link (set here, at include time)
#   attn_wasm_maths(target)            code that calls Eigen: its optimisation level in wasm
#   attn_wasm_ui(target)               interface code (scenes, widgets, the app's logic): size first
#   attn_wasm_imgui(target)            Dear ImGui and its back ends: GLES 3 (WebGL2), size first
#   attn_wasm_page(target)             the browser app: WebGL2, memory, allocator, exports -> .js + .wasm
#   attn_wasm_node_program(target [NODERAWFS] [PAGE_OPTIMISATION])   a program run by node (tests,
#                                      benchmarks) -> .js + .wasm
#
# Debian's Emscripten 3.1.6 needs NODE_PATH=/usr/share/nodejs for optimised links (acorn): the presets
# `wasm` and `wasm-node` (CMakePresets.json) set it.
include_guard(GLOBAL)

if(EMSCRIPTEN)
  # Every wasm object alike: C++ exceptions as native wasm exceptions (the core throws InputError and
  # the page must catch it), 128-bit SIMD for the auto-vectorised maths, and no RTTI (nothing uses
  # typeid or dynamic_cast; thrown types keep theirs): 4 KB gzipped of type names and tables.
  # Float-to-int conversions as the saturating i32/i64.trunc_sat: the plain ones trap on a value out of
  # range, and LLVM guards each with a range check that binaryen (the page's -Oz with no implicit traps,
  # ATTN_WASM_PAGE_OPTIMISATION) turns into a select and runs before the checks of the code around it, so a
  # model file with "version": 1e300 stopped the page (tests/wasm/compare_parsers.py). The saturating
  # conversions need no guard: the page's wasm is 3.5 KB smaller (0.6 KB gzipped).
  add_compile_options(-fwasm-exceptions -msimd128 -fno-rtti -mnontrapping-fptoint)
  add_link_options(-fwasm-exceptions)
endif()

# The page's link-time optimisation (attn_wasm_page), also the parsers' wasm test program's
# (tests/wasm/parsers_node.cpp: it must see the code the page runs):
set(ATTN_WASM_PAGE_OPTIMISATION
  # binaryen at -Oz, and only -Os/-Oz/-O3 run meta-DCE, which drops the JS glue nothing calls
  # (with -O2 the wasm was 1.5 KB smaller gzipped but the JS 1.5 KB larger; -O3 is 23 KB larger);
  # -flto: the interface objects are LLVM bitcode (attn_wasm_ui)
  -Oz -flto
  # a second binaryen -Oz round, and no implicit traps (C++ with no undefined behaviour never traps on a
  # load or a division): 2 KB gzipped together
  -sBINARYEN_EXTRA_PASSES=-Oz -sBINARYEN_IGNORE_IMPLICIT_TRAPS=1)

# The C functions src/platform/*_web.cpp export to the page (web/shell.js calls them as Module._name,
# web/bridge.js's listeners by name).
set(ATTN_WASM_PAGE_EXPORTS _main _malloc _free _attn_state _attn_heatmaps _attn_frame_stats _attn_set
                           _attn_export_csv _attn_load_model_bytes _attn_model_byte_limit
                           _attn_model_progress _attn_model_build_progress _attn_model_json _attn_request_frames
                           _attn_set_visible _attn_field_input _attn_tab_leaves _attn_focus _attn_blur
                           _attn_open_query _attn_touch _attn_mouse _attn_wheel _attn_key _attn_page_focus
                           _attn_wheel_wanted _attn_set_prefers
                           _attn_load_steps _attn_worker_up _attn_from_worker _attn_worker_command
                           _attn_worker_work _attn_model_from_worker _attn_worker_load_model
                           _attn_checkpoint_opening _attn_worker_checkpoint_file
                           _attn_helpers_up)

# attn_wasm_maths(target FAST files... INLINED files...): the FAST files (the GEMM kernel, the products, the
# attention ops) at -O2; the INLINED ones (the trained router's forward and backward) at -Os -flto with
# Eigen's small functions forced inline (EIGEN_STRONG_INLINE, which Eigen lets a build define): at plain
# -Os each coefficient of an element-wise expression was a call, and the router trained at 163 steps/s in
# the page's worker (node), 275 so, for 1.4 KB gzipped (-O2 cost 6.9 KB); every other source at -Oz -flto
# (link-time optimised with the interface: 8 KB gzipped less, the same bits, tests/wasm/run_node_test.sh).
# Eigen's element-wise loops are several times slower at -Os and -O3 unrolls more than -O2 for little gain
# in wasm; every matrix product but
# the seeded router's (1, D) x (D, 2) is matmul.hpp's, so no Eigen GEMM kernel is linked. Measured: the core
# 52 -> 39 KB gzipped; the forward's GFLOP/s and the training steps/s are in README.md's benchmark figures.
# Natively: -O3.
function(attn_wasm_maths target)
  if(EMSCRIPTEN)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "FAST;INLINED")
    # Each source gets exactly one level, set per file: with emcc 3.1.6 a per-file -O2 after a target-wide
    # -Os still gave size-tuned code (measured: the forward 30% slower, training 2x).
    get_target_property(sources ${target} SOURCES)
    foreach(f IN LISTS sources)
      # the rest at -Oz: 0.7 KB gzipped less than -Os (measured), none of it a per-frame or per-step loop
      set(level -Oz -flto)
      foreach(inlined IN LISTS arg_INLINED)
        if(f STREQUAL "${CMAKE_SOURCE_DIR}/${inlined}")
          set(level -Os -flto "-DEIGEN_STRONG_INLINE=inline __attribute__((always_inline))")
        endif()
      endforeach()
      foreach(fast IN LISTS arg_FAST)
        if(f STREQUAL "${CMAKE_SOURCE_DIR}/${fast}")
          set(level -O2)
        endif()
      endforeach()
      set_source_files_properties("${f}" TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${level}")
    endforeach()
  endif()
endfunction()

# attn_wasm_ui(target): interface code at -Oz, and link-time optimised across the interface's objects and
# the core's -Os files (the core's kernels keep their own -O2, outside it). The maths it calls is in the core
# (attn_wasm_maths); what Eigen it inlines runs on a recompute only (the scene caches), never per frame.
# Measured: -Os saves 33 KB gzipped and frame times stay within noise (bench/frame_bench.mjs); -flto 12 KB
# more; -Oz about 2 KB more than -Os. Model I/O is built so too (cmake/model_io.cmake).
function(attn_wasm_ui target)
  if(EMSCRIPTEN)
    target_compile_options(${target} PRIVATE -Oz -flto)
  endif()
endfunction()

# attn_wasm_imgui(target): Dear ImGui's sources. WebGL2 is GLES 3: without IMGUI_IMPL_OPENGL_ES3 the
# OpenGL back end silently takes the WebGL1 path ("#version 100").
function(attn_wasm_imgui target)
  if(EMSCRIPTEN)
    target_compile_definitions(${target} PUBLIC IMGUI_IMPL_OPENGL_ES3)
    attn_wasm_ui(${target})
  endif()
endfunction()

# attn_wasm_page(target): the browser app. Output attention_demo.js + .wasm (never .html: Debian's emcc
# lacks htmlmin); web/index.html is the page.
function(attn_wasm_page target)
  if(NOT EMSCRIPTEN)
    return()
  endif()
  attn_wasm_ui(${target})
  string(REPLACE ";" "," exports "${ATTN_WASM_PAGE_EXPORTS}")
  target_link_options(${target} PRIVATE
    ${ATTN_WASM_PAGE_OPTIMISATION}
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
    # WebGL glue the app does not use: GLES-style version strings, "GL_"-prefixed extension names,
    # enabling every extension when the context is made (the app needs none: R32F textures are read
    # with texelFetch, the heatmaps render into RGBA8), glGetError bookkeeping, WebGL1 buffer pools
    -sGL_EMULATE_GLES_VERSION_STRING_FORMAT=0 -sGL_EXTENSIONS_IN_PREFIXED_FORMAT=0
    -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0 -sGL_SUPPORT_SIMPLE_ENABLE_EXTENSIONS=0
    -sGL_TRACK_ERRORS=0 -sGL_POOL_TEMP_BUFFERS=0
    -sALLOW_MEMORY_GROWTH=1
    -sMALLOC=emmalloc                  # a smaller allocator: the app allocates little per frame
    -sNO_FILESYSTEM=1
    -sENVIRONMENT=web,worker           # the page, and its compute worker (web/compute_worker.js)
    -sTEXTDECODER=2                    # every browser with wasm exceptions has TextDecoder
    -sMODULARIZE=0                     # one global `Module`, configured by web/shell.js
    # no deferred calls for full-screen or pointer-lock requests (the app makes neither), and no errno from
    # JavaScript (there is no file system)
    -sHTML5_SUPPORT_DEFERRING_USER_SENSITIVE_REQUESTS=0 -sSUPPORT_ERRNO=0
    # the Module properties web/shell.js sets: the glue reads no others
    "-sINCOMING_MODULE_JS_API=[canvas,print,printErr,locateFile,instantiateWasm,onAbort,onRuntimeInitialized,noInitialRun]"
    # every JavaScript function the app's C++ calls (src/platform/bridge_web.hpp declares them)
    "--js-library=${CMAKE_SOURCE_DIR}/web/bridge.js"
    "--js-library=${CMAKE_SOURCE_DIR}/web/bridge_fields.js"
    "--js-library=${CMAKE_SOURCE_DIR}/web/bridge_input.js"
    "-sEXPORTED_FUNCTIONS=${exports}"
    -sEXPORTED_RUNTIME_METHODS=UTF8ToString  # what web/shell.js calls (strings go in by Module.attnNewString)
    --emit-symbol-map)                 # attention_demo.js.symbols: function names for scripts/wasm_size.py
  set_target_properties(${target} PROPERTIES SUFFIX ".js" LINK_DEPENDS
    "${CMAKE_SOURCE_DIR}/web/bridge.js;${CMAKE_SOURCE_DIR}/web/bridge_fields.js;${CMAKE_SOURCE_DIR}/web/bridge_input.js")
endfunction()

# attn_wasm_node_program(target [NODERAWFS] [PAGE_OPTIMISATION]): a node-only program (NODERAWFS: it reads
# and writes the real file system), linked at -O3 or, with PAGE_OPTIMISATION, as the page is
# (ATTN_WASM_PAGE_OPTIMISATION). Run it with `node --no-experimental-fetch prog.js`: Emscripten 3.1.6 loads
# the .wasm with fetch() whenever fetch exists, which fails on file paths under Node >= 18.
function(attn_wasm_node_program target)
  if(NOT EMSCRIPTEN)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "NODERAWFS;PAGE_OPTIMISATION" "" "")
  set(options -O3)
  if(arg_PAGE_OPTIMISATION)
    set(options ${ATTN_WASM_PAGE_OPTIMISATION})
  endif()
  list(APPEND options -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1)
  if(arg_NODERAWFS)
    list(APPEND options -sNODERAWFS=1)
  endif()
  target_link_options(${target} PRIVATE ${options})
  set_target_properties(${target} PROPERTIES SUFFIX ".js")
endfunction()
