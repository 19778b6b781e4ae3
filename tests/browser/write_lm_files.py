"""Writes the browser tests' pretrained-model files into the folder named on the command line (lm.test.mjs):
a llama2.c checkpoint (legacy format, 4 heads sharing 2 key/value heads) with its tokenizer.bin; a Hugging
Face GPT-2 folder (config.json, model.safetensors in F16, vocab.json and merges.txt); a Llama folder (4 heads
sharing 2 key/value heads, BF16 tensors in two shards named by model.safetensors.index.json, and a
tokenizer.json). Random weights from lm_reference.py."""
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
    # a byte-level BPE of the letters of "hello world cat", "Ġ" (a space in GPT-2's byte alphabet) and merges
    letters = ["h", "e", "l", "o", "w", "r", "d", "\u0120", "c", "a", "t"]
    joins = [("h", "e"), ("l", "l"), ("he", "ll"), ("\u0120", "w"), ("o", "r"), ("\u0120w", "or"), ("c", "a")]
    vocab = letters + [a + b for a, b in joins]
    vocab = {t: i for i, t in enumerate(vocab + [f"x{i}" for i in range(config["vocab_size"] - len(vocab))])}
    with open(os.path.join(gpt2, "vocab.json"), "w") as f:
        json.dump(vocab, f)
    with open(os.path.join(gpt2, "merges.txt"), "w") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in joins))

    llama = os.path.join(folder, "llama")
    os.makedirs(llama, exist_ok=True)
    config, _, stored = ref.hf_llama(rng, 32, 40, 2, 4, 2, 50, False, "F32", 10000.0)
    names = sorted(stored)
    shards = {"model-00001-of-00002.safetensors": names[:len(names) // 2],
              "model-00002-of-00002.safetensors": names[len(names) // 2:]}
    for file, part in shards.items():
        raw, _ = ref.write_safetensors({n: stored[n] for n in part}, {n: "BF16" for n in part})
        with open(os.path.join(llama, file), "wb") as f:
            f.write(raw)
    index = {"metadata": {}, "weight_map": {n: file for file, part in shards.items() for n in part}}
    tokenizer = {"version": "1.0", "added_tokens": [], "normalizer": None,
                 "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                                   "use_regex": True},
                 "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                           "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "vocab": vocab,
                           "merges": [f"{a} {b}" for a, b in joins]}}
    for name, value in {"config.json": config, "model.safetensors.index.json": index,
                        "tokenizer.json": tokenizer}.items():
        with open(os.path.join(llama, name), "w") as f:
            json.dump(value, f)


if __name__ == "__main__":
    main(sys.argv[1])
