#!/usr/bin/env bash
# Runs the benchmarks: the native recompute (Google Benchmark) and the browser's recompute and frame time
# at 512 tokens, d_model 768, 12 heads (needs dist/ from ./build_wasm.sh and tests/browser's npm deps).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build --preset native --target attention_bench -j "$(nproc)" >/dev/null
build/native/bench/attention_bench
[ -d tests/browser/node_modules ] || (cd tests/browser && npm ci --no-audit --no-fund >/dev/null)
scripts/with_dist_server.sh node bench/frame_bench.mjs
