# The interactive app `attention_demo`: Dear ImGui scenes + GPU heatmaps, on the desktop (SDL2 +
# OpenGL 3.3 core) or in the browser (Emscripten + WebGL2). Included by the root CMakeLists.txt after
# attention_core (and, natively, after nlohmann_json and CLI11 were found).
#
# Input (a cache variable; scripts/wasm_deps.sh prints the path, build_wasm.sh passes it):
#   ATTN_IMGUI_DIR          Dear ImGui 1.90.1 sources (imgui.cpp, backends/)      both builds
# Natively the app is skipped (with a note) when ImGui or SDL2 is missing; the CLI and tests still build.

# [SECTION] where the sources are
set(_attn_deps_cache "$ENV{ATTN_DEPS_CACHE}")
if(NOT _attn_deps_cache)
  set(_attn_deps_cache "$ENV{HOME}/.cache/attention-demo")
endif()
set(_attn_imgui_default "$ENV{IMGUI_SRC_DIR}")
if(NOT _attn_imgui_default AND EXISTS "${_attn_deps_cache}/imgui-1.90.1/imgui.cpp")
  set(_attn_imgui_default "${_attn_deps_cache}/imgui-1.90.1")
endif()
set(ATTN_IMGUI_DIR "${_attn_imgui_default}" CACHE PATH
    "Dear ImGui 1.90.1 sources (imgui.cpp, backends/); see scripts/wasm_deps.sh")

if(NOT EXISTS "${ATTN_IMGUI_DIR}/imgui.cpp" OR NOT EXISTS "${ATTN_IMGUI_DIR}/backends/imgui_impl_sdl2.cpp")
  message(STATUS "attention_demo: skipped (ATTN_IMGUI_DIR='${ATTN_IMGUI_DIR}' has no Dear ImGui; "
                 "run scripts/wasm_deps.sh and pass -DATTN_IMGUI_DIR=...)")
  return()
endif()

# [SECTION] SDL2, OpenGL, zlib (the desktop; the browser's input back end is src/platform/input_web.cpp)
if(NOT EMSCRIPTEN)
  find_package(SDL2 QUIET)
  find_package(OpenGL QUIET COMPONENTS OpenGL)
  find_package(ZLIB QUIET)
  if(NOT TARGET SDL2::SDL2 OR NOT TARGET OpenGL::GL OR NOT TARGET ZLIB::ZLIB)
    message(STATUS "attention_demo: skipped (needs libsdl2-dev, libgl-dev and zlib1g-dev)")
    return()
  endif()
endif()

# [SECTION] Dear ImGui (and, on the desktop, its SDL2 back end), built from its own sources
add_library(attn_imgui STATIC
  "${ATTN_IMGUI_DIR}/imgui.cpp"
  "${ATTN_IMGUI_DIR}/imgui_draw.cpp"
  "${ATTN_IMGUI_DIR}/imgui_tables.cpp"
  "${ATTN_IMGUI_DIR}/imgui_widgets.cpp"
  "${ATTN_IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp"
  "${CMAKE_SOURCE_DIR}/src/platform/imgui_hooks.cpp")
target_include_directories(attn_imgui SYSTEM PUBLIC "${ATTN_IMGUI_DIR}" "${ATTN_IMGUI_DIR}/backends"
                                                    "${ATTN_IMGUI_DIR}/misc/cpp")
# imgui_hooks.cpp implements part of the app's interface to the platform (app/platform_io.hpp)
target_include_directories(attn_imgui PRIVATE "${CMAKE_SOURCE_DIR}/src")
# The app never opens ImGui's demo or its metrics/debug windows, calls no obsolete API (nor the old
# io.KeyMap/KeysDown keyboard arrays) and keeps no .ini or log file (io.IniFilename is null): leave all of
# that out. The item hooks (IMGUI_ENABLE_TEST_ENGINE) tell
# src/platform/imgui_hooks.cpp each item's label, for the screen-reader mirror.
target_compile_definitions(attn_imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_DISABLE_DEBUG_TOOLS
                                             IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_OBSOLETE_KEYIO
                                             IMGUI_DISABLE_FILE_FUNCTIONS IMGUI_ENABLE_TEST_ENGINE)
attn_wasm_imgui(attn_imgui)
if(NOT EMSCRIPTEN)
  target_sources(attn_imgui PRIVATE "${ATTN_IMGUI_DIR}/backends/imgui_impl_sdl2.cpp")
  target_link_libraries(attn_imgui PUBLIC SDL2::SDL2 OpenGL::GL ${CMAKE_DL_LIBS})
  # 32-bit characters: an emoji typed into the desktop's InputText stays itself (the page's text boxes are
  # the browser's own <input> elements)
  target_compile_definitions(attn_imgui PUBLIC IMGUI_USE_WCHAR32)
endif()

# [SECTION] the app
# The scenes, the widgets and the frame; the logic without UI is attention_app_logic (root CMakeLists.txt).
file(GLOB ATTN_APP_SOURCES CONFIGURE_DEPENDS
     "${CMAKE_SOURCE_DIR}/src/app/*.cpp" "${CMAKE_SOURCE_DIR}/src/app/widgets/*.cpp"
     "${CMAKE_SOURCE_DIR}/src/app/scenes/*.cpp" "${CMAKE_SOURCE_DIR}/src/app/scenes/*/*.cpp"
     "${CMAKE_SOURCE_DIR}/src/gfx/*.cpp")
# The font: the browser draws its glyphs (font_web.cpp: no font file, no rasteriser in the wasm); the desktop
# embeds a DejaVu Sans subset (font.cpp, cmake/font.cmake) rasterised by ImGui's stb_truetype.
if(EMSCRIPTEN)
  set(_attn_main src/platform/main_web.cpp src/platform/input_web.cpp src/platform/io_web.cpp
                 src/platform/font_web.cpp src/platform/text_field_web.cpp
                 src/platform/touch_web.cpp src/platform/page_events_web.cpp src/platform/wheel_target.cpp
                 src/platform/model_load_web.cpp src/platform/compute_web.cpp
                 src/platform/checkpoint_web.cpp)
else()
  set(_attn_main src/platform/main_desktop.cpp src/platform/png.cpp src/platform/io_desktop.cpp
                 src/platform/font.cpp src/platform/text_field_desktop.cpp)
endif()
add_executable(attention_demo ${ATTN_APP_SOURCES} src/platform/imgui_host.cpp src/platform/imgui_renderer.cpp
                              ${_attn_main})
target_include_directories(attention_demo PRIVATE "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/src/platform")
target_link_libraries(attention_demo PRIVATE attention_app_logic attention_core attention_model_io attn_imgui
                                             nlohmann_json::nlohmann_json)
target_compile_options(attention_demo PRIVATE ${ATTN_WARNINGS})

if(NOT EMSCRIPTEN)
  include("${CMAKE_SOURCE_DIR}/cmake/font.cmake")
  attn_embed_font(attention_demo)
endif()
include("${CMAKE_SOURCE_DIR}/cmake/shaders.cmake")
attn_embed_shaders(attention_demo)

if(EMSCRIPTEN)
  attn_wasm_page(attention_demo)  # cmake/emscripten.cmake: -O2, WebGL2, memory, exports; .js + .wasm
else()
  target_link_libraries(attention_demo PRIVATE CLI11::CLI11 ZLIB::ZLIB)
endif()
