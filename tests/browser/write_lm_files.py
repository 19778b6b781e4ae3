"""Writes the browser tests' pretrained-model files into the folder named on the command line (lm.test.mjs):
a llama2.c checkpoint (legacy format, 4 heads sharing 2 key/value heads) with its tokenizer.bin, and a
Hugging Face GPT-2 folder (config.json, model.safetensors in F16). Random weights from lm_reference.py."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lm_reference as ref  # noqa: E402


def vocabulary():
    pieces = [b"<unk>", b"<s>", b"</s>"] + [b"<0x%02X>" % i for i in range(256)]
    scores = [0.0] * len(pieces)
    for w in [" ", "a", "c", "e", "h", "t", "n", "o", "r", "d", "s", "m", "i", "l", "y", ".", ",", "th", "he",
              " the", " t", "ca", "at", " cat", " sat", " on", " mat", "ma", "sa", " a", "in", " in", "ly", "il"]:
        b = w.encode("utf-8")
        if b not in pieces:
            pieces.append(b)
            scores.append(float(len(b)) - 0.001 * len(pieces))
    return pieces, scores


def main(folder):
    rng = np.random.default_rng(11)
    pieces, scores = vocabulary()
    m = ref.random_model(rng, dim=32, hidden=48, layers=3, heads=4, kv_heads=2, vocab=len(pieces), seq_len=96,
                         shared=True)
    with open(os.path.join(folder, "tiny-stories.bin"), "wb") as f:
        f.write(ref.write_legacy(m))
    with open(os.path.join(folder, "tokenizer.bin"), "wb") as f:
        f.write(ref.write_tokenizer(pieces, scores))
    gpt2 = os.path.join(folder, "gpt2")
    os.makedirs(gpt2, exist_ok=True)
    config, raw, _ = ref.hf_gpt2(rng, 24, 2, 3, 50, 16, 40, "F16", "transformer.")
    with open(os.path.join(gpt2, "config.json"), "w") as f:
        json.dump(config, f)
    with open(os.path.join(gpt2, "model.safetensors"), "wb") as f:
        f.write(raw)


if __name__ == "__main__":
    main(sys.argv[1])
