#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset "fuzz": clang-14, ASan + UBSan, in build/fuzz) and runs each:
# first every saved crash in tests/fuzz/regressions/<target>/ (each must now pass), then fuzzing for a
# bounded time from the seed corpus tests/fuzz/corpus/<target>/. Prints the inputs run per target; exits 1
# when a regression fails or fuzzing finds a crash, leak, timeout or huge allocation (the input is saved
# in build/fuzz/findings/<target>/; once fixed, copy it to tests/fuzz/regressions/<target>/).
#
# Usage: tests/fuzz/run.sh [target...]   targets: tokenizer settings attend_block model_json checkpoints (default all)
# Environment:
#   ATTN_FUZZ_SECONDS   fuzzing time per target (default 60); e.g. 1800 for a long run on demand
#   ATTN_FUZZ_RUNS      stop a target after this many inputs instead (default: no limit, time only)
#   ATTN_FUZZ_JOBS      targets fuzzed at the same time (default: the number of cores)
#   ATTN_FUZZ_RSS_MB    memory limit of one fuzzing process (default 2048)
#   ATTN_FUZZ_MALLOC_MB largest single allocation allowed (default 512): more is a finding
#   ATTN_FUZZ_TIMEOUT   seconds one input may take (default 25): more is a finding
# The evolving corpus is kept in build/fuzz/corpus/<target>/ (the seeds in the repo are never written).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

scripts/ensure_packages.sh build-essential cmake libeigen3-dev nlohmann-json3-dev libcli11-dev libbenchmark-dev \
  clang-14 libclang-rt-14-dev llvm-14

ALL_TARGETS=(tokenizer settings attend_block model_json checkpoints)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")
SECONDS_EACH="${ATTN_FUZZ_SECONDS:-60}"
RUNS="${ATTN_FUZZ_RUNS:-}"
JOBS="${ATTN_FUZZ_JOBS:-$(nproc)}"
RSS_MB="${ATTN_FUZZ_RSS_MB:-2048}"
MALLOC_MB="${ATTN_FUZZ_MALLOC_MB:-512}"
TIMEOUT="${ATTN_FUZZ_TIMEOUT:-25}"

# Longest input per target: above the largest seed; attend_block and model_json skip bigger ones anyway.
max_len() {
  case "$1" in
    tokenizer | settings) echo 4096 ;;
    attend_block) echo 8192 ;;
    model_json | checkpoints) echo 32768 ;;
    *) echo "unknown fuzz target '$1'; allowed: ${ALL_TARGETS[*]}" >&2; exit 2 ;;
  esac
}
for t in "${TARGETS[@]}"; do max_len "$t" >/dev/null; done

echo "-- building the fuzz targets (build/fuzz)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:symbolize=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
OUT="$ROOT/build/fuzz"
FUZZ_DIR="$ROOT/tests/fuzz"
limits=(-rss_limit_mb="$RSS_MB" -malloc_limit_mb="$MALLOC_MB" -timeout="$TIMEOUT")
# libFuzzer's -timeout alarm can land on its memory-watch thread and be missed, so a slow or stuck input is
# also stopped from outside: SIGABRT makes libFuzzer save the input it is running as a crash file.
replay_limit=$((TIMEOUT + 10))
fuzz_limit=0  # 0: none (a run of ATTN_FUZZ_RUNS inputs)
[ -z "$RUNS" ] && fuzz_limit=$((SECONDS_EACH + 2 * TIMEOUT + 120))

# The first line of a log that says what went wrong.
first_error() {
  grep -a -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|^finding: ' "$1" ||
    echo "exit status $2"
}

# 1. Every saved regression input, one process each, so that every failing one is named.
failed=0
for t in "${TARGETS[@]}"; do
  bin="$OUT/fuzz_$t"
  n=0
  for f in "$FUZZ_DIR/regressions/$t"/*; do
    [ -f "$f" ] || continue
    [ "$(basename "$f")" = README.md ] && continue
    n=$((n + 1))
    status=0
    timeout -s ABRT "$replay_limit" "$bin" "${limits[@]}" "$f" >"$OUT/replay.log" 2>&1 || status=$?
    if [ "$status" -eq 124 ]; then
      echo "FAIL regression $t: ${f#"$ROOT"/}: still running after $replay_limit s"
      failed=1
    elif [ "$status" -ne 0 ]; then
      echo "FAIL regression $t: ${f#"$ROOT"/}: $(first_error "$OUT/replay.log" "$status")"
      failed=1
    fi
  done
  echo "-- $t: $n regression inputs replayed"
done

# 2. Fuzz every target (JOBS at a time), each with its own log, working corpus and findings folder.
fuzz_one() {
  local t=$1
  mkdir -p "$OUT/corpus/$t" "$OUT/findings/$t"
  local stop=(-max_total_time="$SECONDS_EACH")
  [ -n "$RUNS" ] && stop=(-runs="$RUNS")
  timeout -s ABRT "$fuzz_limit" "$OUT/fuzz_$t" "${limits[@]}" "${stop[@]}" -max_len="$(max_len "$t")" \
    -dict="$FUZZ_DIR/dict/$t.dict" -artifact_prefix="$OUT/findings/$t/" -print_final_stats=1 \
    "$OUT/corpus/$t" "$FUZZ_DIR/corpus/$t" >"$OUT/logs/$t.log" 2>&1
}
mkdir -p "$OUT/logs"
budget="$SECONDS_EACH s"
[ -n "$RUNS" ] && budget="$RUNS inputs"
echo "-- fuzzing ${TARGETS[*]}: $budget each, $JOBS at a time"
declare -A pid_of
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
for t in "${TARGETS[@]}"; do
  status=0
  wait "${pid_of[$t]}" || status=$?
  log="$OUT/logs/$t.log"
  execs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  [ -z "$execs" ] && execs=$(grep -aoE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  rate=$(grep -ao 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  took=$(grep -aoE '^Done [0-9]+ runs in [0-9]+' "$log" | grep -oE '[0-9]+$' || true)
  corpus=$(find "$OUT/corpus/$t" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    printf -- '-- %-12s %10s inputs in %s s (%s/s), working corpus %s files: no findings\n' \
      "$t" "${execs:-?}" "${took:-?}" "${rate:-?}" "$corpus"
  else
    failed=1
    [ "$status" -eq 124 ] && echo "FAIL $t: one input ran for minutes (stopped after $fuzz_limit s in all)"
    saved=$(grep -aoE '(Test unit written to|written to) [^ ]+' "$log" | tail -1 | awk '{print $NF}')
    printf -- 'FAIL %-12s after %s inputs: %s\n' "$t" "${execs:-?}" "$(first_error "$log" "$status")"
    echo "     input saved as ${saved:-?}; log $log"
    echo "     reproduce: $OUT/fuzz_$t ${limits[*]} ${saved:-FILE}"
  fi
done
[ "$failed" -eq 0 ] && echo "-- fuzzing: no findings" || echo "-- fuzzing: findings above"
exit "$failed"
