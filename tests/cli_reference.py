"""Independent float64 numpy reference of the maths attention_cli exposes (used by cli_test.py)."""
import numpy as np


def sinusoidal(positions, d_model, base=10000.0):
    """(P, d_model): even dims sin, odd dims cos, hand i at speed base^(-2i/d_model)."""
    pos = np.asarray(positions, dtype=np.float64)[:, None]
    dims = np.arange(d_model)
    speed = base ** (-(2 * (dims // 2)) / d_model)
    angles = pos * speed[None, :]
    return np.where(dims % 2 == 0, np.sin(angles), np.cos(angles))


def rope(m, base=10000.0):
    """Rotates pairs (2i, 2i+1) of each row t of m (T, d) by t * base^(-2i/d)."""
    t, d = m.shape
    out = m.copy()
    for i in range(d // 2):
        theta = np.arange(t) * base ** (-2 * i / d)
        c, s = np.cos(theta), np.sin(theta)
        x0, x1 = m[:, 2 * i], m[:, 2 * i + 1]
        out[:, 2 * i] = x0 * c - x1 * s
        out[:, 2 * i + 1] = x0 * s + x1 * c
    return out


def softmax(s):
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def relative_bucket(rel, bidirectional, num_buckets=32, max_distance=128):
    """T5's relative_position_bucket (Raffel et al., 2020) of rel = j - i (key minus query position), scalar or
    array. n = i - j; bidirectional: half the buckets each side, keys after the query (n < 0) in the upper half;
    causal: keys after the query share bucket 0. Below max_exact = (buckets per side) // 2 one bucket per
    distance, then log-spaced buckets up to max_distance, the last one taking everything beyond."""
    n = -np.asarray(rel, dtype=np.int64)
    ret = np.zeros_like(n)
    if bidirectional:
        num_buckets //= 2
        ret += np.where(n < 0, num_buckets, 0)
        n = np.abs(n)
    else:
        n = np.maximum(n, 0)
    max_exact = num_buckets // 2
    with np.errstate(divide="ignore"):  # log2(0) where n = 0: that branch is not taken
        large = max_exact + np.floor(np.log2(n / max_exact) / np.log2(max_distance / max_exact)
                                     * (num_buckets - max_exact))
    ret += np.where(n < max_exact, n, np.minimum(num_buckets - 1, large)).astype(np.int64)
    return ret if ret.ndim else int(ret)


def relative_bias(table, t, bidirectional):
    """One head's (T, T) relative position bias: [i, j] = table[bucket(j - i)], table (num_buckets,)."""
    idx = np.arange(t)
    return np.asarray(table)[relative_bucket(idx[None, :] - idx[:, None], bidirectional, len(table))]


def head(q, k, v, scheme="none", causal=False, h=0, heads=1, bias=None):
    """One head on projected q, k, v (T, d_k): returns (output, weights). bias (T, T), if given, is added to the
    scores before the causal mask (the relative scheme's learned bias)."""
    t, d_k = q.shape
    if scheme == "rope":
        q, k = rope(q), rope(k)
    scores = q @ k.T / np.sqrt(d_k)
    if scheme == "alibi":
        slope = 2.0 ** (-8.0 * (h + 1) / heads)
        idx = np.arange(t)
        scores = scores - slope * np.abs(idx[:, None] - idx[None, :])
    if bias is not None:
        scores = scores + bias
    if causal:
        scores = np.where(np.triu(np.ones((t, t)), 1) > 0, -np.inf, scores)
    w = softmax(scores)
    return w @ v, w


def mha(x, w_qkv, w_o, heads, scheme="none", causal=False):
    """x (B, T, D) -> (out (B, T, D), weights (B, H, T, T)), reshaped like PyTorch's view + transpose."""
    b, t, d = x.shape
    d_k = d // heads
    if scheme == "sinusoidal":
        x = x + sinusoidal(range(t), d)[None]
    q, k, v = np.split(x @ w_qkv, 3, axis=-1)
    split = lambda m: m.reshape(b, t, heads, d_k).transpose(0, 2, 1, 3)  # (B, H, T, d_k)
    q, k, v = split(q), split(k), split(v)
    outs = np.zeros((b, heads, t, d_k))
    weights = np.zeros((b, heads, t, t))
    for bi in range(b):
        for h in range(heads):
            outs[bi, h], weights[bi, h] = head(q[bi, h], k[bi, h], v[bi, h], scheme, causal, h, heads)
    concat = outs.transpose(0, 2, 1, 3).reshape(b, t, d)
    return concat @ w_o, weights


def layer_norm(x, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps)


def encoder_block(x, w_qkv, w_o, heads, w1, b1, w2, b2):
    """x (T, D) -> dict of every intermediate; LayerNorm gains 1 and biases 0."""
    attn, _ = mha(x[None], w_qkv, w_o, heads)
    attn = attn[0]
    r1 = x + attn
    n1 = layer_norm(r1)
    hidden = np.maximum(n1 @ w1 + b1, 0.0)
    ffn = hidden @ w2 + b2
    r2 = n1 + ffn
    return {"attention": attn, "residual1": r1, "norm1": n1, "hidden": hidden, "ffn": ffn,
            "residual2": r2, "output": layer_norm(r2)}


def router_forward(t, config, ids, off=()):
    """The refund router's float64 forward: t, its tensors by name (float64); config, its model file's config;
    ids (T,) -> probabilities (C,), weights (layers, H, T, T). Heads named in `off` ("L.H") output zeros.
    positions "relative": each head adds layers.{l}.distance_bias[h][bucket(j - i)] to its scores."""
    d, heads, n = config["d_model"], config["heads"], len(ids)
    d_k = d // heads
    x = t["token_embedding"][ids]
    if config["positions"] == "sinusoidal":
        x = x + sinusoidal(range(n), d)
    if config["positions"] == "learned":
        x = x + t["position_table"][:n]
    weights = np.zeros((config["layers"], heads, n, n))
    for layer in range(config["layers"]):
        p = lambda name: t[f"layers.{layer}.{name}"]
        qkv = x @ p("w_qkv")
        concat = np.zeros((n, d))
        for h in range(heads):
            q, k, v = (qkv[:, part * d + h * d_k: part * d + (h + 1) * d_k] for part in range(3))
            bias = (relative_bias(p("distance_bias")[h], n, not config["causal"])
                    if config["positions"] == "relative" else None)
            scheme = config["positions"] if config["positions"] in ("rope", "alibi") else "none"
            out, weights[layer, h] = head(q, k, v, scheme, config["causal"], h, heads, bias=bias)
            if f"{layer}.{h}" not in off:
                concat[:, h * d_k:(h + 1) * d_k] = out
        x = layer_norm(x + concat @ p("w_o")) * p("ln1_gain") + p("ln1_bias")
        if config["d_ff"] > 0:
            hidden = np.maximum(x @ p("w1") + p("b1"), 0.0)
            x = layer_norm(x + hidden @ p("w2") + p("b2")) * p("ln2_gain") + p("ln2_bias")
    logits = x.mean(axis=0, keepdims=True) @ t["classifier.w"] + t["classifier.b"]
    return softmax(logits)[0], weights
