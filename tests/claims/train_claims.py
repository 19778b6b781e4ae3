"""Train scene claims: every printed figure reads back as the value shown beside it (never 1 or 100% for less),
and the order-flipped pair's sentences hold for the pair's probabilities, recomputed in numpy."""
import re

import numpy as np

QUERIES = [
    "?scene=train&positions=none",                       # F11: no positions, nothing trained
    "?scene=train&positions=none&heads=1&d_model=16&seed=4",
    "?scene=train",                                      # sinusoidal, untrained
    "?scene=train&positions=learned&heads=2",
    "?scene=train&positions=rope&heads=1&train=run",
    "?scene=train&train=run&max_steps=400",              # F8: a few hundred steps, the twins far apart
    "?scene=train&positions=none&heads=2&train=run",
    "?scene=train&positions=sinusoidal&d_model=16&heads=2&seed=3&train=run",
]
# with the sweep's model file (sinusoidal, 400 steps) loaded
TRAINED_QUERIES = ["?scene=train", "?scene=train&text=Refund%20the%20cake,%20not%20the%20balloons."]

NUMBER = r"([-+]?[0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)"


def reads_as(c, printed, value, what, scale=1.0):
    """`printed` (a number as on screen) is `value` * scale rounded at the printed precision, and never reads
    as 1 (100%) for a value below 1."""
    m = re.fullmatch(r"([-+]?[0-9]*)(?:\.([0-9]*))?(?:e([-+]?[0-9]+))?", printed)
    if not m:
        return c.fail(f"{what}: cannot read {printed!r}")
    decimals = len(m.group(2) or "")
    unit = 10.0 ** (int(m.group(3) or 0) - decimals)
    want = value * scale
    if abs(float(printed) - want) > 0.5 * unit * (1 + 1e-6) + 1e-12 * abs(want):
        c.fail(f"{what}: printed {printed} for {want!r}")
    if value < 1 and float(printed) >= scale:
        c.fail(f"{what}: printed {printed} (reads as {scale:g}) for {want!r}")


def check_curves(c, sh):
    t = [x for x in c.texts if x.startswith("Held-out emails use item pairs")]
    if not t and (sh["model_loaded_from"] is not None or sh["metrics"] is None):
        return  # no curves: a model file's model, or no trainer
    if len(t) != 1:
        return c.fail(f"{len(t)} paragraphs about the held-out twins")
    m = re.search(r"The two orders of a twin get probabilities up to " + NUMBER + r" apart \(", t[0])
    if not m:
        return c.fail(f"no biggest difference in: {t[0]}")
    reads_as(c, m.group(1), sh["metrics"]["max_pair_difference"], "biggest twin difference")
    acc = [x for x in c.texts if x.startswith("accuracy at step")]
    for x in acc:
        m = re.match(r"accuracy at step (\d+): held-out " + NUMBER + "%, flipped pairs " + NUMBER +
                     "%, training " + NUMBER + "%", x)
        if not m:
            c.fail(f"cannot read: {x}")
            continue
        if int(m.group(1)) != sh["metrics"]["step"]:
            c.fail(f"step {m.group(1)} but metrics are from step {sh['metrics']['step']}")
        for k, key in ((2, "test_accuracy"), (3, "flipped_pair_accuracy"), (4, "train_accuracy")):
            reads_as(c, m.group(k), sh["metrics"][key], key, 100.0)
    loss = [x for x in c.texts if x.startswith("loss (cross-entropy")]
    if sh["steps"] > 0 and loss:
        reads_as(c, loss[0].rsplit(": ", 1)[1], sh["loss"], "loss")


def check_pair(c, sh):
    pair = sh["pair"]
    if pair is None:
        return
    if "probabilities" in pair[0]:
        p = np.array([e["probabilities"] for e in pair], np.float64)
        diff = float(np.max(np.abs(p[0] - p[1])))
    else:
        c.fail("shown.pair has no probabilities")
        diff = sh["pair_difference"]
    t = c.paragraph("largest difference between their probabilities: ")
    if t:
        reads_as(c, t.rsplit(": ", 1)[1], diff, "the pair's difference")
    identical = diff < 1e-6
    blind = sh["positions"] == "none"
    # the pair is drawn by the model of the last evaluation (its step is the metrics' step), or a file's model
    trained = sh["model_loaded_from"] is not None or (sh["metrics"] or {}).get("step", 0) > 0
    found = [x for x in c.texts if x.startswith(("Identical", "Different"))]
    if len(found) != 1:
        return c.fail(f"{len(found)} verdicts on the pair")
    v = found[0]
    c.says(v, "Identical", identical, f"(difference {diff})")
    c.says(v, "however long it trains", identical and blind, f"(positions {sh['positions']})")
    c.says(v, "the model reads word order", not identical and not blind, "")
    c.says(v, "only by float rounding", not identical and blind, "")
    if identical:
        if pair[0]["label"] != pair[1]["label"]:
            c.fail("identical outputs but two labels")
        c.says(v, "Both get one confidence, %.3f" % pair[0]["confidence"], True, "(the pair's confidence)")
        c.says(v, "this trained model's value", trained, f"(metrics {sh['metrics']})")
        c.says(v, "untrained", not trained, f"(metrics {sh['metrics']})")


def check(c):
    sh = c.shown
    check_curves(c, sh)
    check_pair(c, sh)
    pred = sh.get("prediction")
    if pred and "confidence" in pred:
        t = c.paragraph("refund the: ")
        if t:
            c.says(t, f"{pred['label']}   (confidence {pred['confidence']:.3f})", True, "(the prediction)")
            if pred["probabilities"][pred["label_index"]] != pred["confidence"] or \
                    pred["label_index"] != int(np.argmax(pred["probabilities"])):
                c.fail("the confidence is not the top probability")
