"""attention_cli lm against float64 numpy references (lm_reference.py): small llama2.c checkpoints written
here (legacy and version 1, tied and separate output layers, shared key/value heads, odd sizes), their
next-token probabilities, attention, greedy generation, heads switched off, the tokenizer's ids on hard texts,
and wrong, truncated and hostile files refused in words."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import cli_test
import lm_reference as ref

ATOL, RTOL = 2e-4, 1e-3  # float32 against float64


def vocabulary():
    """<unk>, <s>, </s>, the 256 byte pieces, then characters and merges (scores: longer merges first)."""
    pieces = [b"<unk>", b"<s>", b"</s>"] + [b"<0x%02X>" % i for i in range(256)]
    words = [" ", "a", "c", "e", "h", "t", "n", "o", "r", "d", "f", "u", "l", ",", ".", "é", "t", " t", "th", "he",
             " the", "the", "ca", "cat", " cat", "re", "ref", "fund", "und", " refund", "un", "nd", "é!"]
    scores = [0.0, 0.0, 0.0] + [0.0] * 256
    for w in words:
        b = w.encode("utf-8")
        if b in pieces:
            continue
        pieces.append(b)
        scores.append(float(len(b)) + 0.01 * len(pieces) % 0.5)
    return pieces, scores


def run_lm(*args):
    p = subprocess.run([cli_test.CLI, "lm", *args], capture_output=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"lm {args} exited {p.returncode}: {p.stderr.decode()}")
    return json.loads(p.stdout)


class Lm(unittest.TestCase, cli_test.CloseMixin):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        rng = np.random.default_rng(5)
        cls.pieces, cls.scores = vocabulary()
        vocab = len(cls.pieces)
        # legacy, tied output layer, 4 heads sharing 2 key/value heads; version 1, its own output layer, 1 kv head
        cls.models = {
            "legacy": ref.random_model(rng, dim=24, hidden=37, layers=2, heads=4, kv_heads=2, vocab=vocab,
                                       seq_len=48, shared=True),
            "v1": ref.random_model(rng, dim=16, hidden=23, layers=3, heads=2, kv_heads=1, vocab=vocab, seq_len=40,
                                   shared=False),
        }
        cls.paths = {}
        for name, m in cls.models.items():
            path = os.path.join(cls.dir.name, name + ".bin")
            with open(path, "wb") as f:
                f.write(ref.write_legacy(m) if name == "legacy" else ref.write_v1(m))
            cls.paths[name] = path
        cls.tokenizer = os.path.join(cls.dir.name, "tokenizer.bin")
        with open(cls.tokenizer, "wb") as f:
            f.write(ref.write_tokenizer(cls.pieces, cls.scores))

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def assertCloseReported(self, what, got, want):
        got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
        self.assertEqual(got.shape, want.shape, what)
        diff = np.abs(got - want).max() if got.size else 0.0
        print(f"[ reference ] {what}: largest difference {diff:.3g} (atol {ATOL:g}, rtol {RTOL:g})",
              file=sys.stderr, flush=True)
        self.assertClose(got, want, ATOL, RTOL)

    def check_next(self, name, got, ids, off=()):
        logits, weights = ref.forward(self.models[name], np.asarray(ids), off)
        p = ref.softmax(logits[-1])
        order = np.argsort(-p, kind="stable")[:10]
        self.assertCloseReported(f"{name}: next-token probabilities", [e["p"] for e in got["next"]], p[order])
        # the ids: the reference's order wherever its neighbours are not within float noise of each other
        for e, want in zip(got["next"], order):
            if abs(e["p"] - p[want]) > 1e-5:
                self.fail(f"{name}: next id {e['id']} (p {e['p']}) where the reference has {want} (p {p[want]})")
        return weights

    def test_next_tokens_and_attention(self):
        for name in self.models:
            ids = [1, 290, 7, 45, 280, 12, 3, 260]
            got = run_lm("--model", self.paths[name], "--ids", ",".join(map(str, ids)), "--attention")
            m = self.models[name]
            self.assertEqual(got["format"], "llama2c")
            self.assertEqual(got["config"], {"d_model": m["dim"], "heads": m["heads"], "kv_heads": m["kv_heads"],
                                             "layers": m["layers"], "vocab": m["vocab"], "max_len": m["seq_len"],
                                             "d_ff": m["hidden"], "tied": m["shared"]})
            self.assertEqual(got["ids"], ids)
            weights = self.check_next(name, got, ids)
            self.assertCloseReported(f"{name}: attention [layer][head][T][T]", got["attention"], weights)

    def test_greedy_generation(self):
        for name in self.models:
            got = run_lm("--model", self.paths[name], "--ids", "1,270", "--generate", "6")
            ids = [1, 270]
            for _ in range(6):  # each step the argmax of the last position, as long as it is clear
                logits, _ = ref.forward(self.models[name], np.asarray(ids))
                top2 = np.sort(logits[-1])[-2:]
                self.assertGreater(top2[1] - top2[0], 1e-3, "the reference's choice is clear")
                ids.append(int(np.argmax(logits[-1])))
            self.assertEqual(got["ids"], ids, name)
            self.check_next(name, got, ids)

    def test_role_scores_on_a_repeated_segment(self):
        for name in self.models:
            got = run_lm("--model", self.paths[name], "--ids", "1", "--roles", "--seed", "4")["roles"]
            m = self.models[name]
            segment = min(32, m["seq_len"] // 2)
            self.assertEqual(got["segment"], segment)
            ids = got["ids"]
            self.assertEqual(ids[:segment], ids[segment:], "the segment, then the same again")
            self.assertTrue(all(3 <= i < m["vocab"] for i in ids))
            _, weights = ref.forward(m, np.asarray(ids))
            want = ref.role_scores(weights, segment)
            self.assertEqual([(h["layer"], h["head"]) for h in got["heads"]],
                             [(l, h) for l in range(m["layers"]) for h in range(m["heads"])])
            keys = ["previous_token", "induction", "first_token"]
            self.assertCloseReported(f"{name}: role scores", [[h["scores"][k] for k in keys] for h in got["heads"]],
                                     [[w[k] for k in keys] for w in want])
            for h, w in zip(got["heads"], want):  # the rule: the largest score, >= 0.5 and >= 2x the next
                top, second = sorted(w.values(), reverse=True)[:2]
                if min(abs(top - 0.5), abs(top - 2 * second)) > 1e-3:
                    named = max(w, key=w.get) if top >= 0.5 and top >= 2 * second else "mixed"
                    self.assertEqual(h["role"], named)

    def test_heads_switched_off(self):
        ids = [1, 262, 280, 5, 9]
        got = run_lm("--model", self.paths["legacy"], "--ids", ",".join(map(str, ids)), "--off", "0.1,1.3")
        self.assertEqual(got["off"], ["0.1", "1.3"])
        self.check_next("legacy", got, ids, off=("0.1", "1.3"))

    def test_tokenizer_on_hard_texts(self):
        texts = ["the cat", "refund the cat, the cat.", "é!", "Zoë ☕ 😀\n\tend", "  two  spaces", "a" * 30,
                 "thethethe", "1234567"]
        for text in texts:
            got = run_lm("--model", self.paths["legacy"], "--tokenizer", self.tokenizer, "--text", text)
            want = ref.encode(self.pieces, self.scores, text)
            with self.subTest(text=text):
                self.assertEqual(got["ids"][:got["prompt_length"]], want)
                self.assertEqual(got["text"], text, "the pieces put back together")
                self.check_next("legacy", got, want)

    def test_bad_files_are_refused_in_words(self):
        good = ref.write_legacy(self.models["legacy"])
        v1 = ref.write_v1(self.models["v1"])
        nan = bytearray(good)
        nan[28 + 4 * 5:28 + 4 * 6] = struct.pack("<f", float("nan"))
        cases = {
            "truncated": (good[:-100], "ends before"),
            "longer": (good + b"\0" * 8, "bytes after its last weight"),
            "nan": (bytes(nan), "NaN"),
            "absurd": (struct.pack("<7i", 1 << 30, 8, 2, 2, 2, 300, 16) + good[28:], "dim"),
            "heads": (struct.pack("<7i", 24, 37, 2, 5, 5, 300, 48) + good[28:], "divisible"),
            "version2": (v1[:4] + struct.pack("<i", 2) + v1[8:], "version-2"),
            "empty": (b"", "ends before"),
        }
        for name, (data, message) in cases.items():
            path = os.path.join(self.dir.name, f"bad-{name}.bin")
            with open(path, "wb") as f:
                f.write(data)
            p = subprocess.run([cli_test.CLI, "lm", "--model", path, "--ids", "1,2"], capture_output=True, timeout=60)
            with self.subTest(file=name):
                self.assertEqual(p.returncode, 2, p.stderr.decode())
                self.assertTrue(p.stderr.decode().startswith("error: "), p.stderr.decode())
                self.assertIn(message, p.stderr.decode())
        for args, message in [(["--ids", "1,99999"], "outside the vocabulary"), (["--text", "hi"], "--tokenizer"),
                              (["--ids", "1", "--text", "x"], "one of the two"), (["--ids", ""], "")]:
            p = subprocess.run([cli_test.CLI, "lm", "--model", self.paths["legacy"], *args], capture_output=True,
                               timeout=60)
            with self.subTest(args=args):
                self.assertEqual(p.returncode, 2, p.stderr.decode())
                self.assertIn(message, p.stderr.decode())



def check_against(test, what, got, logits, weights):
    """lm's top 10 and attention against the reference's logits (T, V) and weights [layer][head] (T, T)."""
    p = ref.softmax(logits[-1])
    order = np.argsort(-p, kind="stable")[:10]
    for part, g, w in [("next-token probabilities", [e["p"] for e in got["next"]], p[order]),
                       ("attention", got["attention"], weights)]:
        g, w = np.asarray(g, dtype=np.float64), np.asarray(w, dtype=np.float64)
        print(f"[ reference ] {what}: {part}: largest difference {np.abs(g - w).max():.3g}", file=sys.stderr,
              flush=True)
        test.assertClose(g, w, ATOL, RTOL)
    test.assertEqual([e["id"] for e in got["next"]][:3], [int(i) for i in order[:3]])


def write_folder(root, name, config, raw, stored):
    """A Hugging Face folder `name` under root: config.json and model.safetensors. -> (folder, config, stored)"""
    folder = os.path.join(root, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(raw)
    return folder, config, stored


class HfLlama(unittest.TestCase, cli_test.CloseMixin):
    """Llama folders written here: F32 with a tied output layer, F16 and BF16 with lm_head, shared key/value
    heads, rope_theta 10000 and 100000, against transformers' forward with RoPE's halves layout."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        rng = np.random.default_rng(11)
        specs = {"f32_tied": (24, 40, 2, 4, 2, 50, True, "F32", 10000.0),
                 "f16": (16, 20, 2, 2, 1, 40, False, "F16", 100000.0),
                 "bf16": (32, 36, 1, 4, 4, 30, False, "BF16", 10000.0)}
        cls.models = {name: write_folder(cls.dir.name, name, *ref.hf_llama(rng, *spec)) for name, spec in specs.items()}

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_against_transformers_forward(self):
        for name, (folder, config, stored) in self.models.items():
            ids = [1, 5, 9, 2, 17, 3, 8, 11, 4]
            got = run_lm("--model", folder, "--ids", ",".join(map(str, ids)), "--attention", "--off", "0.1")
            logits, weights = ref.hf_llama_forward(config, stored, np.asarray(ids), off=("0.1",))
            with self.subTest(model=name):
                self.assertEqual(got["format"], "llama")
                self.assertEqual(got["config"]["kv_heads"], config["num_key_value_heads"])
                self.assertEqual(got["config"]["tied"], config["tie_word_embeddings"])
                check_against(self, f"llama {name}", got, logits, weights)

    def test_bad_folders_are_refused_in_words(self):
        folder, config, _ = self.models["f16"]
        with open(os.path.join(folder, "model.safetensors"), "rb") as f:
            raw = f.read()
        n = struct.unpack("<Q", raw[:8])[0]
        header = json.loads(raw[8:8 + n])
        bad_dtype = dict(header)
        first = next(k for k in header if k != "__metadata__")
        bad_dtype[first] = dict(header[first], dtype="I8")
        cases = {
            "truncated": (config, raw[:-64], "past the end"),
            "dtype": (config, struct.pack("<Q", len(json.dumps(bad_dtype))) + json.dumps(bad_dtype).encode()
                      + raw[8 + n:], "dtype 'I8'"),
            "missing": ({**config, "num_hidden_layers": 3}, raw, "no tensor 'model.layers.2."),
            "type": ({**config, "model_type": "bert"}, raw, "model_type is 'bert'"),
            "shape": ({**config, "intermediate_size": 21}, raw, "the config needs"),
            "header": (config, struct.pack("<Q", 1 << 40) + raw[8:], "header says"),
        }
        for case, (cfg, data, message) in cases.items():
            bad, _, _ = write_folder(self.dir.name, "bad-" + case, cfg, data, None)
            p = subprocess.run([cli_test.CLI, "lm", "--model", bad, "--ids", "1,2"], capture_output=True, timeout=60)
            with self.subTest(case=case):
                self.assertEqual(p.returncode, 2, p.stderr.decode())
                self.assertIn(message, p.stderr.decode())


