"""Order scene claims: the refund pair's router sentences and the shuffle test's, each checked against numpy
recomputed from the outputs and vectors the scene reports (state().shown)."""
import re

import numpy as np

QUERIES = [
    "?scene=order",                                              # default text (9 tokens), permutation from seed
    "?scene=order&perm=0,1,2,3,4,5,6,7,8",                       # F10: the identity
    "?scene=order&text=Refund&positions=rope",                   # F10: one token
    "?scene=order&text=Refund&positions=sinusoidal",
    "?scene=order&perm=8,7,6,5,4,3,2,1,0&positions=learned",     # reversed
    "?scene=order&perm=8,7,6,5,4,3,2,1,0&positions=alibi&heads=1",
    "?scene=order&perm=1,0,2,3,4,5,6,7,8&positions=rope&heads=2",
    "?scene=order&positions=none&heads=2&seed=3",
    "?scene=order&text=the%20the%20the&perm=2,1,0&positions=sinusoidal",  # moved tokens, same slots' tokens
    "?scene=order&text=cake%20not%20fee&perm=2,0,1&positions=alibi&d_model=8&heads=2",
    "?scene=order&positions=learned&seed=11&text=" + "%20".join(f"w{i % 13}" for i in range(60)),
    "?scene=order&positions=alibi&heads=2&seed=2&text=" + "%20".join(f"t{i % 37}" for i in range(200)),
    "?scene=order&positions=rope&heads=1&d_model=32&seed=5&text=Refund%20the%20delivery%20fee,%20not%20the%20cake.",
]
TRAINED_QUERIES = ["?scene=order", "?scene=order&positions=none&perm=0,1,2,3,4,5,6,7,8"]

ATOL, RTOL = 1e-5, 1e-4  # the scene's allclose (every entry within ATOL + RTOL |value|)


def allclose(want, got):
    want, got = np.asarray(want, np.float64), np.asarray(got, np.float64)
    return want.shape == got.shape and bool(np.all(np.abs(want - got) <= ATOL + RTOL * np.abs(want)))


def g3(x):
    return "%.3g" % x


def one(c, pattern):
    """The one paragraph matching `pattern` (a regex), or None (a failure when there is not exactly one)."""
    found = [t for t in c.texts if re.search(pattern, t)]
    if len(found) != 1:
        c.fail(f"{len(found)} paragraphs match {pattern!r}")
        return None
    return found[0]


def check_router(c):
    sh = c.shown
    plain = [e for e in sh["emails"] if e["positions"] == "none"]
    if len(plain) != 2:
        return c.fail("no router column without positions")
    same_bag = sorted(plain[0]["tokens"]) == sorted(plain[1]["tokens"])
    if same_bag != sh["same_bag_of_words"]:
        c.fail("same_bag_of_words is not the sorted tokens' equality")
    p = np.array([e["probabilities"] for e in plain], np.float64)
    diff = float(np.max(np.abs(p[0] - p[1])))
    same_label = plain[0]["label"] == plain[1]["label"]
    conf = ["%.3f" % e["confidence"] for e in plain]
    text = c.paragraph("Without positions:")
    if text:
        c.says(text, "the same label" if same_label else "a different label", True, "(labels)")
        if conf[0] == conf[1]:
            c.says(text, f"confidence {conf[0]} for both", True, "(the confidence on screen)")
        c.says(text, "identical, to the last bit", diff == 0.0, f"(recomputed difference {diff})")
        c.says(text, "sees no difference", same_label and diff <= ATOL, f"(difference {diff})")
        if diff > 0:
            c.says(text, f"different by only {g3(diff)}, which is float rounding", diff <= ATOL, "")
    # N9, the pooled router: its averaged vector, label and confidence unchanged by the reordering
    pooled = [e.get("pooled") for e in plain]
    if pooled[0] is None:
        c.fail("shown.emails has no pooled vector")
    else:
        pd = float(np.max(np.abs(np.subtract(pooled[0], pooled[1]))))
        invariant = same_bag and same_label and allclose(pooled[0], pooled[1]) and diff <= ATOL
        found = [t for t in c.texts if "permutation-invariant" in t and "label" in t]
        if invariant != bool(found):
            c.fail(f"says the router is permutation-invariant {len(found)} times; recomputed: {invariant}")
        for t in found:
            c.says(t, f"(largest difference {g3(pd)})", True, "(the averaged vectors' difference)")
    # M10: the lesson's 0.87 against the value produced here
    note = one(c, r"the same confidence, 0\.87")
    if note and conf[0] == conf[1]:
        c.says(note, f"(seed {sh['seed']}) gives both {conf[0]}", True, "(the value on screen)")
        c.says(note, "other weights", True, "(why it is not 0.87)")
        c.says(note, f"gives both {conf[0]}, not 0.87", conf[0] != "0.870", "")
    # the router with positions: the difference printed is the recomputed one
    pos = [e for e in sh["emails"] if e["positions"] != "none"]
    if len(pos) == 2:
        q = np.array([e["probabilities"] for e in pos], np.float64)
        d2 = float(np.max(np.abs(q[0] - q[1])))
        t = c.paragraph("With " + pos[0]["positions"] + " positions")
        if t:
            c.says(t, f"the probabilities differ by {g3(d2)}.", d2 > 0, "(recomputed)")


