"""Position schemes scene: ALiBi's offset profile and slope, RoPE's moved-key score (recomputed by rotating the
reported query and key in numpy), the learned relative biases and the long-context note."""
import re

import numpy as np

LONG = " ".join(["Refund the delivery fee, not the cake."] * 13)  # 104 tokens
QUERIES = [
    "?scene=schemes",  # F13: 2 heads, ALiBi's slope 1/16 in head 0
    "?scene=schemes&heads=1",
    "?scene=schemes&heads=2&head=1",
    "?scene=schemes&heads=4&head=3",
    "?scene=schemes&d_model=16&heads=16",  # F7: d_k = 1, nothing to rotate
    "?scene=schemes&d_model=16&heads=16&head=15&causal=1",
    "?scene=schemes&d_model=48&heads=16&head=2&pos=30&pos2=2",  # d_k = 3: one pair turns
    "?scene=schemes&d_model=64&heads=4&pos=40&pos2=3",
    "?scene=schemes&d_model=512&heads=16&head=5&pos=0&pos2=2048",
    "?scene=schemes&d_model=64&heads=2&causal=1",
    "?scene=schemes&text=Refund",
    "?scene=schemes&text=Refund&heads=16&d_model=64&causal=1",
    "?scene=schemes&d_model=64&heads=4&length=2000&text=" + LONG.replace(" ", "%20"),
]


def profile(w):
    """Mean weight over each diagonal i - j = -(T-1) .. T-1 (NaN where every cell is masked)."""
    w = np.asarray(w, dtype=np.float64)
    t = w.shape[0]
    out = []
    for off in range(-(t - 1), t):
        d = np.diagonal(w, offset=-off)
        out.append(d.mean() if len(d) else np.nan)
    return np.array(out)


def falls(values):
    """True when each step away from offset 0 does not rise (a profile of one point does not fall)."""
    return len(values) > 1 and bool(np.all(np.diff(values) <= 1e-6))


def check_alibi(c):
    """F13: 'falling off' only where ALiBi's mean weight falls with the distance on the side it is said."""
    p = c.paragraph("Each point is the mean over one diagonal")
    if p is None:
        return
    h, heads = c.shown["head"], c.shown["heads"]
    slope = 2.0 ** (-8.0 * (h + 1) / heads)
    line = c.paragraph(f"ALiBi in head {h} of {heads} subtracts")
    if line is not None:
        said = c.number_after(line, "subtracts")
        if said is not None and abs(said - slope) > 1e-3 * slope:
            c.fail(f"ALiBi's slope in head {h} of {heads} is {slope:.5g}: {line}")
    alibi = c.shown["schemes"]["alibi"]
    if "weights" not in alibi:
        return  # over 64 tokens the weights are not reported
    prof = profile(alibi["weights"])
    t = (len(prof) + 1) // 2
    before, after = prof[t - 1:], prof[t - 1::-1]  # from offset 0 out to +(T-1) and to -(T-1)
    causal = c.settings.get("causal") == "1"
    both = falls(before) and falls(after) and not causal
    c.says(p, "ALiBi falling off on both sides", both, f"(offset 0 out: {np.round(before, 3)}, "
           f"{np.round(after, 3)})")
    c.says(p, "ALiBi's mean weight does not fall steadily", t > 1 and not causal and not both)
    if causal:  # the mean weight falls with the offset for every scheme that ran
        steady = [n for n, v in c.shown["schemes"].items() if v["ok"] and falls(profile(v["weights"])[t - 1:])]
        ran = [n for n, v in c.shown["schemes"].items() if v["ok"]]
        c.says(p, "falls with the offset for every scheme", t > 1 and steady == ran, f"(falls: {steady})")


def rope_rotate(x, pos, base):
    x = np.asarray(x, dtype=np.float64).copy()
    d = len(x)
    for i in range(d // 2):
        a = pos * base ** (-2.0 * i / d)
        x0, x1 = x[2 * i], x[2 * i + 1]
        x[2 * i], x[2 * i + 1] = x0 * np.cos(a) - x1 * np.sin(a), x0 * np.sin(a) + x1 * np.cos(a)
    return x


def rope_score(q, k, pq, pk, base):
    return float(rope_rotate(q, pq, base) @ rope_rotate(k, pk, base)) / np.sqrt(len(q))


def check_rope(c):
    """F7: 'a different score' only beside a different score; equal scores say why."""
    rope = c.shown.get("rope", {})
    if "error" in rope:
        return
    first = c.paragraph("Query at ")
    moved = c.paragraph("Move only the key")
    if first is None or moved is None:
        return
    s0 = c.number_after(first, "score")
    m = re.search(r"\(gap -?\d+\): (-?[0-9.]+)", moved)
    if s0 is None or not m:
        return c.fail(f"unreadable: {moved}")
    s1 = float(m.group(1))
    different = f"{s0:.4f}" != f"{s1:.4f}"
    c.says(moved, "a different gap, a different score", different)
    c.says(moved, "the same score", not different)
    if "q" not in rope:
        return c.fail("the RoPE probe's query and key are not reported")
    q, k, base = rope["q"], rope["k"], rope["base"]
    pq, pk = rope["pos"], rope["pos2"]
    want0, want1 = rope_score(q, k, pq, pk, base), rope_score(q, k, pq, pk + 1, base)
    for said, want in ((s0, want0), (s1, want1)):
        if abs(said - want) > 1e-4 + 1e-3 * abs(want):
            c.fail(f"RoPE score {said} but numpy says {want:.5f}")
    c.says(moved, "no pair", len(q) == 1, "(d_k = 1: RoPE has no pair of numbers to turn)")


def check_mentions(c):
    """N35 and N109: learned relative biases, and what long-context models use."""
    c.says(" ".join(c.texts), "T5", True, "(learned relative position biases)")
    lim = c.paragraph("Sinusoidal and RoPE compute")
    if lim is not None:
        c.says(lim, "long-context models usually use relative or RoPE-style", True)
        ok = all(c.shown.get("limits", {}).get(s, {}).get("ok") for s in ("sinusoidal", "rope"))
        c.says(lim, "do not crash", ok, "(the table's sinusoidal and rope rows)")


def check(c):
    check_alibi(c)
    check_rope(c)
    check_mentions(c)