class HfShards(unittest.TestCase, cli_test.CloseMixin):
    """A Llama folder whose tensors are split over two shards named by model.safetensors.index.json, beside
    files the reader passes over (PyTorch weights, generation_config.json, README.md): the same forward as
    the reference's; a shard the index names that is not there, and a tensor in two shards, are refused."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        rng = np.random.default_rng(17)
        cls.config, _, stored = ref.hf_llama(rng, 16, 24, 2, 4, 2, 30, False, "F16", 10000.0)
        names = sorted(stored)
        cls.parts = {"model-00001-of-00002.safetensors": names[:len(names) // 2],
                     "model-00002-of-00002.safetensors": names[len(names) // 2:]}
        cls.stored = {}
        cls.folder = os.path.join(cls.dir.name, "sharded")
        os.makedirs(cls.folder)
        for file, part in cls.parts.items():
            raw, got = ref.write_safetensors({n: stored[n] for n in part}, {n: "F16" for n in part})
            cls.stored.update(got)
            with open(os.path.join(cls.folder, file), "wb") as f:
                f.write(raw)
        cls.index = {"metadata": {"total_size": 0},
                     "weight_map": {n: file for file, part in cls.parts.items() for n in part}}
        files = {"config.json": json.dumps(cls.config), "model.safetensors.index.json": json.dumps(cls.index),
                 "generation_config.json": "{}", "README.md": "# a model card", "pytorch_model.bin": "not read"}
        for name, text in files.items():
            with open(os.path.join(cls.folder, name), "w") as f:
                f.write(text)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_shards_read_as_one_model(self):
        ids = [1, 5, 9, 2, 17, 3, 8]
        got = run_lm("--model", self.folder, "--ids", ",".join(map(str, ids)), "--attention")
        logits, weights = ref.hf_llama_forward(self.config, self.stored, np.asarray(ids))
        self.assertEqual(got["format"], "llama")
        check_against(self, "llama in two shards", got, logits, weights)

    def test_missing_and_doubled_shards_are_refused_in_words(self):
        first, second = sorted(self.parts)
        with open(os.path.join(self.folder, first), "rb") as f:
            raw_first = f.read()
        cases = {"missing": ({first: raw_first}, self.index, f"'{second}' is missing"),
                 "doubled": ({first: raw_first, "extra.safetensors": raw_first}, None, "is in two files")}
        for case, (shards, index, message) in cases.items():
            bad = os.path.join(self.dir.name, "bad-" + case)
            os.makedirs(bad)
            with open(os.path.join(bad, "config.json"), "w") as f:
                json.dump(self.config, f)
            if index:
                with open(os.path.join(bad, "model.safetensors.index.json"), "w") as f:
                    json.dump(index, f)
            for name, raw in shards.items():
                with open(os.path.join(bad, name), "wb") as f:
                    f.write(raw)
            p = subprocess.run([cli_test.CLI, "lm", "--model", bad, "--ids", "1,2"], capture_output=True, timeout=60)
            with self.subTest(case=case):
                self.assertEqual(p.returncode, 2, p.stderr.decode())
                self.assertIn(message, p.stderr.decode())


class HfGpt2(unittest.TestCase, cli_test.CloseMixin):
    """GPT-2 folders written here (F32 with the "transformer." prefix, F16 without, n_inner given or 4D),
    against GPT2LMHeadModel's forward in numpy; the learned table's last slot is a hard limit."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        rng = np.random.default_rng(13)
        specs = {"f32": (24, 2, 4, 40, 12, 96, "F32", "transformer."), "f16": (16, 3, 2, 30, 10, 20, "F16", "")}
        cls.models = {name: write_folder(cls.dir.name, name, *ref.hf_gpt2(rng, *spec)) for name, spec in specs.items()}

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_against_gpt2_forward(self):
        for name, (folder, config, stored) in self.models.items():
            ids = [3, 7, 1, 0, 9, 12, 5, 2, 8][:config["n_positions"]]
            got = run_lm("--model", folder, "--ids", ",".join(map(str, ids)), "--attention", "--off", "1.1")
            logits, weights = ref.gpt2_forward(config, stored, np.asarray(ids), off=("1.1",))
            with self.subTest(model=name):
                self.assertEqual(got["format"], "gpt2")
                self.assertEqual(got["config"]["max_len"], config["n_positions"])
                check_against(self, f"gpt2 {name}", got, logits, weights)

    def test_text_through_the_folders_byte_level_bpe(self):
        """A folder with GPT-2's vocab.json and merges.txt takes --text: the ids are `tokenize`'s, the forward
        is the --ids one's, and the pieces and text come back through the byte-level alphabet."""
        folder, config, stored = self.models["f32"]
        # 40 ids: the letters of the text, "Ġ" (a space, in GPT-2's byte alphabet) and the merges' joins
        letters = ["h", "e", "l", "o", "w", "r", "d", "\u0120", "c", "a", "t"]
        joins = [("h", "e"), ("l", "l"), ("he", "ll"), ("\u0120", "w"), ("o", "r"), ("\u0120w", "or"), ("c", "a")]
        vocab = letters + [a + b for a, b in joins]
        vocab += [f"x{i}" for i in range(config["vocab_size"] - len(vocab))]
        with open(os.path.join(folder, "vocab.json"), "w") as f:
            json.dump({t: i for i, t in enumerate(vocab)}, f)
        with open(os.path.join(folder, "merges.txt"), "w") as f:
            f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in joins))
        try:
            text = "hello world cat"
            got = run_lm("--model", folder, "--text", text, "--attention")
            want_ids = json.loads(subprocess.run([cli_test.CLI, "tokenize", "--tokenizer", folder, "--text", text],
                                                 capture_output=True, check=True).stdout)["ids"]
            self.assertEqual(got["ids"], want_ids)
            self.assertEqual(got["ids"][:2], [vocab.index("hell"), vocab.index("o")])
            self.assertEqual(got["text"], text)
            self.assertEqual("".join(got["pieces"]), text)
            logits, weights = ref.gpt2_forward(config, stored, np.asarray(want_ids))
            check_against(self, "gpt2 with text", got, logits, weights)
        finally:
            os.remove(os.path.join(folder, "vocab.json"))
            os.remove(os.path.join(folder, "merges.txt"))

    def test_no_vector_past_the_last_slot(self):
        folder, config, _ = self.models["f16"]
        slots = config["n_positions"]
        p = subprocess.run([cli_test.CLI, "lm", "--model", folder, "--ids", ",".join(["1"] * (slots + 1))],
                           capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn(f"position {slots} is past the end of the learned table: it has {slots} slots",
                      p.stderr.decode())
        run_lm("--model", folder, "--ids", ",".join(["1"] * slots))  # the last slot itself is read

if __name__ == "__main__":
    unittest.main()