def case(c, name):
    """(expected, shuffled, max difference, allclose) of one shuffle case, recomputed from its outputs."""
    sh = c.shown["shuffle"][name]
    if "original" not in sh:
        if len(c.shown["tokens"]) * c.shown["d_model"] <= 2048:  # the scene reports outputs up to that size
            c.fail(f"shown.shuffle.{name} has no outputs")
        return None, None, sh["max_diff"], sh["allclose"]
    t = len(c.shown["tokens"])  # the outputs come flat, row after row
    orig = np.array(sh["original"], np.float64).reshape(t, -1)
    shuf = np.array(sh["shuffled"], np.float64).reshape(t, -1)
    want = orig[c.shown["perm"]]
    diff = float(np.max(np.abs(want - shuf)))
    close = allclose(want, shuf)
    if close != sh["allclose"]:
        c.fail(f"{name}: allclose {sh['allclose']} but recomputed {close}")
    return orig, shuf, diff, close


def check_shuffle(c):
    sh = c.shown
    if "shuffle_error" in sh:
        return
    tokens, perm, shuffled = sh["tokens"], sh["perm"], sh["shuffled_tokens"]
    if sorted(perm) != list(range(len(tokens))) or shuffled != [tokens[p] for p in perm]:
        c.fail("the shuffled tokens are not the tokens in the permutation's order")
    if "perm" in c.asked and [int(x) for x in c.asked["perm"].split(",")] != perm:
        c.fail("the permutation is not the one asked for")
    changed = shuffled != tokens  # some slot holds another token than before
    none, slots, words = case(c, "none"), case(c, "slots"), case(c, "words")
    if none[0] is not None:
        orig, shuf, diff, close = none
        t = c.paragraph("Every query, key and value moves") if close else None
        if t:
            c.says(t, "permutation-equivariant", True, "(the no-positions case is allclose)")
        mean_diff = float(np.max(np.abs(orig.mean(axis=0) - shuf.mean(axis=0))))
        found = [x for x in c.texts if x.startswith("Averaged over the tokens")]
        invariant = allclose(orig.mean(axis=0), shuf.mean(axis=0))
        if invariant != bool(found):
            c.fail(f"{len(found)} sentences say the average is invariant; recomputed: {invariant}")
        # the scene averages in float32, summing the rows in their own order: that rounding, and no more
        rounding = 4 * len(orig) * 2.0 ** -24 * float(np.max(np.abs(orig), initial=0.0))
        for x in found:
            printed = c.number_after(x, "(largest difference")
            if printed is not None and abs(printed - mean_diff) > rounding + 0.005 * printed:
                c.fail(f"the averages differ by {mean_diff} (float32 rounding up to {rounding:.3g}): {x}")
    if slots:  # recomputed, or the scene's own allclose when it reports no outputs
        orig, shuf, diff, close = slots
        t = one(c, r"(Positions belong to slots|works inside attention from the position of each slot)")
        if t:
            c.says(t, re.compile("A token that moved .* its blend changes"), changed and not close,
                   f"(some token changed slot: {changed}; allclose recomputed: {close})")
            c.says(t, "so nothing changes", not changed, "")
            c.says(t, "still the old one, rows reordered", changed and close, "")
            if not changed and orig is not None and not allclose(orig, shuf):
                c.fail("no slot holds another token, yet the output changed")
    if words and slots:
        t = one(c, r"^\(with positions on the slots:")
        if t:
            c.says(t, f"allclose {'true' if slots[3] else 'false'}, max difference {g3(slots[2])})", True,
                   "(the slots case recomputed)")
        blind = [x for x in c.texts if "blind to the new order again" in x]
        if bool(blind) != words[3]:
            c.fail(f"says the words case is blind {len(blind)} times; recomputed allclose {words[3]}")


def check(c):
    if "no_positions_error" not in c.shown:
        check_router(c)
    check_shuffle(c)
