#!/usr/bin/env bash
# attention_cli lm on a checkpoint of stories15M's shape (dim 288, hidden 768, 6 layers, 6 heads, vocab
# 32,000, context 256: 15M float32 weights, random, written by tests/lm_reference.py): the time to read it
# and run one prompt, generation in tokens per second, a 255-token prompt with every head's attention and
# --roles, each with its peak memory against the file's size; then Hugging Face folders of about the same
# size (GPT-2's layout in F32, Llama's in BF16 split over two shards), read and run on one token, with their
# peak memory against the model's float32 weights.
# Usage: bench/lm_bench.sh     ATTN_NATIVE_BUILD_DIR: the native build (default build/native)
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE="${ATTN_NATIVE_BUILD_DIR:-build/native}"
cmake --preset native -B "$NATIVE" >/dev/null
cmake --build "$NATIVE" --target attention_cli -j"${ATTN_JOBS:-2}" >/dev/null

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
(cd tests && /usr/bin/python3 - "$OUT/stories15M-shape.bin" <<'PY'
import sys
import numpy as np
import lm_reference as ref
m = ref.random_model(np.random.default_rng(1), dim=288, hidden=768, layers=6, heads=6, kv_heads=6, vocab=32000,
                     seq_len=256, shared=True)
open(sys.argv[1], "wb").write(ref.write_legacy(m))
PY
)
(cd tests && /usr/bin/python3 - "$OUT" <<'PY'
import json, os, sys
import numpy as np
import lm_reference as ref
out = sys.argv[1]
def folder(name, config, shards):
    os.makedirs(os.path.join(out, name))
    json.dump(config, open(os.path.join(out, name, "config.json"), "w"))
    for file, raw in shards.items():
        open(os.path.join(out, name, file), "wb").write(raw)
rng = np.random.default_rng(2)
config, raw, _ = ref.hf_gpt2(rng, 288, 6, 6, 32000, 256, 1152, "F32", "transformer.")
folder("gpt2-f32", config, {"model.safetensors": raw})
config, _, stored = ref.hf_llama(rng, 288, 768, 6, 6, 6, 32000, False, "BF16", 10000.0)
names = sorted(stored)
halves = {f"model-0000{i + 1}-of-00002.safetensors": names[i::2] for i in range(2)}
folder("llama-bf16-shards", config,
       {f: ref.write_safetensors({n: stored[n] for n in part}, {n: "BF16" for n in part})[0]
        for f, part in halves.items()})
PY
)
MODEL="$OUT/stories15M-shape.bin"
bytes=$(stat -c %s "$MODEL")
prompt=$(python3 -c "print(','.join(str(3 + (i * 7919) % 31990) for i in range(255)))")
# run NAME ARGS...: wall seconds and peak resident memory of one lm command
run() {
  local name="$1"
  shift
  /usr/bin/time -f "%e %M" -o "$OUT/time" "$NATIVE/attention_cli" lm --model "$MODEL" "$@" >"$OUT/out.json"
  read -r secs kb <"$OUT/time"
  python3 -c "import sys; n, s, kb, b = sys.argv[1:]; kb, b = float(kb), float(b)
print(f'{n:34} {float(s):8.2f} s {kb / 1024:8.1f} MB peak ({kb * 1024 / b:.2f}x the file)')" "$name" "$secs" "$kb" "$bytes"
}
echo "checkpoint: $((bytes / 1024 / 1024)) MB, stories15M's shape (random weights)"
run "read + 1 token" --ids 1
run "read + 64 generated (greedy)" --ids 1 --generate 64
run "255-token prompt, --attention" --ids "$prompt" --attention
run "--roles (32 ids, repeated)" --ids 1 --roles
secs=$(/usr/bin/time -f "%e" "$NATIVE/attention_cli" lm --model "$MODEL" --ids 1 --generate 64 2>&1 >/dev/null | tail -1)
base=$(/usr/bin/time -f "%e" "$NATIVE/attention_cli" lm --model "$MODEL" --ids 1 2>&1 >/dev/null | tail -1)
python3 -c "import sys; g, b = map(float, sys.argv[1:]); print(f'generation: {64 / (g - b):.1f} tokens/s (64 tokens, less the read)')" \
  "$secs" "$base"
# folder NAME: one token through a Hugging Face folder, its peak memory against its weights as float32
folder() {
  local dir="$OUT/$1" weights
  weights=$(python3 -c "import json, os, struct, sys
n = 0
for f in os.listdir(sys.argv[1]):
    if f.endswith('.safetensors'):
        raw = open(os.path.join(sys.argv[1], f), 'rb').read()
        h = json.loads(raw[8:8 + struct.unpack('<Q', raw[:8])[0]])
        n += sum(4 * (v['data_offsets'][1] - v['data_offsets'][0]) // (4 if v['dtype'] == 'F32' else 2)
                 for k, v in h.items() if k != '__metadata__')
print(n)" "$dir")
  /usr/bin/time -f "%e %M" -o "$OUT/time" "$NATIVE/attention_cli" lm --model "$dir" --ids 1 >"$OUT/out.json"
  read -r secs kb <"$OUT/time"
  python3 -c "import sys; n, s, kb, w = sys.argv[1:]; kb, w = float(kb), float(w)
print(f'{n:34} {float(s):8.2f} s {kb / 1024:8.1f} MB peak ({kb * 1024 / w:.2f}x its float32 weights)')" \
    "$1, read + 1 token" "$secs" "$kb" "$weights"
}
folder gpt2-f32
folder llama-bf16-shards
