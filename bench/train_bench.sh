#!/usr/bin/env bash
# Training benchmark: the default refund router trained natively and in wasm (node) in one run; prints
# steps per second for both, the ratio, and the wall time to 99% held-out accuracy for both.
# Usage: bench/train_bench.sh [STEPS_PER_RUN] [RUNS] [EVAL_EVERY] [SEED]     (defaults 400 3 25 1)
# ATTN_NATIVE_BUILD_DIR and ATTN_WASM_NODE_BUILD_DIR (defaults build/native, build/wasm-node) build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${ATTN_JOBS:-2}"
NATIVE="${ATTN_NATIVE_BUILD_DIR:-build/native}"
WASM_NODE="${ATTN_WASM_NODE_BUILD_DIR:-build/wasm-node}"

cmake --preset native -B "$NATIVE" >/dev/null
cmake --build "$NATIVE" --target train_bench -j"$JOBS" >/dev/null
# The same tree as tests/wasm/run_node_test.sh (preset wasm-node): the core and the node programs only.
# NODE_PATH: the preset's, which a build outside the preset's folder does not get (Emscripten's acorn).
cmake --preset wasm-node -B "$WASM_NODE" >/dev/null
NODE_PATH=/usr/share/nodejs cmake --build "$WASM_NODE" --target train_bench -j"$JOBS" >/dev/null

OUT="$WASM_NODE/train_bench"
mkdir -p "$OUT"
# One after the other, in the same run, on the same machine: compare the ratio, not the absolute numbers.
"$NATIVE/train_bench" "$@" > "$OUT/native.json"
# Emscripten 3.1.6 loads the .wasm with fetch() whenever it exists: switch it off under Node >= 18.
node --no-experimental-fetch "$WASM_NODE/train_bench.js" "$@" > "$OUT/wasm.json"

python3 - "$OUT/native.json" "$OUT/wasm.json" <<'PY'
import json, sys
n, w = (json.load(open(p)) for p in sys.argv[1:3])
print(f"training the default refund router ({n['parameters']} parameters, batch {n['batch']}), "
      f"{n['runs']} runs of {n['steps_per_run']} steps")
print(f"{'':26}{'native':>10}{'wasm (node)':>14}{'wasm/native':>13}")
def row(name, a, b, fmt):
    print(f"{name:26}{fmt.format(a):>10}{fmt.format(b):>14}{b / a:>12.2f}x")
row("steps/s (best)", n["steps_per_second_best"], w["steps_per_second_best"], "{:.0f}")
row("steps/s (median)", n["steps_per_second_median"], w["steps_per_second_median"], "{:.0f}")
nt, wt = n["to_99"], w["to_99"]
print(f"to 99% test accuracy (evaluated every {nt['eval_every']} steps):")
row("  step reached", nt["step"], wt["step"], "{:d}")
row("  wall seconds", nt["wall_seconds"], wt["wall_seconds"], "{:.2f}")
row("  of which training", nt["train_seconds"], wt["train_seconds"], "{:.2f}")
row("  of which evaluation", nt["eval_seconds"], wt["eval_seconds"], "{:.2f}")
row("model file save (s)", n["model_file"]["save_seconds"], w["model_file"]["save_seconds"], "{:.4f}")
row("model file load (s)", n["model_file"]["load_seconds"], w["model_file"]["load_seconds"], "{:.4f}")
row("  load again (s)", n["model_file"]["load_again_seconds"], w["model_file"]["load_again_seconds"], "{:.4f}")
print(f"model file: {n['model_file']['bytes']} bytes")
target = 5.0
ok = wt["reached"] and wt["wall_seconds"] < target
print(f"target: 99% in under {target:.0f} s in the browser build: "
      f"{'met' if ok else 'NOT met'} ({wt['wall_seconds']:.2f} s in wasm under node)")
PY
