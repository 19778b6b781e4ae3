"""attention_cli on bad and hostile input: every refusal exits 2 with one line `error: ...` on stderr and
nothing on stdout, before any work (the run helpers and the CLI's path are cli_test.py's)."""
import json
import os
import subprocess
import tempfile
import unittest

import numpy as np

from cli_test import CLI, run, run_json


class BadInput(unittest.TestCase):
    def assertRejected(self, args, needles, stdin=None, timeout=None):
        p = run(*args, stdin=stdin, timeout=timeout)
        err = p.stderr.decode("utf-8", "replace")
        self.assertEqual(p.returncode, 2, f"{args}: exit {p.returncode}, stderr {err!r}")
        self.assertEqual(p.stdout, b"", args)
        self.assertTrue(err.startswith("error: "), err)
        self.assertEqual(err.count("\n"), 1, f"one line expected: {err!r}")
        for n in needles:
            self.assertIn(n, err)

    def test_naive_schemes_check_d_model(self):
        self.assertRejected(["pe", "--scheme", "raw", "--d-model", "-5", "--count", "3"], ["--d-model"])
        self.assertRejected(["pe", "--scheme", "fraction", "--d-model", "0", "--count", "3"], ["--d-model"])

    def test_hostile_inputs_end_in_one_error_line(self):
        # JSON nested 200,000 deep in a weight, and anywhere else, is refused before it is parsed
        deep = "[" * 200000 + "]" * 200000
        doc = '{"x": [[1, 2]], "w_q": [[1], [1]], "w_k": ' + deep + ', "w_v": [[1], [1]]}'
        self.assertRejected(["attend", "--input", "-"], ["levels deep"], stdin=doc.encode())
        self.assertRejected(["block", "--input", "-"], ["levels deep"], stdin=('{"x": ' + deep + '}').encode())
        # a folder and an endless stream as input
        self.assertRejected(["attend", "--input", "/tmp"], ["is a folder"])
        with open("/dev/zero", "rb") as zero:
            p = subprocess.run([CLI, "attend", "--input", "-"], stdin=zero, capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"larger than 64 MiB", p.stderr)
        # an echoed value with a newline cannot forge a second line
        self.assertRejected(["router", "--text", "hi", "--positions", "a\nerror: forged"], ["a\\nerror: forged"])
        # seeds, counts and sizes with no sense or no bound
        self.assertRejected(["router", "--text", "hi", "--seed", "-1"], ["--seed"])
        self.assertRejected(["train", "--steps", "1", "--seed", "-1"], ["--seed"])
        self.assertRejected(["pe", "--d-model", "4", "--count", ""], ["--count"])
        self.assertRejected(["pe", "--d-model", "1024", "--count", "100000"], ["would print", "4194304"])
        self.assertRejected(["train", "--steps", "1000000"], ["--steps", "100000"])
        self.assertRejected(["train", "--steps", "1", "--d-model", "1024", "--d-ff", "4096", "--layers", "4"],
                            ["weights; allowed"])
        words = " ".join(f"w{i}" for i in range(1024))
        doc = {"text": words, "d_model": 1024, "heads": 16}
        self.assertRejected(["attend", "--input", "-"], ["would print"], stdin=json.dumps(doc).encode())
        # results that overflow float32 are errors, not null
        x = [[1.0, 2.0], [3.0, 4.0]]
        doc = {"x": x, "w_q": [[1e20], [1e20]], "w_k": [[1e20], [1e20]], "w_v": [[1.0], [1.0]]}
        self.assertRejected(["attend", "--input", "-"], ["overflowed float32"], stdin=json.dumps(doc).encode())

    def test_caps_count_every_given_width(self):
        # The print cap (4194304 numbers) and the work cap (16777216 numbers in the intermediates) count the
        # widths the input gives, before any work; each message names the figure and the limit. Sizes just
        # past the caps (the issue's: 3.85 GB for a 100,000-wide w_v, 1.22 GB for w_q and w_k, 1.13 GB for w1).
        t = 64
        x = [[1.0]] * t
        doc = {"x": x, "w_q": [[1.0]], "w_k": [[1.0]], "w_v": [[0.5] * 70000]}
        printed = t * t + t * 70000  # weights (T, T) and output (T, d_v)
        self.assertGreater(printed, 4194304)
        self.assertRejected(["attend", "--input", "-"], [f"would print {printed} numbers", "up to 4194304"],
                            stdin=json.dumps(doc).encode(), timeout=60)
        doc = {"x": x, "w_q": [[1.0] * 140000], "w_k": [[1.0] * 140000], "w_v": [[0.5]]}
        computed = t * (140000 + 140000 + 1) + 2 * t * t + t  # q, k, v; scores and weights; output
        self.assertGreater(computed, 16777216)
        self.assertRejected(["attend", "--input", "-"], [f"would compute {computed} numbers", "up to 16777216"],
                            stdin=json.dumps(doc).encode(), timeout=60)
        # block: the hidden layer is w1's real width, whatever d_ff says (and a d_ff that disagrees is an error)
        doc = {"x": x, "heads": 1, "w1": [[1.0] * 70000], "b1": [0.0] * 70000, "w2": [[1.0]] * 70000}
        printed = 7 * t + t * 70000 + t * t  # seven (T, D) intermediates, hidden (T, F), weights (T, T)
        self.assertRejected(["block", "--input", "-"], [f"would print {printed} numbers", "up to 4194304"],
                            stdin=json.dumps(doc).encode(), timeout=60)
        doc["d_ff"] = 1
        self.assertRejected(["block", "--input", "-"], ['"d_ff" is 1', "w1 has 70000 columns"],
                            stdin=json.dumps(doc).encode(), timeout=60)
        # a given w1 with no d_ff: the seeded w2 and b1 are drawn at w1's width
        rng = np.random.default_rng(4)
        w1 = rng.normal(size=(2, 3))
        got = run_json("block", "--input", "-", stdin=json.dumps({"x": [[1.0, 2.0]], "w1": w1.tolist()}).encode())
        self.assertEqual(got["d_ff"], 3)
        self.assertEqual(np.asarray(got["hidden"]).shape, (1, 3))

    def test_whole_numbers_are_never_wrapped_or_cast(self):
        # seeds are 0 .. 2^53 - 1 in every path (README "Limits"); a float where a whole number is expected is
        # refused, its range checked before any cast
        for cmd in ("attend", "block"):
            for seed in ("-1", "18446744073709551615", "9007199254740992", "1e300", "-1e300", "1e19", "9.3e18",
                         "2.5", "7.0", '"7"'):
                with self.subTest(cmd=cmd, seed=seed):
                    doc = ('{"text": "a b", "seed": %s}' % seed).encode()
                    self.assertRejected([cmd, "--input", "-"], ['"seed" is', "0 to 9007199254740991"], stdin=doc)
            doc = (b'{"x": [[1.0, 2.0]], "heads": 1, "positions": "learned", "seed": -1,'
                   b' "w_qkv": [[1,0,0,0,0,0],[0,1,0,0,0,0]], "w_o": [[1,0],[0,1]]}')
            self.assertRejected([cmd, "--input", "-"], ['"seed" is -1'], stdin=doc)
            largest = run(cmd, "--input", "-", stdin=b'{"text": "a b", "seed": 9007199254740991}')
            self.assertEqual(largest.returncode, 0, largest.stderr)
        for field in ("heads", "d_model", "max_len", "d_ff"):
            for value in ("1e300", "-1e300", "1e19", "9.3e18", "18446744073709551615"):
                with self.subTest(field=field, value=value):
                    doc = ('{"text": "a b", "%s": %s}' % (field, value)).encode()
                    self.assertRejected(["block", "--input", "-"], [f'"{field}" is', "allowed"], stdin=doc)
        doc = b'{"x": [[1, 0]], "heads": 18446744073709551615, "w_qkv": [[1]], "w_o": [[1]]}'
        self.assertRejected(["attend", "--input", "-"], ['"heads" is 18446744073709551615'], stdin=doc)
        # flags: decimal digits only (CLI11 alone reads 010 as octal 8 and 0x10 as 16)
        learned = ["pe", "--scheme", "learned", "--d-model", "4", "--count", "2", "--seed"]
        self.assertEqual(run_json(*learned, "010")["table"], run_json(*learned, "10")["table"])
        self.assertEqual(run_json(*learned, "010")["seed"], 10)
        for flag, args in (("--steps", ["train", "--steps", "0x10"]), ("--steps", ["train", "--steps", "1e2"]),
                           ("--count", ["pe", "--d-model", "4", "--count", "1e3"]),
                           ("--d-model", ["pe", "--d-model", "4.0", "--count", "3"]),
                           ("--seed", learned + ["1e3"]), ("--seed", learned + ["-1"]),
                           ("--seed", learned + ["9007199254740992"]),
                           ("--seed", ["router", "--text", "hi", "--seed", "9.3e18"])):
            with self.subTest(args=args):
                self.assertRejected(args, [flag])

    def test_empty_or_missing_sizes_are_errors(self):
        self.assertRejected(["pe", "--d-model", "4", "--positions", ""], ["--positions", "empty list"])
        for length in ("-1", "0", "1000001"):
            self.assertRejected(["pe", "--scheme", "fraction", "--d-model", "4", "--positions", "1,2", "--length",
                                 length], ["length is " + length, "1 to 1000000"])
        self.assertRejected(["pe", "--d-model", "4", "--positions", "1,2", "--length", "5"], ["--length", "fraction"])
        self.assertEqual(run_json("pe", "--scheme", "fraction", "--d-model", "4", "--positions", "1,3")["length"], 4)
        x = [[1.0, 2.0], [3.0, 4.0]]  # D = 2: each weight (2, d) with d = 0 for the one under test
        for name in ("w_v", "w_q", "w_k"):
            doc = {"x": x, "w_q": [[1.0], [0.5]], "w_k": [[1.0], [0.5]], "w_v": [[1.0], [0.5]], name: [[], []]}
            self.assertRejected(["attend", "--input", "-"], [name, "column"], stdin=json.dumps(doc).encode())
        self.assertRejected(["attend", "--input", "-"], ["x", "column"],
                            stdin=b'{"x": [[]], "heads": 1, "w_qkv": [[1]], "w_o": [[1]]}')

    def test_train_refuses_runs_past_its_budget(self):
        # the runs of 5 minutes to 3.5 hours: refused at once, with the estimate and the budget
        def figure(args):
            p = run("train", *args, timeout=60)
            err = p.stderr.decode()
            self.assertEqual(p.returncode, 2, err)
            self.assertIn("floating-point operations; allowed: up to 2e+12 (about", err)
            self.assertIn("--steps", err)
            return float(err.split("needs about ")[1].split(" ")[0])
        big = figure(["--d-model", "1024", "--heads", "1", "--layers", "1", "--d-ff", "4096", "--batch", "4096",
                      "--steps", "1"])
        self.assertGreater(big, 2e12)
        long_run = figure(["--steps", "100000", "--batch", "4096"])
        shorter = figure(["--steps", "10000", "--batch", "4096"])
        self.assertGreater(long_run / shorter, 9.5)  # the steps are nearly all of it
        self.assertLess(long_run / shorter, 10.01)
        # the page trains 1 to 4 layers; so does the CLI
        self.assertRejected(["train", "--d-model", "512", "--layers", "7", "--batch", "4096", "--steps", "1"],
                            ["--layers is 7", "1 to 4"], timeout=60)
        d = run_json("train", "--steps", "2", "--layers", "4", "--no-timing")
        self.assertEqual(d["config"]["layers"], 4)
        self.assertGreater(d["estimated_flops"], 0)

    def test_layer_norm_of_huge_values(self):
        # 3e38 and -3e38 in one row: a float sum overflows; the block standardises the row exactly
        x = [[3e38, -3e38, 1.0, 2.0], [1.0, 2.0, 3.0, 4.0]]
        zero = [[0.0] * 12 for _ in range(4)]
        out = run_json("block", "--input", "-", stdin=json.dumps(
            {"x": x, "heads": 1, "w_qkv": zero, "w_o": [[0.0] * 4 for _ in range(4)]}).encode())
        row = np.array(x[0], dtype=np.float64)
        want = (row - row.mean()) / np.sqrt(row.var() + 1e-5)
        np.testing.assert_allclose(out["norm1"][0], want, atol=1e-6, rtol=1e-5)

    def test_the_same_seed_prints_the_same_bytes(self):
        doc = json.dumps({"text": "Refund the cake, not the fee.", "d_model": 16, "heads": 4,
                          "positions": "sinusoidal", "seed": 3}).encode()
        runs = [
            ["pe", "--scheme", "learned", "--d-model", "8", "--count", "5", "--seed", "9"],
            ["router", "--text", "Refund the cake, not the fee.", "--positions", "rope", "--seed", "5"],
            ["train", "--steps", "30", "--eval-every", "10", "--seed", "4", "--no-timing"],
        ]
        for args in runs:
            a, b = run(*args), run(*args)
            self.assertEqual(a.returncode, 0, a.stderr)
            self.assertEqual(a.stdout, b.stdout, args)
        self.assertNotIn(b"seconds", run(*runs[2]).stdout)
        for cmd in ["attend", "block"]:
            a, b = run(cmd, "--input", "-", stdin=doc), run(cmd, "--input", "-", stdin=doc)
            self.assertEqual(a.returncode, 0, a.stderr)
            self.assertEqual(a.stdout, b.stdout, cmd)
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for name in ["a.json", "b.json"]:
                path = os.path.join(tmp, name)
                run_json("train", "--steps", "20", "--seed", "4", "--no-timing", "--out", path)
                with open(path, "rb") as f:
                    files.append(f.read())
            self.assertEqual(files[0], files[1], "the same seed writes the same model file")

    def test_model_file_with_huge_sizes_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "model.json")
            run_json("train", "--steps", "1", "--out", path)
            with open(path) as f:
                doc = json.load(f)
            doc["config"]["classes"] = 100000
            doc["config"]["d_model"] = 1024
            with open(path, "w") as f:
                json.dump(doc, f)
            self.assertRejected(["router", "--model", path, "--text", "hi"], ["weights; allowed"])

    def test_bad_arguments(self):
        self.assertRejected(["pe", "--scheme", "learned", "--d-model", "4", "--positions", "400"], ["400", "128"])
        self.assertRejected(["pe", "--scheme", "clock", "--d-model", "4", "--count", "3"],
                            ["clock", "sinusoidal|learned|raw|fraction"])
        self.assertRejected(["pe", "--d-model", "4"], ["--positions", "--count"])
        self.assertRejected(["pe", "--d-model", "4", "--count", "3", "--positions", "1"], ["exactly one"])
        self.assertRejected(["pe", "--d-model", "0", "--count", "3"], ["d_model", "allowed"])
        self.assertRejected(["pe", "--d-model", "4", "--count", "-5"], ["--positions", "--count"])
        self.assertRejected(["pe", "--d-model", "4", "--positions", "1,x"], ["x"])
        self.assertRejected(["pe", "--d-model", "4", "--positions", "-1"], ["position", "allowed"])
        self.assertRejected(["pe", "--d-model", "4", "--count", "3", "--base", "1"], ["base"])
        self.assertRejected(["pe", "--scheme", "fraction", "--d-model", "4", "--positions", "12", "--length", "10"],
                            ["12", "10"])
        self.assertRejected(["params", "--d-model", "512", "--heads", "6"], ["512", "6"])
        self.assertRejected(["params", "--d-model", "512", "--heads", "0"], ["heads"])
        self.assertRejected(["router", "--text", ""], ["empty"])
        self.assertRejected(["router", "--text", "a b c d e f", "--positions", "learned", "--max-len", "4"],
                            ["position 4", "4 slots"])
        self.assertRejected(["router", "--text", "hi", "--positions", "raw"], ["none|sinusoidal|learned|rope|alibi"])
        self.assertRejected(["router", "--text", b"caf\xc3"], ["UTF-8", "byte 3"])
        self.assertRejected(["frobnicate"], [])
        self.assertRejected([], [])

    def test_bad_json(self):
        cases = [
            (b"{not json", ["not valid JSON"]),
            (b"[1, 2]", ["object"]),
            (b'{"heads": 2}', ['"x"']),
            (b'{"x": [], "heads": 1, "w_qkv": [[1]], "w_o": [[1]]}', ["x"]),
            (b'{"x": [[1, 2], [3]], "heads": 1, "w_qkv": [[1]], "w_o": [[1]]}', ["x[1]"]),
            (b'{"x": [[1, "a"]], "heads": 1}', ["x[0][1]", "not a number"]),
            (b'{"x": [[1e999, 0]], "heads": 1}', ["not valid JSON"]),
            (b'{"x": [[1e300, 0]], "heads": 1, "w_qkv": [[1,0,0,0,0,0],[0,1,0,0,0,0]], "w_o": [[1,0],[0,1]]}',
             ["non-finite"]),
            (b'{"x": [[1, 0]], "heads": 3, "w_qkv": [[1,0,0,0,0,0],[0,1,0,0,0,0]], "w_o": [[1,0],[0,1]]}',
             ["2", "3 heads"]),
            (b'{"x": [[1, 0]], "heads": 1, "w_qkv": [[1,0,0],[0,1,0]], "w_o": [[1,0],[0,1]]}', ["w_qkv", "(2, 6)"]),
            (b'{"x": [[1, 0]], "heads": 1, "w_qkv": [[1,0,0,0,0,0],[0,1,0,0,0,0]], "w_o": [[1,0],[0,1]],'
             b' "positions": "clock"}', ["clock", "none|sinusoidal|learned|rope|alibi"]),
            (b'{"x": [[1, 0]], "heads": "two", "w_qkv": [[1]], "w_o": [[1]]}', ["heads"]),
            (b'{"x": [[1, 0]], "heads": 1, "w_qkv": [[1,0,0,0,0,0],[0,1,0,0,0,0]], "w_o": [[1,0],[0,1]],'
             b' "causal": "yes"}', ["causal"]),
        ]
        for doc, needles in cases:
            with self.subTest(doc=doc):
                self.assertRejected(["attend", "--input", "-"], needles, stdin=doc)
        self.assertRejected(["attend", "--input", "/nonexistent/x.json"], ["cannot open"])
        self.assertRejected(["block", "--input", "-"], ["text"], stdin=b'{"text": ""}')
        self.assertRejected(["block", "--input", "-"], ["learned"],
                            stdin=b'{"text": "a b c", "d_model": 4, "positions": "learned", "max_len": 2}')


if __name__ == "__main__":
    unittest.main()
