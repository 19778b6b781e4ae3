#!/usr/bin/env python3
"""Compares the JSON of core_node built natively and for wasm (node).

Usage: compare.py native.json wasm.json
"exact" entries must be bit-identical (seeded weights, tokens, labels); "close" entries must satisfy
|a - b| <= atol + rtol * |a| with atol 1e-6, rtol 1e-5. Prints the largest difference; exits 1 on failure.
"""
import json
import math
import sys

from verdict import verdict

ATOL = 1e-6
RTOL = 1e-5


def walk(a, b, path, out):
    """Yields (path, a, b) for every leaf pair; records structural mismatches in out['structure']."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            out["structure"].append(f"{path}: keys differ: {sorted(set(a) ^ set(b))}")
        for k in sorted(set(a) & set(b)):
            yield from walk(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out["structure"].append(f"{path}: lengths {len(a)} vs {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            yield from walk(x, y, f"{path}[{i}]", out)
    else:
        yield path, a, b


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        native = json.load(f)
    with open(sys.argv[2]) as f:
        wasm = json.load(f)
    out = {"structure": []}
    failures = []
    exact_count = 0
    for path, a, b in walk(native["exact"], wasm["exact"], "exact", out):
        exact_count += 1
        if a != b or type(a) is not type(b):
            failures.append(f"{path}: native {a!r} != wasm {b!r}")
    worst = (0.0, 0.0, "", None, None)  # (abs diff, allowed, path, a, b)
    close_count = 0
    for path, a, b in walk(native["close"], wasm["close"], "close", out):
        close_count += 1
        if isinstance(a, str) or isinstance(b, str):
            if a != b:
                failures.append(f"{path}: native {a!r} != wasm {b!r}")
            continue
        diff = abs(a - b)
        allowed = ATOL + RTOL * abs(a)
        if not math.isfinite(diff) or diff > allowed:
            failures.append(f"{path}: native {a!r} wasm {b!r} |diff| {diff:.3g} > {allowed:.3g}")
        if diff > worst[0] or worst[2] == "":
            worst = (diff, allowed, path, a, b)
    failures = out["structure"] + failures
    print(f"compared {exact_count} exact values (all must be bit-identical) and {close_count} floats "
          f"(atol {ATOL:g} + rtol {RTOL:g})")
    print(f"largest float difference: {worst[0]:.3g} at {worst[2]} (native {worst[3]!r}, wasm {worst[4]!r})")
    return verdict(failures, "mismatches", "OK: the wasm core matches the native core")


if __name__ == "__main__":
    sys.exit(main())
