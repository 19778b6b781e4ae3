"""Float64 numpy references of llama2.c checkpoints, written from Karpathy's run.c and export.py definitions:
writers of the legacy .bin (7-int header, negative vocab_size for a separate output layer, RoPE tables after
the final norm) and of the version-1 export (magic "ak42", a 256-byte header, the norms first), of
tokenizer.bin, the forward (RMSNorm, RoPE on pairs (2i, 2i+1) of each head, grouped-query attention, SwiGLU,
the final norm and the output layer) and run.c's BPE encoding; and of Hugging Face Llama folders (config.json,
model.safetensors in F32, F16 or BF16) with transformers' forward (RoPE in the halves layout). Read by
cli_lm_test.py."""
import json
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


def causal_weights(q, k):
    """One head's causal attention weights: q, k (T, d) -> softmax(q k^T / sqrt(d)) with keys after each
    query masked, (T, T)."""
    n = q.shape[0]
    s = q @ k.T / np.sqrt(q.shape[1])
    s = np.where(np.triu(np.ones((n, n)), 1) > 0, -np.inf, s)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True)


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
            w = causal_weights(q[:, h * head:(h + 1) * head], k[:, g * head:(g + 1) * head])
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


# ---------------------------------------------------------------------------------------------------------
# Hugging Face Llama folders: config.json and model.safetensors (8-byte header length, JSON header, data);
# the forward as transformers' LlamaForCausalLM computes it, RoPE in the halves layout (rotate_half).

def _stored(a, dtype):
    """The bytes of `a` in dtype, and the float64 values they hold."""
    a = np.asarray(a, dtype=np.float64)
    if dtype == "F32":
        s = a.astype("<f4")
        return s.tobytes(), s.astype(np.float64)
    if dtype == "F16":
        s = a.astype("<f2")
        return s.tobytes(), s.astype(np.float64)
    bits = (a.astype("<f4").view("<u4") >> 16).astype("<u2")  # BF16: the float32's top 16 bits
    return bits.tobytes(), (bits.astype("<u4") << 16).view("<f4").astype(np.float64)


