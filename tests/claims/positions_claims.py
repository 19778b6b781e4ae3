"""The position table scene's claims, against the sinusoidal table recomputed in float64 (PE[p, 2i] =
sin(p w_i), PE[p, 2i + 1] = cos(p w_i), w_i = base^(-2i / d_model)) and its similarity PE PE^T."""
import math

import numpy as np

SIMILARITY_ROWS = 256  # the scene shows the similarity of the first 256 positions at most

QUERIES = (
    [f"?scene=positions&d_model={d}&count={n}" for d in (2, 3, 4, 5, 8, 9, 16, 64, 512) for n in (40, 100)]
    + [f"?scene=positions&d_model={d}&count={n}" for d in (4, 5, 64) for n in (1, 2, 3, 38, 300)]
    + [f"?scene=positions&length={n}" for n in (1, 2, 3, 10, 11, 50)]
    + ["?scene=positions&d_model=64&base=2&count=100", "?scene=positions&d_model=16&base=1000000000&count=60"]
)


def table(n, d, base):
    p = np.arange(n)[:, None]
    w = base ** (-2.0 * (np.arange(d) // 2) / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(p * w), np.cos(p * w))


def check(c):
    d, n = int(c.settings["d_model"]), int(c.settings["count"])
    base, length = float(c.settings["base"]), int(c.settings["length"])
    pe = table(n, d, base)

    bounded = c.paragraph("Every reading is a sine or a cosine")
    if bounded:
        lo, hi = c.number_after(bounded, "here from"), c.number_after(bounded, f"{pe.min():.3f} to")
        if lo is not None and (abs(lo - pe.min()) > 1.5e-3 or not -1 <= lo <= 1):
            c.fail(f"the smallest reading is {pe.min():.4f}, the text says {lo}")
        if hi is not None and (abs(hi - pe.max()) > 1.5e-3 or not -1 <= hi <= 1):
            c.fail(f"the largest reading is {pe.max():.4f}, the text says {hi}")

    rows = min(n, SIMILARITY_ROWS)
    sim = pe[:rows] @ pe[:rows].T
    diag = c.paragraph("Every diagonal has one value") if rows >= 2 and d % 2 == 0 else None
    if diag:
        exact = c.shown["offset_dependence_error"] == 0
        c.says(diag, "0, exact", exact)
        c.says(diag, "float rounding", not exact)
        if c.shown["offset_dependence_error"] > 1e-5 * d * rows:
            c.fail(f"called float rounding: {c.shown['offset_dependence_error']}")

    p = min(36, rows - 2)
    if p >= 1:
        soft = c.paragraph("Positions are soft")
        others = [q for q in range(rows) if q != p]
        closest = max(others, key=lambda q: sim[p, q])
        runner_up = max((sim[p, q] for q in others if q != closest), default=-math.inf)
        if soft and sim[p, closest] - runner_up > 1e-4 * d:  # a near tie may go either way in float32
            near = abs(closest - p) == 1
            c.says(soft, "Its neighbours read the most like it", near, f"(closest to {p}: {closest})")
            c.says(soft, f"But position {closest},", not near, f"(closest to {p}: {closest})")

    naive = c.paragraph("The last token carries")
    if naive:
        c.says(naive, "drowns them out", length - 1 >= 10, f"(the last of {length} tokens carries {length - 1})")
        c.says(naive, f"carries {length - 1},", True)
