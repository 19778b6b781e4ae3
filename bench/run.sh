#!/usr/bin/env bash
# The one benchmark command: builds what it needs, then prints, each under its own heading, the multi-head
# attention kernels against onnxruntime-web and tfjs-backend-wasm, the softmax wasm/native ratio, the dist/
# size breakdown, the browser frame figures, the training steps/s ratio, the native recompute (Google
# Benchmark), the start-up's long tasks on the page's main thread, each browser engine's start-up and time
# to train to 99% (Chromium, Firefox ESR, WebKitGTK), a large model file's load, three embeds on one course
# page, and Lighthouse's mobile score.
# ATTN_BENCH_QUICK=1: fewer reps and rounds, to check the plumbing (timings not meaningful).
# ATTN_JOBS: build jobs (default 2). ATTN_NATIVE_BUILD_DIR, ATTN_WASM_NODE_BUILD_DIR and ATTN_DIST_DIR
# (defaults build/native, build/wasm-node, dist) put the builds elsewhere. Run after ./run_tests.sh (or on
# a machine it has set up).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${ATTN_JOBS:-2}"
NATIVE="${ATTN_NATIVE_BUILD_DIR:-build/native}"
WASM_NODE="${ATTN_WASM_NODE_BUILD_DIR:-build/wasm-node}"
DIST="${ATTN_DIST_DIR:-dist}"
export ATTN_NATIVE_BUILD_DIR="$NATIVE" ATTN_WASM_NODE_BUILD_DIR="$WASM_NODE" ATTN_DIST_DIR="$DIST"
QUICK="${ATTN_BENCH_QUICK:-0}"
export ATTN_BENCH_QUICK="$QUICK"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# quiet CMD...: runs CMD with its output in a log, shown only when it fails.
quiet() {
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "bench/run.sh: '$*' failed" >&2
    return 1
  fi
}

# 1. builds: native (mha_bench, attention_bench), wasm for node (mha_bench), dist/ when missing, npm deps
echo "== building (native and wasm-node mha_bench, attention_bench; dist/ and npm packages when missing)" >&2
quiet cmake --preset native -B "$NATIVE"
quiet cmake --build "$NATIVE" --target mha_bench attention_bench attention_cli -j "$JOBS"
# (the preset's NODE_PATH, which a build outside the preset's folder does not get: Emscripten's acorn)
quiet cmake --preset wasm-node -B "$WASM_NODE"
quiet env NODE_PATH=/usr/share/nodejs cmake --build "$WASM_NODE" --target mha_bench -j "$JOBS"
MHA_NATIVE="$NATIVE/bench/mha_bench"
MHA_WASM="$WASM_NODE/bench/mha_bench.js"
[ -f "$MHA_WASM" ] || MHA_WASM="$WASM_NODE/mha_bench.js"
if [ ! -f "$DIST/index.html" ] || [ ! -f "$DIST/attention_demo.wasm" ]; then ./build_wasm.sh; fi
quiet tests/browser/prepare.sh "$DIST"  # tests/browser's npm packages (npm ci when stale)
# bench/kernels and bench/lighthouse: npm ci when node_modules is missing or older than package.json /
# package-lock.json
for dir in bench/kernels bench/lighthouse; do
  stamp="$dir/node_modules/.package-lock.json"
  if [ ! -f "$stamp" ] || [ "$dir/package-lock.json" -nt "$stamp" ] || [ "$dir/package.json" -nt "$stamp" ]; then
    quiet bash -c "cd $dir && npm ci --no-audit --no-fund"
  fi
done

# 2. the parts, one after the other (the machine is shared: never two heavy runs at once); a failing part
#    is reported and the others still run
failed=()
part() {
  local title="$1"
  shift
  printf '\n==== %s\n' "$title"
  local status=0
  "$@" || status=$?
  if [ "$status" != 0 ]; then
    echo "(this part failed with exit status $status)"
    failed+=("$title")
  fi
}

