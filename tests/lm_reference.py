"""Float64 numpy references of llama2.c checkpoints, written from Karpathy's run.c and export.py definitions:
writers of the legacy .bin (7-int header, negative vocab_size for a separate output layer, RoPE tables after
the final norm) and of the version-1 export (magic "ak42", a 256-byte header, the norms first), of
tokenizer.bin, the forward (RMSNorm, RoPE on pairs (2i, 2i+1) of each head, grouped-query attention, SwiGLU,
the final norm and the output layer) and run.c's BPE encoding. Read by cli_lm_test.py."""
import struct

import numpy as np

MAGIC = 0x616B3432


def random_model(rng, dim, hidden, layers, heads, kv_heads, vocab, seq_len, shared):
    """Weights in run.c's (out, in) layout, float32-representable."""
    kv = dim // heads * kv_heads
    f = lambda *shape: rng.normal(scale=0.4, size=shape).astype(np.float32).astype(np.float64)
    m = {"dim": dim, "hidden": hidden, "layers": layers, "heads": heads, "kv_heads": kv_heads, "vocab": vocab,
         "seq_len": seq_len, "shared": shared,
         "emb": f(vocab, dim), "rms_att": 1 + f(layers, dim) * 0.2, "rms_ffn": 1 + f(layers, dim) * 0.2,
         "wq": f(layers, dim, dim), "wk": f(layers, kv, dim), "wv": f(layers, kv, dim), "wo": f(layers, dim, dim),
         "w1": f(layers, hidden, dim), "w2": f(layers, dim, hidden), "w3": f(layers, hidden, dim),
         "rms_final": 1 + f(dim) * 0.2}
    m["wcls"] = m["emb"] if shared else f(vocab, dim)
    return m


def _floats(*arrays):
    return b"".join(np.asarray(a, dtype="<f4").tobytes() for a in arrays)


def write_legacy(m):
    head = m["dim"] // m["heads"]
    vocab = m["vocab"] if m["shared"] else -m["vocab"]
    out = struct.pack("<7i", m["dim"], m["hidden"], m["layers"], m["heads"], m["kv_heads"], vocab, m["seq_len"])
    out += _floats(m["emb"], m["rms_att"], m["wq"], m["wk"], m["wv"], m["wo"], m["rms_ffn"], m["w1"], m["w2"],
                   m["w3"], m["rms_final"])
    # freq_cis_real and freq_cis_imag (seq_len, head / 2): written, never read (run.c skips them)
    pos = np.arange(m["seq_len"])[:, None] * (10000.0 ** (-np.arange(0, head, 2) / head))[None, :]
    out += _floats(np.cos(pos), np.sin(pos))
    if not m["shared"]:
        out += _floats(m["wcls"])
    return out


def write_v1(m):
    out = struct.pack("<Ii7iB", MAGIC, 1, m["dim"], m["hidden"], m["layers"], m["heads"], m["kv_heads"], m["vocab"],
                      m["seq_len"], int(m["shared"]))
    out += b"\0" * (256 - len(out))
    out += _floats(m["rms_att"], m["rms_ffn"], m["rms_final"], m["emb"], m["wq"], m["wk"], m["wv"], m["wo"],
                   m["w1"], m["w2"], m["w3"])
    if not m["shared"]:
        out += _floats(m["wcls"])
    return out


def rmsnorm(x, w):
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-5) * w


def rope(x, head):
    """x (T, n_heads * head): each head's pair (2i, 2i+1) at position t turned by t * 10000^(-2i/head)."""
    t = np.arange(x.shape[0])[:, None]
    i = np.arange(0, x.shape[1], 2) % head
    theta = t * 10000.0 ** (-i / head)[None, :]
    a, b = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = a * np.cos(theta) - b * np.sin(theta)
    out[:, 1::2] = a * np.sin(theta) + b * np.cos(theta)
    return out


def forward(m, ids, off=()):
    """ids (T,) -> logits (T, V), weights [layer][head] (T, T). Heads "L.H" in `off` output zeros."""
    dim, heads, kv_heads = m["dim"], m["heads"], m["kv_heads"]
    head = dim // heads
    group = heads // kv_heads
    t = len(ids)
    x = m["emb"][ids]
    weights = []
    for l in range(m["layers"]):
        xb = rmsnorm(x, m["rms_att"][l])
        q, k, v = rope(xb @ m["wq"][l].T, head), rope(xb @ m["wk"][l].T, head), xb @ m["wv"][l].T
        concat = np.zeros((t, dim))
        layer_w = []
        for h in range(heads):
            g = h // group
            s = q[:, h * head:(h + 1) * head] @ k[:, g * head:(g + 1) * head].T / np.sqrt(head)
            s = np.where(np.triu(np.ones((t, t)), 1) > 0, -np.inf, s)
            w = np.exp(s - s.max(axis=-1, keepdims=True))
            w /= w.sum(axis=-1, keepdims=True)
            layer_w.append(w)
            if f"{l}.{h}" not in off:
                concat[:, h * head:(h + 1) * head] = w @ v[:, g * head:(g + 1) * head]
        weights.append(layer_w)
        x = x + concat @ m["wo"][l].T
        xb = rmsnorm(x, m["rms_ffn"][l])
        a = xb @ m["w1"][l].T
        x = x + ((a / (1 + np.exp(-a))) * (xb @ m["w3"][l].T)) @ m["w2"][l].T
    return rmsnorm(x, m["rms_final"]) @ m["wcls"].T, weights


def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


# ---------------------------------------------------------------------------------------------------------
# tokenizer.bin: int32 max_token_length, then per piece float32 score, int32 length, the bytes.

def write_tokenizer(pieces, scores):
    out = struct.pack("<i", max(len(p) for p in pieces))
    for p, s in zip(pieces, scores):
        out += struct.pack("<fi", s, len(p)) + p
    return out


def encode(pieces, scores, text, bos=True):
    """run.c's encode: BOS, a " " piece before a non-empty text, each UTF-8 character's piece or its bytes as
    3 + byte, then repeatedly the best-scoring joinable pair (the first of equals) merged."""
    index = {}
    for i, p in enumerate(pieces):
        index.setdefault(p, i)
    ids = [1] if bos else []
    data = text.encode("utf-8")
    if data:
        ids.append(index[b" "])
    for ch in text:
        b = ch.encode("utf-8")
        ids.extend([index[b]] if b in index else [3 + x for x in b])
    while True:
        best, best_id, at = -1e10, -1, -1
        for i in range(len(ids) - 1):
            j = index.get(pieces[ids[i]] + pieces[ids[i + 1]], -1)
            if j >= 0 and scores[j] > best:
                best, best_id, at = scores[j], j, i
        if best_id < 0:
            return ids
        ids[at:at + 2] = [best_id]
