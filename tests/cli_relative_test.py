"""End-to-end tests of the relative position scheme (learned biases per head and distance bucket, T5: Raffel et
al., 2020): the reference's bucket function against a table worked out by hand, then the router and the
induction model trained with it, against float64 numpy forwards of their dumped weights (cli_reference.py,
heads_reference.py)."""
import json
import os
import sys
import tempfile
import unittest

import numpy as np

import cli_heads_test
import cli_reference as ref
import cli_test
from cli_heads_test import ATOL, RTOL, finish, start
from cli_train_test import router_model_reference
from heads_reference import ROUTER_SCORES, head_name, induction_reference, role_margin, role_of, router_reference

BUCKETS = 32

# T5's buckets, 32 of them and max_distance 128, worked out by hand from the definition; rel = j - i (key minus
# query position), n = i - j.
# Causal (the induction LM): keys after the query (n < 0) count as n = 0; 16 exact buckets for n = 0 .. 15,
# then 16 log-spaced ones over n = 16 .. 128 (three doublings): 16 + floor(16/3 log2(n/16)), capped at 31.
# n = 16 -> 16; 18: 16/3 * 0.170 = 0.91 -> 16; 19: 16/3 * 0.248 = 1.32 -> 17; 31: 16/3 * 0.954 = 5.09 -> 21;
# 32: 16/3 -> 21; 45: 16/3 * 1.49 = 7.96 -> 23; 64: 32/3 = 10.7 -> 26; 127: 16/3 * 2.99 = 15.94 -> 31;
# 128: 16 -> 32, capped 31; 1000 -> 31.
CAUSAL = {0: 0, 1: 0, 50: 0, -1: 1, -2: 2, -15: 15, -16: 16, -18: 16, -19: 17, -31: 21, -32: 21, -45: 23,
          -64: 26, -127: 31, -128: 31, -1000: 31}
# Bidirectional (the router): 16 buckets each way, keys after the query (n < 0) in 16 .. 31 with n = |n|;
# 8 exact buckets for |n| = 0 .. 7, then 8 log-spaced ones over |n| = 8 .. 128 (four doublings):
# 8 + floor(8/4 log2(|n|/8)) = 8 + floor(2 log2(|n|/8)), capped at 15: a new bucket at each 8 sqrt(2)^m =
# 8, 11.3, 16, 22.6, 32, 45.3, 64, 90.5, 128, so 11 -> 8, 12 -> 9, 16 -> 10 (exactly on a step), 22 -> 10,
# 23 -> 11, 31 -> 11, 32 -> 12, 45 -> 12, 46 -> 13, 64 -> 14, 90 -> 14, 91 -> 15, 128 and beyond -> 15.
BIDIRECTIONAL = {0: 0, -1: 1, -7: 7, -8: 8, -11: 8, -12: 9, -16: 10, -22: 10, -23: 11, -31: 11, -32: 12,
                 -45: 12, -46: 13, -64: 14, -90: 14, -91: 15, -128: 15, -1000: 15,
                 1: 17, 7: 23, 8: 24, 12: 25, 16: 26, 31: 27, 32: 28, 91: 31, 1000: 31}


class RelativeBucket(unittest.TestCase):
    """The reference's relative_bucket and relative_bias (no CLI)."""

    def test_buckets_by_hand(self):
        for bidirectional, table in ((False, CAUSAL), (True, BIDIRECTIONAL)):
            for rel, want in table.items():
                with self.subTest(bidirectional=bidirectional, rel=rel):
                    self.assertEqual(ref.relative_bucket(rel, bidirectional), want)
            rels = np.array(list(table))
            self.assertEqual(ref.relative_bucket(rels, bidirectional).tolist(), list(table.values()))

    def test_buckets_are_monotonic_and_in_range(self):
        far = np.arange(0, 2000)
        causal = ref.relative_bucket(-far, False)
        self.assertTrue((np.diff(causal) >= 0).all() and causal.min() == 0 and causal.max() == BUCKETS - 1)
        self.assertEqual(ref.relative_bucket(far, False).tolist(), [0] * len(far))
        back, ahead = ref.relative_bucket(-far, True), ref.relative_bucket(far[1:], True)
        self.assertTrue((np.diff(back) >= 0).all() and back.max() == 15)
        self.assertTrue((np.diff(ahead) >= 0).all() and ahead.min() == 17 and ahead.max() == BUCKETS - 1)

    def test_bias_rows_are_queries(self):
        # [i, j] = table[bucket(j - i)]: row 0's keys lie after the query (upper half when bidirectional)
        table = np.arange(BUCKETS, dtype=np.float64)
        self.assertEqual(ref.relative_bias(table, 3, True).tolist(), [[0, 17, 18], [1, 0, 17], [2, 1, 0]])
        self.assertEqual(ref.relative_bias(table, 3, False).tolist(), [[0, 0, 0], [1, 0, 0], [2, 1, 0]])


