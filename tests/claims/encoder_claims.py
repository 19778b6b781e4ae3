"""The encoder and word scenes' claims: LayerNorm's variances against v / (v + epsilon) as the text says,
counts said in the singular when there is one, and "a different starting vector" only for two places
(the word's sum recomputed in float64 from the embedding and the sinusoidal reading)."""
import math

import numpy as np

QUERIES = (
    [f"?scene=encoder&d_model={d}&heads={h}" for d, h in ((16, 2), (16, 1), (3, 1), (4, 4), (64, 16))]
    + ["?scene=encoder&text=Hi", "?scene=encoder&text=Hi&d_model=2&heads=1", "?scene=encoder&causal=1",
       "?scene=encoder&positions=none&text=cake%20cake%20cake", "?scene=encoder&text=" + "cake,%20not%20" * 150,
       "?scene=encoder&text=" + "%20".join(f"w{i}" for i in range(1024))]
    + [f"?scene=word&pos={a}&pos2={b}" for a, b in ((1, 3), (0, 0), (44, 44), (0, 44))]
    + ["?scene=word&emb=0.5,0.2&pos=2&pos2=2", "?scene=word&emb=1,2,3&pos=0&pos2=7"]
)


def reading(p, d, base):
    w = base ** (-2.0 * (np.arange(d) // 2) / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(p * w), np.cos(p * w))


def check_encoder(c):
    heads = int(c.settings["heads"])
    sizes = c.paragraph("d_model ")
    if sizes:
        c.says(sizes, f"{heads} heads of", heads != 1)
        c.says(sizes, "1 head of", heads == 1)
    norm = c.paragraph("LayerNorm standardises each row: it subtracts")
    if norm:
        lo, hi = c.shown["norm1_var_range"]
        rows = len(c.shown["tokens"])
        c.says(norm, "Over the one row", rows == 1)
        c.says(norm, "a hair under 1", 1 - lo <= 1e-4 + 1e-7, f"(smallest variance {lo})")
        if hi > 1 or lo < 0:
            c.fail(f"variances {lo}..{hi} outside [0, 1]: v / (v + 0.00001) cannot give them")


def check_word(c):
    emb = np.array([float(x) for x in c.settings["emb"].split(",")])
    a, b, base = int(c.settings["pos"]), int(c.settings["pos2"]), float(c.settings["base"])
    same = np.array_equal(emb + reading(a, len(emb), base), emb + reading(b, len(emb), base))
    intro = c.paragraph("The model adds the clock reading")
    if intro:
        c.says(intro, "a different starting vector", not same)
        c.says(intro, "the same starting vector", same)


def check(c):
    (check_encoder if c.settings["scene"] == "encoder" else check_word)(c)
