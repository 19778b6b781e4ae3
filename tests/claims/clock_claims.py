"""The clock scene's claims, against the sinusoidal clock recomputed in float64 from its definition: hand i
turns base^(-2i / d_model) radians per token, dimensions 2i and 2i + 1 read its sine and cosine."""
import math
import re

import numpy as np

NEAR = 0.05  # the reading distance under which a hand reads two positions alike (core/clock.hpp)
REACH = 2048  # positions the scene speaks about: its sliders' 0 to 2047

PAIRS = [(44, 0), (0, 44), (5, 2), (1, 2), (628, 0), (7, 7), (0, 2047), (3, 5000), (700, 758), (0, 1)]
QUERIES = (
    [f"?scene=clock&d_model={d}&pos={a}&pos2={b}" for d in (2, 3, 4, 5, 8, 9, 16, 64, 512) for a, b in PAIRS[:4]]
    + [f"?scene=clock&d_model={d}&pos={a}&pos2={b}" for d in (3, 4, 6, 7) for a, b in PAIRS[4:]]
    + [f"?scene=clock&d_model={d}&base={base}&pos=44&pos2=0" for d in (4, 64) for base in (2, 1000000000)]
    + ["?scene=clock&d_model=64&base=2&pos=12&pos2=0", "?scene=clock&d_model=512&pos=1&pos2=2047"]
    + ["?scene=clock&hide=readings", "?scene=clock&hide=dials", "?scene=clock&hide=dials,readings"]
)


def speeds(d, base):
    return np.array([base ** (-2.0 * h / d) for h in range((d + 1) // 2)])


def verdict(d, base, h, a, b):
    """What hand h says about positions a and b -> (verdict, turns, distance)."""
    s = speeds(d, base)[h]
    paired = 2 * h + 1 < d
    ds, dc = math.sin(b * s) - math.sin(a * s), (math.cos(b * s) - math.cos(a * s)) if paired else 0.0
    dist, turns = math.hypot(ds, dc), (b - a) * s / (2 * math.pi)
    phase = math.remainder((b - a) * s, 2 * math.pi)
    if a == b:
        return "same position", turns, dist
    if dist >= NEAR:
        return "differs", turns, dist
    if not paired and abs(phase) >= NEAR:
        return "lone sine alike", turns, dist
    return ("barely moved" if abs(turns) < 0.5 else "came round"), turns, dist


def closest_offset(d, base):
    """(k, distance) of the two positions up to REACH - 1 that read most alike on the paired hands."""
    k = np.arange(1, REACH)
    s = speeds(d, base)[: d // 2]
    dist = np.sqrt((4 * np.sin(0.5 * np.outer(k, s)) ** 2).sum(axis=1))
    return int(k[dist.argmin()]), float(dist.min())


def check(c):
    d, base = int(c.settings["d_model"]), float(c.settings["base"])
    a, b = int(c.settings["pos"]), int(c.settings["pos2"])
    hands = (d + 1) // 2
    says = {name: verdict(d, base, h, a, b) for h, name in ((0, "fast"), (hands - 1, "slow"))}
    edge = any(abs(v[2] - NEAR) < 1e-4 for v in says.values())  # float32 and float64 may disagree: skip

    intro = c.paragraph("Each position gets a clock reading")
    if intro:
        wave = 2 * math.pi / speeds(d, base)[-1]
        c.says(intro, "never repeat", False, "(a sentence that is false at small d_model or base)")
        c.says(intro, "there is one hand", hands == 1)
        if hands > 1:
            c.says(intro, "never comes round within positions 0 to 2047", wave >= REACH, f"(slowest turn: {wave:.4g})")
            c.says(intro, "even the slowest", wave < REACH, f"(slowest turn: {wave:.4g})")
        k, dist = closest_offset(d, base)
        if abs(dist - NEAR) > 1e-4 and hands > 1:
            c.says(intro, "its own reading", dist >= NEAR, f"(closest offset {k}: {dist:.4f})")
            c.says(intro, re.compile(rf"\b{k} tokens apart" if k > 1 else "the most alike, neighbours"), True,
                   f"(closest offset {k}: {dist:.4f})")
        c.says(intro, "lone sine", d % 2 == 1)

    # the rotation is drawn under the dials: hide=dials hides both, hide=readings neither
    rot = c.paragraph_if("Angles are in radians", "dials" not in c.settings.get("hide", "").split(","))
    if rot:
        c.says(rot, "float rounding", a != b and c.shown["rotation_check"] != 0)
        c.says(rot, "nothing turns", a == b)
        if c.shown["rotation_check"] > 1e-5:
            c.fail(f"the rotation check is {c.shown['rotation_check']:.3g}, not float rounding")
        if a != b:
            turned = c.number_after(rot, f"hand 0 turns by {b - a} × 1 =")
            if turned is not None and abs(turned - (b - a)) > 5e-4:
                c.fail(f"hand 0 turns {b - a} rad, the text says {turned}")

    comp = c.paragraph(f"Positions {a} and {b}")
    if comp and not edge:
        if a == b:
            c.says(comp, "are the same", True)
        else:
            apart = sum(verdict(d, base, h, a, b)[0] == "differs" for h in range(hands))
            c.says(comp, f"{apart} of {hands} hands tell them apart", hands > 1)
            c.says(comp, "of 1 hand", False, "(one hand needs no count)")
            phrase = {"differs": "tells them apart", "barely moved": "has barely moved",
                      "came round": "has come round", "lone sine alike": "is a lone sine"}
            c.says(comp, "The fast hand 0 " + phrase[says["fast"][0]], True, f"(fast hand: {says['fast']})")
            if hands > 1:
                c.says(comp, f"the slowest hand {hands - 1} " + phrase[says["slow"][0]], True,
                       f"(slowest hand: {says['slow']})")
                both = says["fast"][0] == says["slow"][0] == "differs"
                c.says(comp, "apart too", both)
    for h in c.shown["hands"]:
        want, turns, dist = verdict(d, base, h["hand"], a, b)
        if abs(dist - NEAR) > 1e-4 and h.get("verdict") != want:
            c.fail(f"hand {h['hand']}: verdict {h.get('verdict')!r}, but it turned {turns:.4f} turns (distance {dist:.4f})")

    ex = c.paragraph("Which position between 1 and 49")
    if ex:
        c.says(ex, "slow hand", hands > 1)
