"""End-to-end tests of attention_cli train and model files: training reaches its figures, model files give
the numpy reference's predictions, hostile model files exit 2 (the other subcommands: cli_test.py)."""
import json
import os
import tempfile
import unittest

import numpy as np

import cli_reference as ref
import cli_bad_input_test
import cli_test


def router_model_reference(model, tokens):
    """float64 numpy forward pass of a saved router model (its JSON) on tokens -> probabilities (C,)."""
    t = {name: np.asarray(v["data"], dtype=np.float64).reshape(v["shape"]) for name, v in model["tensors"].items()}
    index = {w: i for i, w in enumerate(model["vocab"])}
    return ref.router_forward(t, model["config"], [index.get(tok, 0) for tok in tokens])[0]


class Train(unittest.TestCase, cli_test.CloseMixin):
    """`train` reaches the issue's targets for a fixed seed; `router --model` runs the saved model.
    Step counts as in tests/test_train_results.cpp (sinusoidal 400, learned 300)."""
    PAIR = ("Refund the cake, not the candles.", "Refund the candles, not the cake.")

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = {}
        cls.runs = {}
        for scheme, steps in (("sinusoidal", 400), ("none", 300), ("learned", 300)):
            path = os.path.join(cls.tmp.name, f"{scheme}.json")
            cls.runs[scheme] = cli_test.run_json("train", "--positions", scheme, "--steps", str(steps), "--seed", "1",
                                        "--eval-every", "100", "--out", path)
            cls.files[scheme] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_sinusoidal_reaches_99_percent(self):
        d = self.runs["sinusoidal"]
        self.assertGreaterEqual(d["final"]["test_accuracy"], 0.99, d["final"])
        self.assertGreaterEqual(d["final"]["flipped_pair_accuracy"], 0.98, d["final"])
        self.assertGreater(d["final"]["max_pair_difference"], 0.5)
        self.assertIsNotNone(d["reached_99"])
        self.assertEqual(d["config"]["positions"], "sinusoidal")
        self.assertEqual(d["config"]["steps"], 400)
        self.assertEqual([p["step"] for p in d["curve"]], list(range(0, 401, 100)))
        self.assertIsNone(d["curve"][0]["loss"])
        self.assertLess(d["curve"][-1]["loss"], d["curve"][1]["loss"])
        self.assertGreater(d["steps_per_second"], 0)
        self.assertGreaterEqual(d["seconds"], d["train_seconds"])
        self.assertIn("test_accuracy", d["longer_emails"])
        self.assertEqual(d["longer_emails"]["extra_tokens"], 40)

    def test_without_positions_the_pair_is_identical(self):
        d = self.runs["none"]
        self.assertLessEqual(d["final"]["flipped_pair_accuracy"], 0.5)
        self.assertLess(d["final"]["max_pair_difference"], 1e-6)
        a, b = (cli_test.run_json("router", "--model", self.files["none"], "--text", text) for text in self.PAIR)
        self.assertEqual(a["label"], b["label"])
        self.assertClose(a["probabilities"], b["probabilities"], atol=1e-6, rtol=0)

    def test_learned_positions_refuse_longer_emails(self):
        d = self.runs["learned"]
        self.assertNotIn("test_accuracy", d["longer_emails"])
        self.assertIn("past the end of the learned table", d["longer_emails"]["error"])

    def test_router_model_matches_the_saved_weights(self):
        with open(self.files["sinusoidal"]) as f:
            model = json.load(f)
        self.assertEqual(model["format"], "attention-demo-router")
        self.assertEqual(model["training"]["steps"], 400)
        for text, want in zip(self.PAIR, ("cake", "candles")):
            got = cli_test.run_json("router", "--model", self.files["sinusoidal"], "--text", text)
            self.assertEqual(got["label"], want, got)
            self.assertEqual(got["labels"], model["labels"])
            self.assertEqual(got["positions"], "sinusoidal")
            self.assertEqual(got["unknown_tokens"], [])
            probs = router_model_reference(model, got["tokens"])
            self.assertClose(got["probabilities"], probs)
            self.assertEqual(got["label"], model["labels"][int(np.argmax(probs))])
            self.assertAlmostEqual(got["confidence"], max(got["probabilities"]), places=7)
        for scheme in ("none", "learned"):
            with open(self.files[scheme]) as f:
                model = json.load(f)
            got = cli_test.run_json("router", "--model", self.files[scheme], "--text", "Hello, please refund the mugs.")
            self.assertClose(got["probabilities"], router_model_reference(model, got["tokens"]))
        got = cli_test.run_json("router", "--model", self.files["sinusoidal"], "--text", "Refund the zeppelin, not the cake.")
        self.assertEqual(got["unknown_tokens"], ["zeppelin"])

    def test_same_seed_same_file(self):
        path = os.path.join(self.tmp.name, "again.json")
        cli_test.run_json("train", "--positions", "none", "--steps", "300", "--seed", "1", "--eval-every", "100",
                 "--out", path)
        with open(path) as f, open(self.files["none"]) as g:
            a, b = json.load(f), json.load(g)
        self.assertEqual(a["tensors"], b["tensors"])

    def test_bad_train_and_model_input(self):
        bad = cli_bad_input_test.BadInput()
        model = self.files["sinusoidal"]
        bad.assertRejected(["train", "--positions", "raw"], ["raw", "none|sinusoidal|learned|rope|alibi"])
        bad.assertRejected(["train", "--steps", "-1"], ["--steps"])
        bad.assertRejected(["train", "--steps", "2000000"], ["--steps", "100000"])
        bad.assertRejected(["train", "--steps", "ten"], ["--steps"])
        bad.assertRejected(["train", "--heads", "5", "--steps", "1"], ["32", "5 heads"])
        bad.assertRejected(["train", "--lr", "0", "--steps", "1"], ["--lr"])
        bad.assertRejected(["train", "--eval-every", "0", "--steps", "1"], ["--eval-every"])
        bad.assertRejected(["train", "--steps", "1", "--out", "/nonexistent/dir/m.json"],
                           ["cannot write the model file"])
        bad.assertRejected(["router", "--model", "/nonexistent/m.json", "--text", "hi"],
                           ["cannot open the model file '/nonexistent/m.json'"])
        bad.assertRejected(["router", "--model", model, "--positions", "rope", "--text", "hi"], ["--model"])
        bad.assertRejected(["router", "--model", model, "--text", ""], ["no tokens"])
        with open(model) as f:
            good = json.load(f)
        broken = [
            (f"{json.dumps(good)[:-40]}", ["not valid JSON"]),
            ('{"x": [[1]]}', ['"format": "attention-demo-router"']),
            (json.dumps({**good, "version": 9}), ["version 9 is not supported"]),
            (json.dumps({**good, "vocab": good["vocab"][:-1]}), ["config.vocab"]),
            (json.dumps({**good, "tensors": {k: v for k, v in good["tensors"].items() if k != "classifier.w"}}),
             ["tensor 'classifier.w' is missing"]),
            (json.dumps({**good, "tensors": {**good["tensors"], "classifier.b": {"shape": [1, 3], "data": [0] * 3}}}),
             ["tensor 'classifier.b' has shape [1, 3]"]),
            (json.dumps({**good, "tensors": {**good["tensors"], "classifier.b": {
                "shape": [1, 14], "data": [None] + [0] * 13}}}), ["data[0] is null"]),
        ]
        for i, (text, needles) in enumerate(broken):
            with self.subTest(case=i):
                path = os.path.join(self.tmp.name, f"broken{i}.json")
                with open(path, "w") as f:
                    f.write(text)
                bad.assertRejected(["router", "--model", path, "--text", "Refund the cake."],
                                   [f"model file '{path}'"] + needles)


if __name__ == "__main__":
    unittest.main(verbosity=1)