# dist/ sizes: each file with its gzip and brotli copies, then the wasm by library (scripts/wasm_size.py)
dist_sizes() {
  local f raw gz br total_raw=0 total_gz=0 total_br=0 page_gz=0
  printf '%-24s %10s %10s %10s\n' "$DIST/" "bytes" "gzipped" "brotli"
  while IFS= read -r -d '' f; do
    raw=$(stat -c %s "$f")
    gz=$(if [ -f "$f.gz" ]; then stat -c %s "$f.gz"; else gzip -9 -n -c "$f" | wc -c; fi)
    br=$(if [ -f "$f.br" ]; then stat -c %s "$f.br"; else brotli -q 11 -c "$f" | wc -c; fi)
    total_raw=$((total_raw + raw))
    total_gz=$((total_gz + gz))
    total_br=$((total_br + br))
    case "${f##*/}" in course-example.*) ;; *) page_gz=$((page_gz + gz)) ;; esac
    printf '%-24s %10d %10d %10d\n' "${f#"$DIST"/}" "$raw" "$gz" "$br"
  done < <(find "$DIST" -type f ! -name '*.gz' ! -name '*.br' -print0 | sort -z)
  printf '%-24s %10d %10d %10d\n' "total" "$total_raw" "$total_gz" "$total_br"
  printf '%-24s %21d  (%d KB gzipped; target 400 KB; course-example.* not counted)\n' "the page's files" \
    "$page_gz" $(((page_gz + 1023) / 1024))
  local wasm_build="${ATTN_WASM_BUILD_DIR:-build/wasm}" deps
  if [ -f "$wasm_build/attention_demo.js.symbols" ] && deps="$(scripts/wasm_deps.sh 2>/dev/null)"; then
    eval "$deps"
    echo
    python3 scripts/wasm_size.py "$wasm_build" \
      --imgui-lib "$wasm_build/libattn_imgui.a" --font "$wasm_build/generated/font/attn_font_subset.ttf"
  fi
}

if [ "$QUICK" = 1 ]; then
  train_args=(50 1)
  gbench_args=(--benchmark_min_time=0.01)
else
  train_args=()
  gbench_args=()
fi

part "kernels: multi-head attention forward, this project (wasm, native), onnxruntime-web, tfjs-backend-wasm" \
  node bench/kernels/kernels.mjs --only mha --wasm "$MHA_WASM" --native "$MHA_NATIVE" \
  --json "$NATIVE/bench/kernels.json"
part "softmax: wasm against native (mha_bench --softmax)" \
  node bench/kernels/kernels.mjs --only softmax --wasm "$MHA_WASM" --native "$MHA_NATIVE"
part "dist/ size breakdown" dist_sizes
part "browser frames (bench/frame_bench.mjs, headless Chromium)" \
  scripts/with_dist_server.sh --dir "$DIST" node bench/frame_bench.mjs
part "training: steps per second, native against wasm (bench/train_bench.sh)" \
  bench/train_bench.sh ${train_args[@]+"${train_args[@]}"}
part "the induction task with each position scheme: when its heads form, and the loss at 1x and 2x the length (bench/induction_bench.sh)" \
  bench/induction_bench.sh
part "native recompute of the attention scenes (Google Benchmark)" \
  "$NATIVE/bench/attention_bench" ${gbench_args[@]+"${gbench_args[@]}"}
part "start-up on the page's main thread: long tasks, blocking time, first frame (bench/startup_bench.mjs, headless Chromium)" \
  scripts/with_dist_server.sh --dir "$DIST" node bench/startup_bench.mjs
part "browser engines: start-up, training to 99% in the compute worker, against the same worker in node (bench/engines_bench.mjs; Chromium, Firefox ESR, WebKitGTK)" \
  env ATTENTION_DEMO_DIST="$DIST" tests/browser/engines/with_display.sh scripts/with_dist_server.sh --dir "$DIST" \
  node bench/engines_bench.mjs
part "the multi-head scene's large recomputes: the compute worker alone against shared with its helper workers (bench/shared_recompute_bench.mjs, headless Chromium)" \
  scripts/with_dist_server.sh --dir "$DIST" node bench/shared_recompute_bench.mjs
part "a 66 MB model file: the page's loadModel() against attention_cli (bench/model_load_bench.mjs, headless Chromium)" \
  scripts/with_dist_server.sh --dir "$DIST" node bench/model_load_bench.mjs
part "a pretrained model of GPT-2 small's shape (440 MB llama2.c file) opened in the page against attention_cli lm (bench/lm_page_bench.mjs, headless Chromium)" \
  scripts/with_dist_server.sh --dir "$DIST" node bench/lm_page_bench.mjs
part "three embeds on one course page: first frames cold and warm, the compile shared or not, memory per embed (bench/embeds_bench.mjs, headless Chromium)" \
  scripts/with_dist_server.sh --dir "$DIST" node bench/embeds_bench.mjs
part "Lighthouse 12, mobile, the page served compressed (bench/lighthouse_bench.mjs, headless Chromium)" \
  env ATTENTION_DEMO_DIST="$DIST" node bench/lighthouse_bench.mjs

echo
if [ "${#failed[@]}" != 0 ]; then
  printf 'bench/run.sh: %d part(s) failed:\n' "${#failed[@]}"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "bench/run.sh: every part ran (timings on this shared machine are noisy: compare ratios within one run)"
