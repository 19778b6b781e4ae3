"""End-to-end tests of attention_cli train's heads: role scores, roles and heads switched off (--off, --ablate)
of the induction model and the router, against float64 numpy forwards of the dumped weights (--dump)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import cli_bad_input_test
import cli_test
from heads_reference import (ITEMS, ROUTER_SCORES, head_name, induction_reference, role_margin, role_of,
                             router_reference, router_test_metrics)

ATOL, RTOL = 2e-4, 1e-3  # the float32 model against the float64 reference


def start(*args):
    return subprocess.Popen([cli_test.CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(p, timeout=300):
    out, err = p.communicate(timeout=timeout)
    if p.returncode != 0:
        raise AssertionError(f"{p.args[1:]} exited {p.returncode}: {err.decode()}")
    return json.loads(out)


class Heads(unittest.TestCase, cli_test.CloseMixin):
    """Five training runs (seed 1), started side by side in setUpClass: the induction model with rope
    (--dump) and again with its induction heads off, with sinusoidal positions (--dump, --ablate mean
    --off 1.0, --eval-length 64,128), with ALiBi (600 steps, --dump), and the router (--dump --off 0.1)."""

    @classmethod
    def setUpClass(cls):
        rope = start("train", "--task", "induction", "--positions", "rope", "--seed", "1", "--dump", "--no-timing")
        sinusoidal = start("train", "--task", "induction", "--positions", "sinusoidal", "--seed", "1", "--dump",
                           "--ablate", "mean", "--off", "1.0", "--eval-length", "64,128", "--no-timing")
        router = start("train", "--positions", "sinusoidal", "--seed", "1", "--dump", "--off", "0.1", "--no-timing")
        alibi = start("train", "--task", "induction", "--positions", "alibi", "--seed", "1", "--steps", "600",
                      "--dump", "--no-timing")
        cls.rope = finish(rope)
        # every layer-1 head the first run calls at least a weak induction head
        cls.rope_off = [head_name(1, h) for h, s in enumerate(cls.rope["final"]["induction"][1]) if s >= 0.3]
        rope_off = start("train", "--task", "induction", "--positions", "rope", "--seed", "1",
                         "--off", ",".join(cls.rope_off), "--no-timing")
        cls.router = finish(router)
        cls.sinusoidal = finish(sinusoidal)
        cls.alibi = finish(alibi)
        cls.rope_ablated = finish(rope_off)

    def assertCloseReported(self, what, got, want, atol=ATOL, rtol=RTOL):
        got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
        self.assertEqual(got.shape, want.shape, what)
        diff = np.abs(got - want).max() if got.size else 0.0
        print(f"[ reference ] {what}: largest difference {diff:.3g} (atol {atol:g}, rtol {rtol:g})",
              file=sys.stderr, flush=True)
        with self.subTest(what=what):
            self.assertClose(got, want, atol=atol, rtol=rtol)

    def check_induction_heads(self, doc, want):
        """`heads`: layer-major, each head's scores as the reference's, its role by the rule."""
        config = doc["config"]
        self.assertEqual([(e["layer"], e["head"]) for e in doc["heads"]],
                         [(l, h) for l in range(config["layers"]) for h in range(config["heads"])])
        got = [[e["scores"]["previous_token"], e["scores"]["induction"]] for e in doc["heads"]]
        wanted = np.stack([want["previous_token"].ravel(), want["induction"].ravel()], axis=1)
        self.assertCloseReported(f"{config['positions']}: heads[].scores", got, wanted)
        for e, w in zip(doc["heads"], wanted):
            self.assertEqual(e["role"], role_of(e["scores"]), e)
            mine = {"previous_token": w[0], "induction": w[1]}
            if role_margin(mine) > ATOL + RTOL:
                self.assertEqual(e["role"], role_of(mine), (e, mine))

    def check_induction_final(self, doc, want):
        scheme = doc["config"]["positions"]
        final = doc["final"]
        self.assertEqual(final["length"], doc["config"]["length"])
        self.assertCloseReported(f"{scheme}: final losses", [final["loss_first_half"], final["loss_second_half"]],
                                 [want["loss_first_half"], want["loss_second_half"]])
        self.assertCloseReported(f"{scheme}: final previous_token", final["previous_token"], want["previous_token"])
        self.assertCloseReported(f"{scheme}: final induction", final["induction"], want["induction"])

    def check_single_head_ablations(self, doc, ablate):
        config = doc["config"]
        names = [head_name(l, h) for l in range(config["layers"]) for h in range(config["heads"])]
        self.assertEqual(doc["ablate"], ablate)
        self.assertEqual([a["off"] for a in doc["ablation"]], names)
        got, want = [], []
        for a in doc["ablation"]:
            m, _ = induction_reference(doc, (a["off"],), ablate)
            got.append([a["loss_first_half"], a["loss_second_half"]])
            want.append([m["loss_first_half"], m["loss_second_half"]])
        self.assertCloseReported(f"{config['positions']}: ablation[] losses ({ablate})", got, want)

    def test_rope_induction_model_against_numpy(self):
        d = self.rope
        c = d["config"]
        self.assertEqual((c["d_model"], c["heads"], c["layers"], c["tokens"], c["length"]), (32, 4, 2, 16, 32))
        self.assertEqual(len(d["held_out"]), 64)
        self.assertTrue(all(len(s) == 32 for s in d["held_out"]))
        want, _ = induction_reference(d)
        self.check_induction_final(d, want)
        self.check_induction_heads(d, want)
        self.check_single_head_ablations(d, "zero")
        # the issue's targets: a previous-token head in layer 0, an induction head in layer 1, and the repeat
        # predicted far better than the random first half
        final = d["final"]
        self.assertGreaterEqual(max(final["previous_token"][0]), 0.5, final)
        self.assertGreaterEqual(max(final["induction"][1]), 0.5, final)
        self.assertLessEqual(final["loss_second_half"], final["loss_first_half"] / 4, final)
        self.assertIn("previous_token", [e["role"] for e in d["heads"] if e["layer"] == 0])
        self.assertIn("induction", [e["role"] for e in d["heads"] if e["layer"] == 1])

    def test_rope_without_its_induction_heads(self):
        d, clean = self.rope_ablated, self.rope
        self.assertTrue(self.rope_off, clean["final"]["induction"])
        ablated = d["ablated"]
        self.assertEqual(ablated["off"], self.rope_off)
        self.assertEqual(ablated["length"], 32)
        print(f"[ reference ] rope --off {','.join(self.rope_off)}: losses {ablated['loss_first_half']:.4g} and "
              f"{ablated['loss_second_half']:.4g} (clean {clean['final']['loss_first_half']:.4g} and "
              f"{clean['final']['loss_second_half']:.4g})", file=sys.stderr, flush=True)
        # without them, the repeat is predicted hardly better than the random half
        self.assertGreaterEqual(ablated["loss_second_half"], 0.75 * ablated["loss_first_half"], ablated)
        self.assertGreaterEqual(ablated["loss_second_half"], 0.75 * clean["final"]["loss_first_half"], ablated)
        # --off only changes what is measured afterwards: the same seed trains the same model
        for key in ("final", "curve", "formed", "heads", "ablation", "previous_token", "induction",
                    "loss_first_half", "loss_second_half"):
            self.assertEqual(d[key], clean[key], key)
        # switching off heads of the last layer leaves every head's weights as they were
        self.assertEqual(ablated["previous_token"], clean["final"]["previous_token"])
        self.assertEqual(ablated["induction"], clean["final"]["induction"])
        # and the two losses are those of the same heads switched off by hand
        want, _ = induction_reference(clean, tuple(self.rope_off), "zero")
        self.assertCloseReported("rope: ablated losses (zero, by hand on run 1's weights)",
                                 [ablated["loss_first_half"], ablated["loss_second_half"]],
                                 [want["loss_first_half"], want["loss_second_half"]])

    def test_sinusoidal_induction_model_and_mean_ablation(self):
        d = self.sinusoidal
        want, means = induction_reference(d)
        self.check_induction_final(d, want)
        self.check_induction_heads(d, want)
        self.check_single_head_ablations(d, "mean")
        ablated = d["ablated"]
        self.assertEqual(ablated["off"], ["1.0"])
        off, _ = induction_reference(d, ("1.0",), "mean")
        self.assertCloseReported("sinusoidal: ablated 1.0 losses (mean)",
                                 [ablated["loss_first_half"], ablated["loss_second_half"]],
                                 [off["loss_first_half"], off["loss_second_half"]])
        self.assertCloseReported("sinusoidal: ablated 1.0 scores (mean)",
                                 [ablated["previous_token"], ablated["induction"]],
                                 [off["previous_token"], off["induction"]])
        # the mean is not zero: a mean ablation is not a zero ablation
        zero, _ = induction_reference(d, ("1.0",), "zero")
        self.assertGreater(np.abs(means[(1, 0)]).max(), 1e-3)
        self.assertNotAlmostEqual(zero["loss_second_half"], off["loss_second_half"], places=3)
        final = d["final"]
        self.assertGreaterEqual(max(final["induction"][1]), 0.5, final)
        self.assertLessEqual(final["loss_second_half"], final["loss_first_half"] / 4, final)

    def test_sinusoidal_at_two_and_four_times_the_length(self):
        d = self.sinusoidal
        self.assertEqual([e["length"] for e in d["eval_length"]], [64, 128])
        for e in d["eval_length"]:
            length = e["length"]
            self.assertEqual(np.asarray(e["held_out"]).shape, (64, length))
            self.assertTrue(all(s[:length // 2] == s[length // 2:] for s in e["held_out"]))
            want, _ = induction_reference(dict(d, held_out=e["held_out"]))
            self.assertCloseReported(f"sinusoidal at {length}: losses", [e["loss_first_half"], e["loss_second_half"]],
                                     [want["loss_first_half"], want["loss_second_half"]])
            self.assertCloseReported(f"sinusoidal at {length}: previous_token", e["previous_token"],
                                     want["previous_token"])
            self.assertCloseReported(f"sinusoidal at {length}: induction", e["induction"], want["induction"])

    def test_alibi_induction_model_against_numpy(self):
        d = self.alibi
        self.assertEqual(d["config"]["positions"], "alibi")
        want, _ = induction_reference(d)
        self.check_induction_final(d, want)
        self.check_induction_heads(d, want)
        # ALiBi's fixed recency is enough for an induction head to form within 600 steps
        self.assertGreaterEqual(max(d["final"]["induction"][1]), 0.5, d["final"])

    def test_router_heads_against_numpy(self):
        d = self.router
        c = d["config"]
        self.assertEqual((c["d_model"], c["heads"], c["layers"], c["d_ff"], c["causal"]), (32, 4, 1, 0, False))
        self.assertEqual(d["data"]["labels"], ITEMS)
        names = [head_name(l, h) for l in range(c["layers"]) for h in range(c["heads"])]
        singles = [(name,) for name in names]
        scores, metrics, twins = router_reference(d, singles)
        self.assertGreater(twins, 0)
        # role scores and roles
        self.assertEqual([(e["layer"], e["head"]) for e in d["heads"]],
                         [(l, h) for l in range(c["layers"]) for h in range(c["heads"])])
        got = [[e["scores"][k] for k in ROUTER_SCORES] for e in d["heads"]]
        self.assertCloseReported("router: heads[].scores", got, scores.reshape(-1, len(ROUTER_SCORES)))
        roles = set(ROUTER_SCORES) | {"mixed"}
        for e, w in zip(d["heads"], scores.reshape(-1, len(ROUTER_SCORES))):
            self.assertIn(e["role"], roles, e)
            self.assertEqual(e["role"], role_of(e["scores"]), e)
            mine = dict(zip(ROUTER_SCORES, w))
            if role_margin(mine) > ATOL + RTOL:
                self.assertEqual(e["role"], role_of(mine), (e, mine))
        self.assertTrue(any(e["role"] != "mixed" for e in d["heads"]), d["heads"])
        # test metrics: the clean model, each head off, and --off 0.1
        keys = ("test_accuracy", "flipped_pair_accuracy", "test_loss")
        self.assertCloseReported("router: final test metrics", [d["final"][k] for k in keys],
                                 [metrics[()][k] for k in keys])
        self.assertEqual([a["off"] for a in d["ablation"]], names)
        self.assertCloseReported("router: ablation[] test metrics (zero)",
                                 [[a[k] for k in keys] for a in d["ablation"]],
                                 [[metrics[(a["off"],)][k] for k in keys] for a in d["ablation"]])
        self.assertEqual(d["ablated"]["off"], ["0.1"])
        self.assertCloseReported("router: ablated 0.1 test metrics", [d["ablated"][k] for k in keys],
                                 [metrics[("0.1",)][k] for k in keys])
        # some head the flipped pairs need
        self.assertLess(min(a["flipped_pair_accuracy"] for a in d["ablation"]), d["final"]["flipped_pair_accuracy"],
                        d["ablation"])


class BadHeadsInput(unittest.TestCase):
    """Bad --off, --ablate, --task and induction options exit 2 before any training."""

    def test_refused_before_training(self):
        bad = cli_bad_input_test.BadInput()
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.json")
            cases = [
                (["--task", "induction", "--off", "9.9"], ["9.9"]),
                (["--task", "induction", "--off", "x"], ["'x'"]),
                (["--task", "induction", "--off", "0."], ["'0.'"]),
                (["--task", "induction", "--ablate", "half"], ["--ablate", "half"]),
                (["--task", "induction", "--out", out], ["--out"]),
                (["--task", "induction", "--eval-length", "7"], ["7"]),
                (["--task", "unknown"], ["--task", "unknown"]),
            ]
            for args, needles in cases:
                with self.subTest(args=args):
                    # --steps 1: a check that is missing fails fast instead of training for seconds
                    bad.assertRejected(["train", *args, "--steps", "1", "--no-timing"], needles, timeout=60)
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main(verbosity=1)
