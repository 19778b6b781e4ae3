"""End-to-end tests of attention_cli: every subcommand against numpy, and every bad input -> exit 2 (train
and model files: cli_train_test.py)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import cli_reference as ref

CLI = os.environ.get("ATTENTION_CLI", "build/native/attention_cli")
ATOL, RTOL = 1e-5, 1e-4


def run(*args, stdin=None, timeout=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, timeout=timeout)


def run_json(*args, stdin=None):
    p = run(*args, stdin=stdin)
    if p.returncode != 0:
        raise AssertionError(f"{args} exited {p.returncode}: {p.stderr.decode()}")
    return json.loads(p.stdout)


class CloseMixin:
    def assertClose(self, got, want, atol=ATOL, rtol=RTOL):
        got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
        self.assertEqual(got.shape, want.shape)
        diff = np.abs(got - want)
        bad = diff > atol + rtol * np.abs(want)
        if bad.any():
            i = np.unravel_index(np.argmax(diff), diff.shape)
            self.fail(f"largest difference {diff.max():.3g} at {i}: got {got[i]}, want {want[i]}")


class PositionTables(unittest.TestCase, CloseMixin):
    def test_lesson_clock_readings(self):
        d = run_json("pe", "--scheme", "sinusoidal", "--d-model", "4", "--positions", "0,1,2,3,44")
        self.assertEqual(d["positions"], [0, 1, 2, 3, 44])
        want = [[0, 1, 0, 1], [0.841, 0.540, 0.010, 1.000], [0.909, -0.416, 0.020, 1.000],
                [0.141, -0.990, 0.030, 1.000], [0.018, 1.000, 0.426, 0.905]]
        self.assertEqual(np.round(d["table"], 3).tolist(), want)

    def test_sinusoidal_against_numpy(self):
        rng = np.random.default_rng(3)
        for d_model in (1, 2, 5, 16, 33, 512):
            base = float(rng.choice([100.0, 10000.0, 500000.0]))
            d = run_json("pe", "--d-model", str(d_model), "--count", "60", "--base", str(base))
            self.assertClose(d["table"], ref.sinusoidal(range(60), d_model, base))
            self.assertEqual(len(d["speeds"]), (d_model + 1) // 2)

    def test_512_wide_hands(self):
        d = run_json("pe", "--d-model", "512", "--count", "1")
        w = d["wavelengths"]
        self.assertEqual(len(w), 256)
        self.assertAlmostEqual(w[0], 2 * np.pi, places=6)
        self.assertAlmostEqual(w[-1], 2 * np.pi * 10000 ** (510 / 512), delta=1e-6 * w[-1])
        self.assertTrue(55000 < w[-1] < 65000)

    def test_raw_and_fraction(self):
        # The naive attempts append one number to each embedding: one column, and the width grows by one.
        raw = run_json("pe", "--scheme", "raw", "--d-model", "3", "--count", "300")
        self.assertEqual(raw["table"][299], [299.0])
        self.assertEqual([len(row) for row in raw["table"]], [1] * 300)
        self.assertEqual(raw["width_after_appending"], 4)
        short = run_json("pe", "--scheme", "fraction", "--d-model", "2", "--positions", "3", "--length", "10")
        long = run_json("pe", "--scheme", "fraction", "--d-model", "2", "--positions", "30", "--length", "100")
        self.assertClose(short["table"], long["table"])
        self.assertEqual(len(short["table"][0]), 1)
        self.assertEqual(short["width_after_appending"], 3)
        one_step_short = 1 / 10
        one_step_long = run_json("pe", "--scheme", "fraction", "--d-model", "1", "--positions", "1",
                                 "--length", "100")["table"][0][0]
        self.assertNotAlmostEqual(one_step_short, one_step_long)

    def test_learned_is_seeded(self):
        a = run_json("pe", "--scheme", "learned", "--d-model", "8", "--count", "4", "--seed", "3")
        b = run_json("pe", "--scheme", "learned", "--d-model", "8", "--count", "4", "--seed", "3")
        c = run_json("pe", "--scheme", "learned", "--d-model", "8", "--count", "4", "--seed", "4")
        self.assertEqual(a["table"], b["table"])
        self.assertNotEqual(a["table"], c["table"])


def attend_input(rng, b, t, d, heads, **extra):
    x = rng.normal(size=(b, t, d))
    w_qkv = rng.normal(size=(d, 3 * d)) / np.sqrt(d)
    w_o = rng.normal(size=(d, d)) / np.sqrt(d)
    doc = {"x": x.tolist(), "heads": heads, "w_qkv": w_qkv.tolist(), "w_o": w_o.tolist(), **extra}
    return x, w_qkv, w_o, doc


class Attend(unittest.TestCase, CloseMixin):
    def test_multi_head_against_numpy(self):
        rng = np.random.default_rng(7)
        cases = [(1, 5, 8, 2), (2, 7, 12, 3), (3, 4, 16, 8), (1, 1, 4, 1), (2, 9, 24, 4)]
        for scheme in ("none", "sinusoidal", "rope", "alibi"):
            for causal in (False, True):
                for b, t, d, h in cases:
                    x, w_qkv, w_o, doc = attend_input(rng, b, t, d, h, positions=scheme, causal=causal)
                    got = run_json("attend", "--input", "-", stdin=json.dumps(doc).encode())
                    out, weights = ref.mha(x, w_qkv, w_o, h, scheme, causal)
                    with self.subTest(scheme=scheme, causal=causal, shape=(b, t, d, h)):
                        self.assertClose(got["output"], out)
                        self.assertClose(got["weights"], weights)
                        self.assertEqual(got["parameters"], 4 * d * d)

    def test_unbatched_keeps_rank(self):
        rng = np.random.default_rng(1)
        x, w_qkv, w_o, doc = attend_input(rng, 1, 6, 8, 2)
        doc["x"] = x[0].tolist()
        got = run_json("attend", "--input", "-", stdin=json.dumps(doc).encode())
        out, weights = ref.mha(x, w_qkv, w_o, 2)
        self.assertClose(got["output"], out[0])
        self.assertClose(got["weights"], weights[0])

    def test_single_head_from_file(self):
        rng = np.random.default_rng(2)
        x = rng.normal(size=(5, 6))
        wq, wk, wv = (rng.normal(size=(6, 3)) for _ in range(3))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"x": x.tolist(), "w_q": wq.tolist(), "w_k": wk.tolist(), "w_v": wv.tolist()}, f)
        try:
            got = run_json("attend", "--input", f.name)
        finally:
            os.unlink(f.name)
        out, w = ref.head(x @ wq, x @ wk, x @ wv)
        self.assertClose(got["output"], out)
        self.assertClose(got["weights"], [w])

    def test_shuffle_without_and_with_positions(self):
        rng = np.random.default_rng(0)
        x, w_qkv, w_o, doc = attend_input(rng, 1, 3, 8, 2)
        perm = [2, 0, 1]
        for scheme, same in (("none", True), ("sinusoidal", False)):
            doc["positions"] = scheme
            doc["x"] = x[0].tolist()
            base = np.asarray(run_json("attend", "--input", "-", stdin=json.dumps(doc).encode())["output"])
            doc["x"] = x[0][perm].tolist()
            shuf = np.asarray(run_json("attend", "--input", "-", stdin=json.dumps(doc).encode())["output"])
            self.assertEqual(np.allclose(base[perm], shuf, atol=1e-5), same, scheme)


class ParamsRouterBlock(unittest.TestCase, CloseMixin):
    def test_params(self):
        for d, h in ((512, 8), (64, 8), (768, 12)):
            p = run_json("params", "--d-model", str(d), "--heads", str(h))
            self.assertEqual(p["d_k"], d // h)
            self.assertEqual(p["fused_parameters"], h * 3 * d * (d // h) + d * d)
            self.assertEqual(p["single_head_parameters"], 4 * d * d)
        self.assertEqual(run_json("params", "--d-model", "512", "--heads", "8")["fused_parameters"], 1048576)

    def test_router_order_blindness_and_fix(self):
        a_text = "Refund the delivery fee, not the cake."
        b_text = "Refund the cake, not the delivery fee."
        a = run_json("router", "--text", a_text)
        b = run_json("router", "--text", b_text)
        self.assertEqual(sorted(a["tokens"]), sorted(b["tokens"]))
        self.assertEqual(a["label"], b["label"])
        self.assertLess(abs(a["confidence"] - b["confidence"]), 1e-6)
        a = run_json("router", "--text", a_text, "--positions", "sinusoidal")
        b = run_json("router", "--text", b_text, "--positions", "sinusoidal")
        self.assertGreater(abs(a["probabilities"][0] - b["probabilities"][0]), 1e-4)
        self.assertAlmostEqual(sum(a["probabilities"]), 1.0, places=5)

    def test_block_against_numpy(self):
        rng = np.random.default_rng(5)
        t, d, h, f = 6, 8, 2, 16
        x, w_qkv, w_o, doc = attend_input(rng, 1, t, d, h)
        w1, b1 = rng.normal(size=(d, f)) / 3, rng.normal(size=f) / 3
        w2, b2 = rng.normal(size=(f, d)) / 4, rng.normal(size=d) / 4
        doc.update(x=x[0].tolist(), w1=w1.tolist(), b1=b1.tolist(), w2=w2.tolist(), b2=b2.tolist())
        got = run_json("block", "--input", "-", stdin=json.dumps(doc).encode())
        want = ref.encoder_block(x[0], w_qkv, w_o, h, w1, b1, w2, b2)
        for key, value in want.items():
            with self.subTest(key=key):
                self.assertClose(got[key], value, atol=1e-4)
        self.assertEqual(np.asarray(got["weights"]).shape, (h, t, t))

    def test_block_from_text(self):
        got = run_json("block", "--input", "-",
                       stdin=json.dumps({"text": "Refund my eggless cake, it was cold.", "d_model": 8,
                                         "heads": 2}).encode())
        self.assertEqual(len(got["tokens"]), 9)
        self.assertEqual(np.asarray(got["output"]).shape, (9, 8))
        self.assertEqual(np.asarray(got["hidden"]).shape, (9, 32))


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
        self.assertRejected(["router", "--text", "hi", "--positions", "alibi"], ["none|sinusoidal|learned|rope"])
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
    unittest.main(verbosity=1)
