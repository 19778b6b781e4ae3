#!/usr/bin/env python3
"""Runs tests/wasm/parsers_node.cpp natively and in wasm (node) on the same cases (parser_cases.py) and
checks that the wasm build never traps, answers every case, and gives the native build's verdict, message
and resulting settings for each; and that neither build lets an exception other than InputError escape.

Usage: compare_parsers.py NATIVE_PROGRAM WASM_PROGRAM.js CASES
A wasm run that dies (a trap aborts the module) is restarted after the case it died on, up to MAX_DEATHS
times; each death is reported with its case and node's error line. Exits 1 on any failure.
"""
import collections
import json
import re
import subprocess
import sys
import tempfile

MAX_DEATHS = 10  # after that many dead runs the remaining cases are reported unanswered
NODE = ["node", "--no-experimental-fetch"]  # Emscripten 3.1.6 otherwise fetch()es the .wasm


def run(cmd):
    """Exit status, answers and stderr of a run. Its stderr goes to a file: node exiting on a trap can drop
    the end of what it wrote to a pipe (the error line after its long source line)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    answers = [json.loads(line) for line in p.stdout.decode("utf-8", "replace").splitlines() if line]
    return p.returncode, answers, stderr


def error_line(stderr):
    """The line of node's output that names the error ("RuntimeError: ..."), else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if re.match(r"^\w*(Error|Exception)\b", line) or line.startswith("Aborted"):
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def cases_in(path):
    """The (kind, name) of every record of a CASES file."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        eol = data.index(b"\n", at)
        header = data[at:eol].decode("utf-8", "replace")
        kind, rest = header.split(" ", 1)
        name, size = rest.rsplit(" ", 1)
        out.append((kind, name))
        at = eol + 1 + int(size) + 1
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: compare_parsers.py NATIVE_PROGRAM WASM_PROGRAM.js CASES")
    native_prog, wasm_js, cases_path = sys.argv[1:]
    cases = cases_in(cases_path)
    failures = []

    rc, native, stderr = run([native_prog, cases_path])
    if rc != 0 or len(native) != len(cases):
        sys.exit(f"FAIL: the native build answered {len(native)} of {len(cases)} cases (exit {rc}): "
                 f"{error_line(stderr)}")

    wasm = {}
    first, deaths = 0, 0
    while first < len(cases):
        rc, answers, stderr = run(NODE + [wasm_js, cases_path, str(first)])
        for a in answers:
            wasm[a["case"]] = a
        if rc == 0 and len(answers) == len(cases) - first:
            break
        died_on = first + len(answers)
        kind, name = cases[died_on]
        failures.append(f"wasm died on case {died_on} ({kind} {name}), exit {rc}: {error_line(stderr)}")
        deaths += 1
        if deaths == MAX_DEATHS:
            failures.append(f"stopped after {MAX_DEATHS} dead runs: cases {died_on + 1} to {len(cases) - 1} "
                            "not tried")
            break
        first = died_on + 1

    mismatches = 0
    for i, n in enumerate(native):
        kind, name = cases[i]
        if n["verdict"] == "exception":
            failures.append(f"native: case {i} ({kind} {name}) threw: {n['message']}")
        w = wasm.get(i)
        if w is None:
            continue  # reported above
        if w["verdict"] == "exception":
            failures.append(f"wasm: case {i} ({kind} {name}) threw: {w['message']}")
        fields = ("verdict", "message", "query")
        if any(n.get(k) != w.get(k) for k in fields):
            mismatches += 1
            if mismatches <= 20:
                failures.append(f"case {i} ({kind} {name}): native " +
                                json.dumps({k: n.get(k) for k in fields}) + " but wasm " +
                                json.dumps({k: w.get(k) for k in fields}))
    if mismatches > 20:
        failures.append(f"... {mismatches} cases differ in all")

    # The property test must exercise both answers: the valid model file loads, hostile ones are refused.
    by_name = {(kind, name): n for (kind, name), n in zip(cases, native)}
    if by_name.get(("model", "model"), {}).get("verdict") != "ok":
        failures.append("the valid model file does not load natively: " + json.dumps(by_name.get(("model", "model"))))
    verdicts = collections.Counter((kind, n["verdict"]) for (kind, _), n in zip(cases, native))
    for kind in ("model", "query", "set"):
        if verdicts[(kind, "ok")] == 0 or verdicts[(kind, "error")] + verdicts[(kind, "notes")] == 0:
            failures.append(f"the {kind} cases were not both accepted and refused natively: {dict(verdicts)}")

    summary = ", ".join(f"{k} {v}: {c}" for (k, v), c in sorted(verdicts.items()))
    print(f"parsers: {len(cases)} cases ({summary}); wasm answered {len(wasm)}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("OK: the wasm parsers (the page's link flags) never trap and give the native verdicts")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
