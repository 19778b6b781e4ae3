#!/usr/bin/env python3
"""Compares training natively and in wasm (node): tests/wasm/train_node.cpp run by run_node_test.sh.

Usage: compare_train.py DIR SCHEME...
For each scheme DIR holds {native,wasm}_{SCHEME}.json (train output), {native,wasm}_{SCHEME}_model.json (the
saved model files) and {native,wasm}_{SCHEME}_cross.json (each build predicting with the OTHER build's file).
Checks: bit-identical initial weights; the same vocab, labels and config; trained weights within WEIGHT_TOL
(prints the largest difference); the same labels and close probabilities; a file saved by one build loads in
the other with the predictions its writer printed. Exits 1 on failure.
"""
import json
import math
import os
import sys

from verdict import verdict

WEIGHT_TOL = 1e-3  # after N Adam steps, float rounding (libm exp/log) may drift a little
PROB_TOL = 1e-3    # native vs wasm training: probabilities of the two trained models
CROSS_TOL = 1e-5   # the same model file predicted by both builds: only forward-pass rounding differs


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


def compare_predictions(a, b, tol, what, failures):
    worst = 0.0
    if len(a) != len(b):
        failures.append(f"{what}: {len(a)} vs {len(b)} predictions")
        return worst
    for pa, pb in zip(a, b):
        if pa["text"] != pb["text"] or pa["label"] != pb["label"]:
            failures.append(f"{what}: {pa['text']!r}: label {pa['label']} vs {pb['label']}")
        diff = max(abs(x - y) for x, y in zip(pa["probabilities"], pb["probabilities"]))
        worst = max(worst, diff)
        if not diff <= tol:
            failures.append(f"{what}: {pa['text']!r}: probabilities differ by {diff:.3g} > {tol:g}")
    return worst


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    d, schemes = sys.argv[1], sys.argv[2:]
    failures = []
    for s in schemes:
        nat, was = load(d, f"native_{s}.json"), load(d, f"wasm_{s}.json")
        nm, wm = load(d, f"native_{s}_model.json"), load(d, f"wasm_{s}_model.json")
        if nat["init_weights_hash"] != was["init_weights_hash"]:
            failures.append(f"{s}: initial weights differ (bit hash {nat['init_weights_hash']} vs "
                            f"{was['init_weights_hash']})")
        for key in ("config", "vocab", "labels"):
            if nm[key] != wm[key]:
                failures.append(f"{s}: the model files' {key} differ")
        if set(nm["tensors"]) != set(wm["tensors"]):
            failures.append(f"{s}: the model files hold different tensors")
        worst, where, count = 0.0, "", 0
        for name in sorted(set(nm["tensors"]) & set(wm["tensors"])):
            a, b = nm["tensors"][name], wm["tensors"][name]
            if a["shape"] != b["shape"]:
                failures.append(f"{s}: {name} shape {a['shape']} vs {b['shape']}")
                continue
            for i, (x, y) in enumerate(zip(a["data"], b["data"])):
                count += 1
                diff = abs(x - y)
                if not math.isfinite(diff) or diff > worst:
                    worst, where = diff, f"{name}[{i}] (native {x!r}, wasm {y!r})"
        identical = sum(1 for name in nm["tensors"] for x, y in zip(nm["tensors"][name]["data"],
                                                                    wm["tensors"].get(name, {}).get("data", []))
                        if x == y)
        print(f"{s}: {nat['steps']} steps, test accuracy native {nat['metrics']['test_accuracy']:.4f} "
              f"wasm {was['metrics']['test_accuracy']:.4f}; initial weights bit-identical: "
              f"{nat['init_weights_hash'] == was['init_weights_hash']}")
        print(f"{s}: trained weights: largest |native - wasm| = {worst:.3g} at {where}; "
              f"{identical} of {count} bit-identical")
        if not worst <= WEIGHT_TOL:
            failures.append(f"{s}: trained weights differ by {worst:.3g} > {WEIGHT_TOL:g} at {where}")
        p = compare_predictions(nat["predictions"], was["predictions"], PROB_TOL, f"{s} native vs wasm training",
                                failures)
        print(f"{s}: predictions of the two trained models: same labels, probabilities within {p:.3g}")
        # cross loading: native_cross = native build predicting with the wasm file, and vice versa
        nc, wc = load(d, f"native_{s}_cross.json"), load(d, f"wasm_{s}_cross.json")
        p1 = compare_predictions(was["predictions"], nc["predictions"], CROSS_TOL,
                                 f"{s} wasm file loaded natively", failures)
        p2 = compare_predictions(nat["predictions"], wc["predictions"], CROSS_TOL,
                                 f"{s} native file loaded in wasm", failures)
        print(f"{s}: wasm file loaded natively: predictions within {p1:.3g}; native file loaded in wasm: "
              f"within {p2:.3g}")
        if nc["training"]["steps"] != was["steps"] or wc["training"]["steps"] != nat["steps"]:
            failures.append(f"{s}: training info lost in the model file")
    return verdict(failures, "problems",
                   "OK: the same seed trains to the same weights in wasm, and model files load across builds")


if __name__ == "__main__":
    sys.exit(main())
