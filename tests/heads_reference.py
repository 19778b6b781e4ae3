"""Float64 numpy references of attention_cli train's heads, written from the definitions: the role rule, the
induction model's forward (causal pre-norm, attention only, next-token output) with its half losses and the
previous-token and prefix-matching scores of Olsson et al. 2022, and the router's role scores and test
metrics, each with heads switched off (zeros or their mean output). Read by cli_heads_test.py."""
import numpy as np

import cli_reference as ref

ITEMS = ["cake", "delivery fee", "candles", "hamper", "gift box", "cookies", "flowers", "balloons",
         "greeting card", "tea set", "chocolates", "mugs", "photo frame", "napkins"]
ROUTER_SCORES = ("refunded_item", "excluded_item", "not", "previous_token", "first_token")


def tensors(doc):
    return {name: np.asarray(v["data"], dtype=np.float64).reshape(v["shape"]) for name, v in doc["weights"].items()}


def head_name(layer, head):
    return f"{layer}.{head}"


def role_of(scores):
    """The rule: the largest score names the head if it is >= 0.5 and >= 2x the next largest, else mixed."""
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    (name, top), (_, second) = ranked[0], ranked[1]
    return name if top >= 0.5 and top >= 2 * second else "mixed"


def role_margin(scores):
    """How far the largest score is from either threshold of the rule (small: float32 may decide otherwise)."""
    top, second = sorted(scores.values(), reverse=True)[:2]
    return min(abs(top - 0.5), abs(top - 2 * second))


# ---------------------------------------------------------------------------------------------------------
# The induction model: causal pre-norm, attention only, next-token output.

def induction_forward(t, config, ids, off=(), ablate="zero", means=None):
    """ids (N, T) -> logits (N, T, V), weights (layers, N, H, T, T), clean head outputs (layers, N, H, T, d_k).
    Heads in `off` ("L.H") give zeros, or with ablate "mean" their mean output `means[(l, h)]` (d_k,)."""
    n, length = ids.shape
    d, heads, scheme = config["d_model"], config["heads"], config["positions"]
    d_k = d // heads
    x = t["token_embedding"][ids]
    if scheme == "sinusoidal":
        x = x + ref.sinusoidal(range(length), d)[None]
    if scheme == "learned":
        x = x + t["position_table"][:length][None]
    later = np.triu(np.ones((length, length)), 1) > 0
    weights = np.zeros((config["layers"], n, heads, length, length))
    outs = np.zeros((config["layers"], n, heads, length, d_k))
    for layer in range(config["layers"]):
        p = lambda name: t[f"layers.{layer}.{name}"]
        qkv = (ref.layer_norm(x) * p("ln1_gain") + p("ln1_bias")) @ p("w_qkv")
        concat = np.zeros((n, length, d))
        for h in range(heads):
            q, k, v = (qkv[..., part * d + h * d_k: part * d + (h + 1) * d_k] for part in range(3))
            if scheme == "rope":
                q = np.stack([ref.rope(m) for m in q])
                k = np.stack([ref.rope(m) for m in k])
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)
            if scheme == "alibi":  # Press et al., 2022: head h of H subtracts 2^(-8(h+1)/H) |i - j|
                idx = np.arange(length)
                scores = scores - 2.0 ** (-8.0 * (h + 1) / heads) * np.abs(idx[:, None] - idx[None, :])
            if scheme == "relative":  # Raffel et al., 2020: a learned bias per head and causal distance bucket
                scores = scores + ref.relative_bias(p("distance_bias")[h], length, bidirectional=False)
            scores = np.where(later, -np.inf, scores)
            w = ref.softmax(scores)
            out = w @ v
            weights[layer, :, h], outs[layer, :, h] = w, out
            if head_name(layer, h) in off:
                out = np.broadcast_to(means[(layer, h)], out.shape) if ablate == "mean" else np.zeros_like(out)
            concat[..., h * d_k:(h + 1) * d_k] = out
        x = x + concat @ p("w_o")
    y = ref.layer_norm(x) * t["final_norm.gain"] + t["final_norm.bias"]
    return y @ t["classifier.w"] + t["classifier.b"], weights, outs


