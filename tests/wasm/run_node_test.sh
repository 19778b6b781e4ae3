#!/usr/bin/env bash
# The core compiled to wasm gives the native numbers: builds tests/wasm/core_node.cpp natively
# (build/native) and with Emscripten for node (build/wasm-node), runs both, compares with compare.py.
# Then training: tests/wasm/train_node.cpp trains with a fixed seed in both builds, each loads the other's
# model file, and compare_train.py checks weights and predictions.
# Then the parsers: tests/wasm/parsers_node.cpp (linked as the page is) answers the fuzz corpora and hostile
# numbers in a model file and in every numeric setting (parser_cases.py) in both builds, and
# compare_parsers.py checks that the wasm build never traps and gives the native verdicts.
# Usage: tests/wasm/run_node_test.sh        (exit 0 when they match)
set -euo pipefail
cd "$(dirname "$0")/../.."
JOBS="${ATTN_JOBS:-2}"

scripts/ensure_packages.sh emscripten cmake make g++ python3 libeigen3-dev nlohmann-json3-dev libcli11-dev \
    libgtest-dev libbenchmark-dev >/dev/null

echo "== native core_node"
cmake --preset native >/dev/null
cmake --build --preset native --target core_node train_node parsers_node attention_cli -j"$JOBS"

echo "== wasm core_node (node)"
# The preset wasm-node (build/wasm-node): the core and the node programs only, never the app; it sets
# NODE_PATH for Emscripten's optimiser.
cmake --preset wasm-node >/dev/null
cmake --build --preset wasm-node --target core_node train_node parsers_node -j"$JOBS"

OUT="build/wasm-node/compare"
mkdir -p "$OUT"
build/native/core_node > "$OUT/native.json"
# Emscripten 3.1.6 picks fetch() whenever it exists, even with -sENVIRONMENT=node: switch it off.
node --no-experimental-fetch build/wasm-node/core_node.js > "$OUT/wasm.json"
python3 tests/wasm/compare.py "$OUT/native.json" "$OUT/wasm.json"

echo "== training: native vs wasm (node), model files across builds"
STEPS="${ATTN_TRAIN_STEPS:-200}"
SCHEMES="sinusoidal rope learned"
for s in $SCHEMES; do
  build/native/train_node train "$s" "$STEPS" 3 "$OUT/native_${s}_model.json" > "$OUT/native_${s}.json"
  node --no-experimental-fetch build/wasm-node/train_node.js train "$s" "$STEPS" 3 "$OUT/wasm_${s}_model.json" \
      > "$OUT/wasm_${s}.json"
  build/native/train_node predict "$OUT/wasm_${s}_model.json" > "$OUT/native_${s}_cross.json"
  node --no-experimental-fetch build/wasm-node/train_node.js predict "$OUT/native_${s}_model.json" \
      > "$OUT/wasm_${s}_cross.json"
done
python3 tests/wasm/compare_train.py "$OUT" $SCHEMES

echo "== parsers: native vs wasm (node, the page's link flags) on the fuzz corpora and hostile numbers"
build/native/attention_cli train --steps 1 --no-timing --d-model 8 --heads 2 --d-ff 8 \
    --out "$OUT/parsers_model.json" >/dev/null
build/native/parsers_node --params > "$OUT/parsers_params.jsonl"
python3 tests/wasm/parser_cases.py "$OUT/parsers_model.json" "$OUT/parsers_params.jsonl" "$OUT/parsers_cases"
python3 tests/wasm/compare_parsers.py build/native/parsers_node build/wasm-node/parsers_node.js "$OUT/parsers_cases"