def write_safetensors(tensors, dtypes):
    """tensors {name: array}, dtypes {name: "F32"|"F16"|"BF16"} -> (file bytes, {name: stored float64})."""
    header, data, stored = {}, b"", {}
    for name, a in tensors.items():
        raw, stored[name] = _stored(a, dtypes[name])
        header[name] = {"dtype": dtypes[name], "shape": list(np.shape(a)),
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data, stored


def hf_llama(rng, dim, hidden, layers, heads, kv_heads, vocab, tied, dtype, theta):
    """A random Llama folder's (config, safetensors bytes, stored float64 tensors)."""
    kv = dim // heads * kv_heads
    f = lambda *shape: rng.normal(scale=0.4, size=shape)
    t = {"model.embed_tokens.weight": f(vocab, dim), "model.norm.weight": 1 + 0.2 * f(dim)}
    for l in range(layers):
        p = f"model.layers.{l}."
        t.update({p + "self_attn.q_proj.weight": f(dim, dim), p + "self_attn.k_proj.weight": f(kv, dim),
                  p + "self_attn.v_proj.weight": f(kv, dim), p + "self_attn.o_proj.weight": f(dim, dim),
                  p + "mlp.gate_proj.weight": f(hidden, dim), p + "mlp.up_proj.weight": f(hidden, dim),
                  p + "mlp.down_proj.weight": f(dim, hidden), p + "input_layernorm.weight": 1 + 0.2 * f(dim),
                  p + "post_attention_layernorm.weight": 1 + 0.2 * f(dim)})
    if not tied:
        t["lm_head.weight"] = f(vocab, dim)
    config = {"model_type": "llama", "hidden_size": dim, "intermediate_size": hidden, "num_hidden_layers": layers,
              "num_attention_heads": heads, "num_key_value_heads": kv_heads, "vocab_size": vocab,
              "max_position_embeddings": 64, "rms_norm_eps": 1e-6, "rope_theta": theta,
              "tie_word_embeddings": tied, "architectures": ["LlamaForCausalLM"]}
    raw, stored = write_safetensors(t, {k: dtype for k in t})
    return config, raw, stored


def hf_llama_forward(config, t, ids, off=()):
    """ids (T,) -> logits (T, V), weights [layer][head] (T, T), from the stored tensors `t`."""
    dim, heads = config["hidden_size"], config["num_attention_heads"]
    kv_heads, eps, theta = config["num_key_value_heads"], config["rms_norm_eps"], config["rope_theta"]
    hd, n = dim // heads, len(ids)
    inv = theta ** (-np.arange(0, hd, 2) / hd)           # (hd / 2,)
    ang = np.arange(n)[:, None] * inv[None, :]
    cos, sin = np.cos(np.concatenate([ang, ang], 1)), np.sin(np.concatenate([ang, ang], 1))  # (T, hd)
    rot = lambda x: x * cos + np.concatenate([-x[:, hd // 2:], x[:, :hd // 2]], 1) * sin     # rotate_half
    norm = lambda x, w: x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w
    x = t["model.embed_tokens.weight"][ids]
    weights = []
    for l in range(config["num_hidden_layers"]):
        p = lambda name: t[f"model.layers.{l}.{name}"]
        h = norm(x, p("input_layernorm.weight"))
        q = h @ p("self_attn.q_proj.weight").T
        k, v = h @ p("self_attn.k_proj.weight").T, h @ p("self_attn.v_proj.weight").T
        out, layer_w = np.zeros((n, dim)), []
        for i in range(heads):
            g = i // (heads // kv_heads)
            w = causal_weights(rot(q[:, i * hd:(i + 1) * hd]), rot(k[:, g * hd:(g + 1) * hd]))
            layer_w.append(w)
            if f"{l}.{i}" not in off:
                out[:, i * hd:(i + 1) * hd] = w @ v[:, g * hd:(g + 1) * hd]
        weights.append(layer_w)
        x = x + out @ p("self_attn.o_proj.weight").T
        h = norm(x, p("post_attention_layernorm.weight"))
        a = h @ p("mlp.gate_proj.weight").T
        x = x + ((a / (1 + np.exp(-a))) * (h @ p("mlp.up_proj.weight").T)) @ p("mlp.down_proj.weight").T
    head = t["model.embed_tokens.weight"] if config["tie_word_embeddings"] else t["lm_head.weight"]
    return norm(x, t["model.norm.weight"]) @ head.T, weights


# ---------------------------------------------------------------------------------------------------------
# Hugging Face GPT-2 folders: Conv1D weights stored (in, out); the forward as GPT2LMHeadModel computes it.

def hf_gpt2(rng, dim, layers, heads, vocab, slots, inner, dtype, prefix):
    """A random GPT-2 folder's (config, safetensors bytes, stored float64 tensors without the prefix)."""
    f = lambda *shape: rng.normal(scale=0.4, size=shape)
    t = {"wte.weight": f(vocab, dim), "wpe.weight": f(slots, dim), "ln_f.weight": 1 + 0.2 * f(dim),
         "ln_f.bias": 0.2 * f(dim)}
    for l in range(layers):
        p = f"h.{l}."
        t.update({p + "ln_1.weight": 1 + 0.2 * f(dim), p + "ln_1.bias": 0.2 * f(dim),
                  p + "attn.c_attn.weight": f(dim, 3 * dim), p + "attn.c_attn.bias": 0.2 * f(3 * dim),
                  p + "attn.c_proj.weight": f(dim, dim), p + "attn.c_proj.bias": 0.2 * f(dim),
                  p + "ln_2.weight": 1 + 0.2 * f(dim), p + "ln_2.bias": 0.2 * f(dim),
                  p + "mlp.c_fc.weight": f(dim, inner), p + "mlp.c_fc.bias": 0.2 * f(inner),
                  p + "mlp.c_proj.weight": f(inner, dim), p + "mlp.c_proj.bias": 0.2 * f(dim)})
    config = {"model_type": "gpt2", "n_embd": dim, "n_layer": layers, "n_head": heads, "vocab_size": vocab,
              "n_positions": slots, "n_ctx": slots, "n_inner": inner if inner != 4 * dim else None,
              "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5}
    named = {prefix + k: v for k, v in t.items()}
    raw, stored = write_safetensors(named, {k: dtype for k in named})
    return config, raw, {k[len(prefix):]: v for k, v in stored.items()}


def gpt2_forward(config, t, ids, off=()):
    """ids (T,) -> logits (T, V), weights [layer][head] (T, T)."""
    dim, heads, n = config["n_embd"], config["n_head"], len(ids)
    hd = dim // heads
    ln = lambda x, w, b: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b
    gelu = lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    x = t["wte.weight"][ids] + t["wpe.weight"][:n]
    weights = []
    for l in range(config["n_layer"]):
        p = lambda name: t[f"h.{l}.{name}"]
        qkv = ln(x, p("ln_1.weight"), p("ln_1.bias")) @ p("attn.c_attn.weight") + p("attn.c_attn.bias")
        q, k, v = qkv[:, :dim], qkv[:, dim:2 * dim], qkv[:, 2 * dim:]
        out, layer_w = np.zeros((n, dim)), []
        for h in range(heads):
            w = causal_weights(q[:, h * hd:(h + 1) * hd], k[:, h * hd:(h + 1) * hd])
            layer_w.append(w)
            if f"{l}.{h}" not in off:
                out[:, h * hd:(h + 1) * hd] = w @ v[:, h * hd:(h + 1) * hd]
        weights.append(layer_w)
        x = x + out @ p("attn.c_proj.weight") + p("attn.c_proj.bias")
        hidden = gelu(ln(x, p("ln_2.weight"), p("ln_2.bias")) @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"))
        x = x + hidden @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias")
    return ln(x, t["ln_f.weight"], t["ln_f.bias"]) @ t["wte.weight"].T, weights


def role_scores(weights, segment):
    """Per head of weights [layer][head] (2R, 2R): previous_token (mean w[i, i-1]), induction (mean over the
    repeat i >= R of w[i, i-R+1]) and first_token (mean w[i, 0])."""
    t = 2 * segment
    out = []
    for layer in weights:
        for w in layer:
            i = np.arange(1, t)
            j = np.arange(segment, t)
            out.append({"previous_token": w[i, i - 1].mean(), "induction": w[j, j - segment + 1].mean(),
                        "first_token": w[:, 0].mean()})
    return out