def induction_metrics(logits, weights, ids):
    """The half losses (position i predicts ids[i + 1]) and every head's two scores ([layer][head])."""
    n, length = ids.shape
    half = length // 2
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(log_p[:, :-1], ids[:, 1:, None], axis=-1)[..., 0]  # (N, T-1): i predicts i+1
    i = np.arange(1, length)
    j = np.arange(half, length)
    return {"loss_first_half": nll[:, 0:half - 1].mean(),        # targets 1 .. L-1
            "loss_second_half": nll[:, half:2 * half - 1].mean(),  # targets L+1 .. 2L-1
            "previous_token": weights[..., i, i - 1].mean(axis=(1, 3)),
            "induction": weights[..., j, j - half + 1].mean(axis=(1, 3))}


def induction_reference(doc, off=(), ablate="zero"):
    t, config = tensors(doc), doc["config"]
    ids = np.asarray(doc["held_out"], dtype=np.int64)
    logits, weights, outs = induction_forward(t, config, ids)
    means = {(l, h): outs[l, :, h].mean(axis=(0, 1)) for l in range(config["layers"]) for h in range(config["heads"])}
    clean = induction_metrics(logits, weights, ids)
    if not off:
        return clean, means
    logits, weights, _ = induction_forward(t, config, ids, off, ablate, means)
    return induction_metrics(logits, weights, ids), means


# ---------------------------------------------------------------------------------------------------------
# The router: cli_reference.router_forward (post-norm, mean pool and classifier), with each head's attention
# weights and heads switched off (zeros).

def occurrences(tokens, needle):
    """Every position of every occurrence of the token sequence `needle` in tokens."""
    found = set()
    for s in range(len(tokens) - len(needle) + 1):
        if tokens[s:s + len(needle)] == needle:
            found.update(range(s, s + len(needle)))
    return sorted(found)


def router_test_metrics(emails, probs):
    p = np.asarray(probs)
    labels = np.array([e["label"] for e in emails])
    right = p.argmax(axis=1) == labels
    groups = {}
    for i, e in enumerate(emails):
        groups.setdefault((e["pair"], e["template"]), []).append(i)
    twins = [(a, b) for members in groups.values() for a in members for b in members
             if a < b and emails[a]["label"] == emails[b]["keep"] and emails[a]["keep"] == emails[b]["label"]]
    return {"test_accuracy": right.mean(),
            "flipped_pair_accuracy": np.mean([right[a] and right[b] for a, b in twins]),
            "test_loss": -np.log(p[np.arange(len(p)), labels]).mean()}, len(twins)


def router_reference(doc, off_sets):
    """The clean forward's role scores and test metrics, and the test metrics with each set of heads off."""
    t, config = tensors(doc), doc["config"]
    index = {w: i for i, w in enumerate(doc["vocab"])}
    emails = doc["held_out"]
    layers, heads = config["layers"], config["heads"]
    sums = np.zeros((layers, heads, len(ROUTER_SCORES)))
    with_not = 0
    probs = {off: [] for off in [()] + list(off_sets)}
    for e in emails:
        tokens = e["tokens"]
        ids = [index.get(tok, 0) for tok in tokens]
        p, w = ref.router_forward(t, config, ids)
        probs[()].append(p)
        for off in off_sets:
            probs[off].append(ref.router_forward(t, config, ids, off)[0])
        n = len(ids)
        on = lambda positions: w[..., positions].sum(axis=-1).mean(axis=-1)  # (layers, H)
        nots = [i for i, tok in enumerate(tokens) if tok == "not"]
        with_not += 1 if nots else 0
        i = np.arange(1, n)
        sums += np.stack([on(occurrences(tokens, ITEMS[e["label"]].split(" "))),
                          on(occurrences(tokens, ITEMS[e["keep"]].split(" "))),
                          on(nots) if nots else np.zeros((layers, heads)),
                          w[..., i, i - 1].mean(axis=-1),
                          w[..., :, 0].mean(axis=-1)], axis=-1)
    scores = sums / len(emails)
    scores[..., 2] = sums[..., 2] / with_not
    metrics = {off: router_test_metrics(emails, ps)[0] for off, ps in probs.items()}
    return scores, metrics, router_test_metrics(emails, probs[()])[1]
