"""End-to-end tests of attention_cli: every subcommand against numpy (bad and hostile input:
cli_bad_input_test.py; train and model files: cli_train_test.py)."""
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


if __name__ == "__main__":
    unittest.main(verbosity=1)
