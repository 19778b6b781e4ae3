#!/usr/bin/env bash
# Runs every test of the project:
#   1. the format check (scripts/check_format.sh: clang-format 14 against .clang-format; seconds, so first),
# then installs what the rest needs, and
#   2. native build + CTest (core vs float64 reference, CLI vs numpy, URL state, colormaps, desktop app
#      under Xvfb),
#   3. the unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer (preset asan, build/asan),
#   4. the parsers fuzzed with libFuzzer (tests/fuzz/run.sh: saved crashes replayed, then each target for
#      ATTN_FUZZ_SECONDS, default 60),
#   5. the core compiled to wasm against the native build (node; preset wasm-node),
#   6. the browser app (./build_wasm.sh) end to end in headless Chromium,
#   7. the cross-engine browser tests: one set of checks on Chromium, Firefox ESR and WebKitGTK.
# Safe to run again; a fresh Debian 12 machine needs nothing else.
set -euo pipefail
cd "$(dirname "$0")"

echo "== 1. the format check (scripts/check_format.sh --fix reformats)"
scripts/check_format.sh

scripts/ensure_packages.sh build-essential cmake libeigen3-dev nlohmann-json3-dev libcli11-dev \
  libgtest-dev libbenchmark-dev python3 python3-numpy libsdl2-dev libgl-dev libgl1-mesa-dri zlib1g-dev \
  xvfb xauth fonttools fonts-dejavu-core emscripten clang-14 libclang-rt-14-dev llvm-14
# Dear ImGui sources (desktop app too) and SDL2 for wasm, cached; a failure stops here, named.
deps="$(scripts/wasm_deps.sh)" || { echo "error: scripts/wasm_deps.sh failed (exit $?); its log is above"; exit 1; }
eval "$deps"

echo "== 2. native build and CTest"
cmake --preset native -DATTN_IMGUI_DIR="$IMGUI_SRC_DIR"
cmake --build --preset native -j "$(nproc)"
ctest --preset native -j "$(nproc)"

echo "== 3. the unit tests under ASan + UBSan (cli_end_to_end, tokenizer_reference, desktop_smoke and scene_claims run in step 2 only)"
cmake --preset asan -DATTN_IMGUI_DIR="$IMGUI_SRC_DIR"
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"

echo "== 4. fuzzing the tokenizer, the URL settings, attend/block JSON and model files"
tests/fuzz/run.sh

echo "== 5. the core in wasm (node) against the native build"
bash tests/wasm/run_node_test.sh

echo "== 6. the browser app end to end"
./build_wasm.sh
bash tests/browser/run.sh

echo "== 7. the cross-engine browser tests (Chromium, Firefox ESR, WebKitGTK)"
bash tests/browser/engines/run.sh all