class Relative(unittest.TestCase, cli_test.CloseMixin):
    """Two training runs (seed 1) side by side: the router (400 steps, --dump and --out) and the induction model
    (300 steps, --dump, --eval-length 128), both with --positions relative; and both with --steps 0 (--dump: the
    untrained distance_bias tables)."""
    PAIR = ("Refund the cake, not the candles.", "Refund the candles, not the cake.")
    # 191 tokens: distances both ways up to 190, every bucket of the router's (its held-out emails have at most
    # 15 tokens, so buckets 0 .. 9 and 17 .. 25 only)
    LONG = "Hello, please refund the mugs. " + "the cake and the candles, " * 30 + "not the cake."

    assertCloseReported = cli_heads_test.Heads.assertCloseReported
    check_induction_final = cli_heads_test.Heads.check_induction_final
    check_induction_heads = cli_heads_test.Heads.check_induction_heads

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model_path = os.path.join(cls.tmp.name, "relative.json")
        router = start("train", "--positions", "relative", "--seed", "1", "--dump", "--out", cls.model_path,
                       "--no-timing")
        induction = start("train", "--task", "induction", "--positions", "relative", "--seed", "1", "--steps",
                          "300", "--dump", "--eval-length", "128", "--no-timing")
        router0 = start("train", "--positions", "relative", "--seed", "1", "--steps", "0", "--dump", "--no-timing")
        induction0 = start("train", "--task", "induction", "--positions", "relative", "--seed", "1", "--steps", "0",
                           "--dump", "--no-timing")
        cls.router = finish(router)
        cls.induction = finish(induction)
        cls.router0 = finish(router0)
        cls.induction0 = finish(induction0)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_distance_bias(self, doc, untrained, trained, reachable):
        """layers.{l}.distance_bias is (heads, 32); every bucket of the distances `trained` (rel = j - i) that some
        loss sees moved from its untrained value in every head, and every bucket no distance in `reachable` falls
        in (no gradient ever reaches it) kept its untrained value exactly."""
        c = doc["config"]
        causal = c["causal"]
        moved = sorted(set(ref.relative_bucket(np.asarray(trained), not causal).tolist()))
        kept = sorted(set(range(BUCKETS)) - set(ref.relative_bucket(np.asarray(reachable), not causal).tolist()))
        for layer in range(c["layers"]):
            name = f"layers.{layer}.distance_bias"
            table, table0 = (np.asarray(d["weights"][name]["data"], dtype=np.float64).reshape(
                d["weights"][name]["shape"]) for d in (doc, untrained))
            self.assertEqual(table.shape, (c["heads"], BUCKETS))
            change = np.abs(table - table0)
            print(f"[ reference ] {c['positions']} {name}: {len(moved)} buckets trained, smallest move "
                  f"{change[:, moved].min():.3g}; {len(kept)} out of reach {kept}, largest move "
                  f"{change[:, kept].max():.3g}", file=sys.stderr, flush=True)
            self.assertTrue((change[:, moved] > 1e-5).all(), (name, moved, change))
            self.assertEqual(change[:, kept].max(), 0.0, (name, kept, change))

    def test_router_learns_and_tells_the_pair_apart(self):
        d = self.router
        c = d["config"]
        self.assertEqual((c["positions"], c["steps"], c["causal"], c["heads"], c["layers"]),
                         ("relative", 400, False, 4, 1))
        final = d["final"]
        print(f"[ reference ] relative router: {final}", file=sys.stderr, flush=True)
        self.assertGreaterEqual(final["test_accuracy"], 0.99, final)
        self.assertGreaterEqual(final["flipped_pair_accuracy"], 0.98, final)
        self.assertGreater(final["max_pair_difference"], 0.5, final)
        # relative distances have no table to run past: longer emails are scored
        self.assertIn("test_accuracy", d["longer_emails"], d["longer_emails"])
        # every held-out distance trains its bucket (the training emails come from the same templates); no email
        # is longer than max_len tokens
        longest = max(len(e["tokens"]) for e in d["held_out"])
        self.check_distance_bias(d, self.router0, range(1 - longest, longest), range(1 - c["max_len"], c["max_len"]))

    def test_router_against_numpy(self):
        d = self.router
        c = d["config"]
        names = [head_name(l, h) for l in range(c["layers"]) for h in range(c["heads"])]
        scores, metrics, twins = router_reference(d, [(name,) for name in names])
        self.assertGreater(twins, 0)
        # the held-out test metrics come from every email's probabilities, the role scores from its weights
        keys = ("test_accuracy", "flipped_pair_accuracy", "test_loss")
        self.assertCloseReported("relative router: final test metrics", [d["final"][k] for k in keys],
                                 [metrics[()][k] for k in keys])
        got = [[e["scores"][k] for k in ROUTER_SCORES] for e in d["heads"]]
        self.assertCloseReported("relative router: heads[].scores", got, scores.reshape(-1, len(ROUTER_SCORES)))
        for e, w in zip(d["heads"], scores.reshape(-1, len(ROUTER_SCORES))):
            self.assertEqual(e["role"], role_of(e["scores"]), e)
            mine = dict(zip(ROUTER_SCORES, w))
            if role_margin(mine) > ATOL + RTOL:
                self.assertEqual(e["role"], role_of(mine), (e, mine))
        self.assertEqual([a["off"] for a in d["ablation"]], names)
        self.assertCloseReported("relative router: ablation[] test metrics (zero)",
                                 [[a[k] for k in keys] for a in d["ablation"]],
                                 [[metrics[(a["off"],)][k] for k in keys] for a in d["ablation"]])

    def test_router_model_file_against_numpy(self):
        with open(self.model_path) as f:
            model = json.load(f)
        self.assertEqual(model["config"]["positions"], "relative")
        for name, tensor in self.router["weights"].items():
            self.assertEqual(model["tensors"][name], tensor, name)
        for text, want in zip(self.PAIR, ("cake", "candles")):
            got = cli_test.run_json("router", "--model", self.model_path, "--text", text)
            self.assertEqual(got["positions"], "relative")
            self.assertEqual(got["unknown_tokens"], [])
            probs = router_model_reference(model, got["tokens"])
            self.assertCloseReported(f"relative router --model: probabilities of {text!r}", got["probabilities"],
                                     probs)
            self.assertEqual(model["labels"][int(np.argmax(probs))], want)
            self.assertEqual(got["label"], want, got)
        # a long email: no table to run past, and each bucket moves the logits; compared as log-probabilities
        # (atol only), so the small probabilities count as much as the largest
        got = cli_test.run_json("router", "--model", self.model_path, "--text", self.LONG)
        self.assertEqual((len(got["tokens"]), got["unknown_tokens"]), (191, []))
        probs = router_model_reference(model, got["tokens"])
        self.assertCloseReported("relative router --model: log-probabilities of a 191-token email",
                                 np.log(got["probabilities"]), np.log(probs), rtol=0)

    def test_induction_model_against_numpy(self):
        d = self.induction
        c = d["config"]
        self.assertEqual((c["positions"], c["steps"], c["causal"], c["length"]), ("relative", 300, True, 32))
        want, _ = induction_reference(d)
        self.check_induction_final(d, want)
        self.check_induction_heads(d, want)
        # position length - 1 predicts nothing: its distances get no gradient, and keys after the query none either
        self.check_distance_bias(d, self.induction0, range(2 - c["length"], 1), range(2 - c["length"], 1))
        final = d["final"]
        print(f"[ reference ] relative induction: losses {final['loss_first_half']:.4g} and "
              f"{final['loss_second_half']:.4g}; previous_token {np.round(final['previous_token'], 3).tolist()}; "
              f"induction {np.round(final['induction'], 3).tolist()}", file=sys.stderr, flush=True)

    def test_induction_model_at_four_times_the_length(self):
        # length 128: causal distances up to 127, every bucket (at length 32: 0 .. 21)
        d = self.induction
        self.assertEqual([e["length"] for e in d["eval_length"]], [128])
        e = d["eval_length"][0]
        self.assertEqual(np.asarray(e["held_out"]).shape, (64, 128))
        want, _ = induction_reference(dict(d, held_out=e["held_out"]))
        self.assertCloseReported("relative at 128: losses", [e["loss_first_half"], e["loss_second_half"]],
                                 [want["loss_first_half"], want["loss_second_half"]])
        self.assertCloseReported("relative at 128: previous_token", e["previous_token"], want["previous_token"])
        self.assertCloseReported("relative at 128: induction", e["induction"], want["induction"])


if __name__ == "__main__":
    unittest.main(verbosity=1)
