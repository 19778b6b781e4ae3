"""Every sentence true at every setting: opens the desktop app on each scene's sampled settings (one Xvfb run,
`attention_demo --sweep`), reads each paragraph back through state().texts and checks its claims against a
float64 recomputation (numpy) in the scene's checker module (tests/claims/<scene>_claims.py)."""
import glob
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import claims  # noqa: E402

APP = os.environ.get("ATTENTION_DEMO", "build/native/attention_demo")
CLI = os.environ.get("ATTENTION_CLI", "build/native/attention_cli")
# One checker module per scene: QUERIES (settings opened without a trained model), TRAINED_QUERIES (opened
# with the model trained below), and check(checker) for one opened view.
SINGULAR = re.compile(r"(?<![\d.,])(?<!\+ )\b1 (heads|tokens|keys|rows|hands|positions|words|steps)\b")
MODULES = [importlib.import_module(os.path.basename(p)[:-3])
           for p in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "*_claims.py")))
           if not os.environ.get("ATTN_CLAIMS")  # ATTN_CLAIMS=clock,mha: only those scenes (while editing)
           or os.path.basename(p)[:-10] in os.environ["ATTN_CLAIMS"].split(",")]


def sweep(queries, model=None):
    """Opens each query in one app run -> the state after each (dicts, in order)."""
    with tempfile.TemporaryDirectory() as tmp:
        qfile, out = os.path.join(tmp, "queries.txt"), os.path.join(tmp, "states.jsonl")
        with open(qfile, "w") as f:
            f.write("".join(q + "\n" for q in queries))
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", APP, "--sweep", qfile, "--state", out]
        if model:
            cmd += ["--model", model]
        p = subprocess.run(cmd, capture_output=True, timeout=900)
        if p.returncode != 0:
            raise AssertionError(f"attention_demo --sweep: exit {p.returncode}\n{p.stderr.decode()}")
        with open(out) as f:
            states = [json.loads(line) for line in f]
    if len(states) != len(queries):
        raise AssertionError(f"{len(queries)} queries but {len(states)} states")
    return states


def trained_model(tmp):
    """A router trained by attention_cli (sinusoidal positions, seed 1) -> the model file's path."""
    path = os.path.join(tmp, "model.json")
    p = subprocess.run([CLI, "train", "--positions", "sinusoidal", "--steps", "400", "--seed", "1", "--out",
                        path], capture_output=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError(f"attention_cli train: exit {p.returncode}\n{p.stderr.decode()}")
    return path


class SceneClaims(unittest.TestCase):
    def run_modules(self, attr, model=None):
        cases = [(m, q) for m in MODULES for q in getattr(m, attr, [])]
        if not cases:
            return 0
        states = sweep([q for _, q in cases], model)
        failures = []
        for (module, query), state in zip(cases, states):
            check = claims.Checker(query, state)
            if state["error"]:
                check.fail(f"the scene failed: {state['error']}")
            else:
                for text in state["texts"]:  # every scene: a count of one is said in the singular
                    if SINGULAR.search(text):
                        check.fail(f"a plural after 1: {SINGULAR.search(text).group(0)!r}\n    in: {text}")
                try:
                    module.check(check)
                except (KeyError, IndexError, TypeError, ValueError) as e:  # the state lacks what is checked
                    check.fail(f"{module.__name__} could not check it: {type(e).__name__} {e}")
            failures += check.failures
        self.assertFalse(failures, f"{len(failures)} false sentences:\n" + "\n".join(failures[:60]))
        return len(cases)

    def test_untrained(self):
        n = self.run_modules("QUERIES")
        print(f"scene claims: {n} settings checked", file=sys.stderr)

    def test_trained(self):
        with tempfile.TemporaryDirectory() as tmp:
            n = self.run_modules("TRAINED_QUERIES", trained_model(tmp))
        print(f"scene claims with a trained model: {n} settings checked", file=sys.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
