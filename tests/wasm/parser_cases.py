#!/usr/bin/env python3
"""Writes the cases tests/wasm/parsers_node.cpp answers: the fuzz corpora and saved regressions, and hostile
numbers put into a valid model file and into every numeric setting (a deterministic property test).

Usage: parser_cases.py MODEL.json PARAMS.jsonl OUT_CASES
MODEL.json is a valid model file written by the native build; PARAMS.jsonl is `parsers_node --params`
(each setting's name and allowed values). OUT_CASES gets records "KIND NAME BYTES\\n" + input + "\\n".
Cases:
- model: every file of tests/fuzz/corpus/model_json and tests/fuzz/regressions/* (any text is a model file
  to refuse or read); MODEL.json itself; MODEL.json with each whole-number field (version, every number of
  config, each tensor's shape entries) set to each of HOSTILE.
- query: every file of tests/fuzz/corpus/settings and tests/fuzz/regressions/settings; "name=VALUE" as a
  URL query for every numeric setting and each of HOSTILE and BAD_TEXT.
- set: {"name": VALUE} for the same settings and values, VALUE as a JSON number and as a string.
"""
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FUZZ = os.path.join(ROOT, "tests", "fuzz")

# Numbers as JSON texts: beyond every integer type, at the edges of double's exact integers and of int64,
# negative, fractional; as floats ("1e19") and as integers (nlohmann reads those as int64 / uint64).
HOSTILE = ["1e300", "-1e300", "1e19", "-1e19", "9.3e18", "-9.3e18", "9300000000000000000", "-1", "2.5",
           "-0.5", "1e15", "1000000000000000", "9007199254740992", "9007199254740993", "9.007199254740992e15",
           "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
           "18446744073709551615", "18446744073709551616", "2147483648", "-2147483649", "4294967296", "0",
           "1e-300", "-0.0"]
# Setting values that are no JSON numbers (strings only): other spellings of huge and odd numbers.
BAD_TEXT = ["1e+300", "inf", "-inf", "nan", "0x10", " 5", "5 ", "+5", "1,5", "1e", ""]
SENTINEL = "@@HOSTILE_NUMBER@@"


def files(folder):
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, f)))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def whole_number_paths(doc):
    """Paths (lists of keys) to every whole-number field of a model file: version, config's numbers,
    tensors' shape entries."""
    paths = [["version"]]
    for k, v in doc["config"].items():
        if isinstance(v, int) and not isinstance(v, bool):
            paths.append(["config", k])
    for name, t in doc["tensors"].items():
        for i in range(len(t["shape"])):
            paths.append(["tensors", name, "shape", i])
    return paths


def with_value(doc, path, text):
    """The model file's text with the field at `path` written as the JSON number `text`."""
    copy = json.loads(json.dumps(doc))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = SENTINEL
    return json.dumps(copy).replace(json.dumps(SENTINEL), text, 1)


def numeric_settings(params_path):
    """Names of the settings that take numbers: those whose allowed values read "A to B" or "a number"."""
    names = []
    with open(params_path) as f:
        for line in f:
            p = json.loads(line)
            if re.match(r"^-?\d+ to ", p["allowed"]) or p["allowed"].startswith("a number"):
                names.append(p["name"])
    return names


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: parser_cases.py MODEL.json PARAMS.jsonl OUT_CASES")
    model_text = read(sys.argv[1])
    model = json.loads(model_text)
    settings = numeric_settings(sys.argv[2])
    if not settings:
        sys.exit("parser_cases.py: no numeric setting in " + sys.argv[2])
    cases = []  # (kind, name, bytes)

    for path in files(os.path.join(FUZZ, "corpus", "model_json")):
        cases.append(("model", "corpus/model_json/" + os.path.basename(path), read(path)))
    regressions = os.path.join(FUZZ, "regressions")
    for target in sorted(os.listdir(regressions)):
        kind = "query" if target == "settings" else "model"
        for path in files(os.path.join(regressions, target)):
            cases.append((kind, f"regressions/{target}/{os.path.basename(path)}", read(path)))
    for path in files(os.path.join(FUZZ, "corpus", "settings")):
        cases.append(("query", "corpus/settings/" + os.path.basename(path), read(path)))

    cases.append(("model", "model", model_text))
    for path in whole_number_paths(model):
        where = ".".join(str(k) for k in path)
        for text in HOSTILE:
            cases.append(("model", f"{where}={text}", with_value(model, path, text).encode()))

    for name in settings:
        for text in HOSTILE + BAD_TEXT:
            cases.append(("query", f"{name}={text}", f"{name}={text}".encode()))
            cases.append(("set", f"{name}=\"{text}\"", json.dumps({name: text}).encode()))
        for text in HOSTILE:
            cases.append(("set", f"{name}={text}", ('{"%s": %s}' % (name, text)).encode()))

    with open(sys.argv[3], "wb") as out:
        for kind, name, data in cases:
            out.write(f"{kind} {name} {len(data)}\n".encode() + data + b"\n")
    print(f"parser_cases.py: {len(cases)} cases ({len(settings)} numeric settings)")


if __name__ == "__main__":
    main()
