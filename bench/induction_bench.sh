#!/usr/bin/env bash
# The induction task with each position scheme the model trains (attention_cli train --task induction,
# seed 1, 2,000 steps): training time, when a previous-token head and an induction head formed, the
# strongest of each, and each half's loss at the training length (32), and the repeat's loss at twice and
# four times it (length extrapolation).
# Usage: bench/induction_bench.sh [SEED]     ATTN_NATIVE_BUILD_DIR: the native build (default build/native)
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE="${ATTN_NATIVE_BUILD_DIR:-build/native}"
SEED="${1:-1}"
cmake --preset native -B "$NATIVE" >/dev/null
cmake --build "$NATIVE" --target attention_cli -j"${ATTN_JOBS:-2}" >/dev/null

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# every scheme the trainable model takes, as the CLI's help lists them
SCHEMES="$("$NATIVE/attention_cli" train --help | sed -n 's/.*--positions TEXT=[a-z]* *\([a-z|]*\).*/\1/p' | tr '|' ' ')"
for scheme in $SCHEMES; do
  "$NATIVE/attention_cli" train --task induction --positions "$scheme" --seed "$SEED" --eval-length 64,128 \
    > "$OUT/$scheme.json"
done
python3 - "$OUT" "$SEED" $SCHEMES <<'PY'
import json, os, sys
out, seed, schemes = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"induction task, seed {seed}: 2 pre-norm layers x 4 heads, d_model 32, 16 tokens, length 32")
print(f"{'scheme':12}{'seconds':>9}{'steps/s':>9}{'prev. head':>12}{'ind. head':>11}{'best prev.':>12}"
      f"{'best ind.':>11}{'loss 1st':>10}{'loss 2nd':>10}{'2nd at 64':>11}{'2nd at 128':>12}")
for scheme in schemes:
    d = json.load(open(os.path.join(out, scheme + ".json")))
    f = d["formed"]
    at = lambda k: "-" if f[k] is None else str(f[k])
    longer = [f"{e['loss_second_half']:.3f}" if "loss_second_half" in e else "error" for e in d["eval_length"]]
    print(f"{scheme:12}{d['train_seconds']:>9.2f}{d['steps_per_second']:>9.0f}{at('previous_token'):>12}"
          f"{at('induction'):>11}{max(d['previous_token'][0]):>12.2f}{max(d['induction'][-1]):>11.2f}"
          f"{d['loss_first_half']:>10.3f}{d['loss_second_half']:>10.3f}{longer[0]:>11}{longer[1]:>12}")
PY
