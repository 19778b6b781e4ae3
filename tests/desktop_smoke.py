"""Smoke test of the desktop app under Xvfb: each scene runs N frames, saves a screenshot, reports its state."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

APP = os.environ.get("ATTENTION_DEMO", "build/native/attention_demo")


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA, non-interlaced PNG (what the app writes) -> (width, height, rows of bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            pred = [0, a, b, (a + b) // 2, (a if abs(b - c) <= abs(a - c) and abs(a + b - 2 * c) >= abs(b - c) else 0)][kind]
            if kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def run_app(query, tmp):
    shot, state = os.path.join(tmp, "shot.png"), os.path.join(tmp, "state.json")
    p = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", APP, "--url", query, "--frames", "6",
                        "--screenshot", shot, "--state", state], capture_output=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"{query}: exit {p.returncode}\n{p.stderr.decode()}")
    with open(state) as f:
        return shot, json.load(f)


class DesktopSmoke(unittest.TestCase):
    def test_every_scene_renders(self):
        for scene in ("clock", "positions", "word", "mha", "order", "schemes", "encoder", "train", "lm", "exercises"):
            with self.subTest(scene=scene), tempfile.TemporaryDirectory() as tmp:
                shot, state = run_app(f"?scene={scene}", tmp)
                self.assertEqual(state["scene"], scene)
                self.assertEqual(state["error"], "")
                w, h, ch, rows = png_pixels(shot)
                self.assertGreaterEqual((w, h), (640, 400))
                colours = {rows[y][x * ch:x * ch + 3] for y in range(0, h, 7) for x in range(0, w, 7)}
                self.assertGreater(len(colours), 20, "the screenshot looks blank")

    def test_real_model_opens_llama2c_and_hugging_face_checkpoints(self):
        """checkpoint= on the desktop: a llama2.c .bin with its tokenizer.bin, and a Hugging Face GPT-2 folder
        (which the page refuses), answered in the app's thread as attention_cli lm answers."""
        cli = os.path.join(os.path.dirname(APP), "attention_cli")
        with tempfile.TemporaryDirectory() as tmp:
            writer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "browser", "write_lm_files.py")
            subprocess.run(["/usr/bin/python3", writer, tmp], check=True)
            model, tok, gpt2 = (os.path.join(tmp, n) for n in ("tiny-stories.bin", "tokenizer.bin", "gpt2"))
            _, state = run_app(f"?scene=lm&text=the%20cat&generate=2&checkpoint={model},{tok}", tmp)
            want = json.loads(subprocess.run([cli, "lm", "--model", model, "--tokenizer", tok, "--text", "the cat",
                                              "--generate", "2"], capture_output=True, check=True).stdout)
            self.assertEqual(state["error"], "")
            self.assertEqual(state["shown"]["ids"], want["ids"])
            self.assertEqual([n["id"] for n in state["shown"]["next"]], [n["id"] for n in want["next"]])
            self.assertEqual(len(state["shown"]["roles"]), 12)
            _, state = run_app(f"?scene=lm&checkpoint={gpt2}/config.json,{gpt2}/model.safetensors", tmp)
            self.assertEqual(state["shown"]["model"]["format"], "gpt2")
            self.assertEqual(state["shown"]["open_error"], "")

    def test_clock_shows_the_lesson_readings(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, state = run_app("?scene=clock&d_model=4&pos=44&pos2=3", tmp)
        self.assertEqual([round(v, 3) for v in state["shown"]["readings"]], [0.018, 1.0, 0.426, 0.905])
        self.assertEqual([round(v, 3) for v in state["shown"]["readings2"]], [0.141, -0.99, 0.03, 1.0])

    def test_train_scene_trains_to_the_target(self):
        with tempfile.TemporaryDirectory() as tmp:
            shot = os.path.join(tmp, "shot.png")
            state_path = os.path.join(tmp, "state.json")
            p = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", APP, "--url",
                                "?scene=train&train=run", "--frames", "600", "--screenshot", shot, "--state",
                                state_path], capture_output=True, timeout=180)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            with open(state_path) as f:
                shown = json.load(f)["shown"]
        self.assertTrue(shown["target_reached"], shown)
        self.assertGreaterEqual(shown["metrics"]["test_accuracy"], 0.99)
        self.assertEqual(shown["pair"][0]["label"], shown["pair"][0]["expected"])
        self.assertEqual(shown["pair"][1]["label"], shown["pair"][1]["expected"])

    def test_unreadable_model_file_exits_1(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "model.json")
            with open(bad, "w") as f:
                f.write('{"format": "something else"}')
            for path in (bad, os.path.join(tmp, "missing.json")):
                p = subprocess.run([APP, "--model", path, "--frames", "1"], capture_output=True, timeout=60)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("--model", p.stderr.decode())

    def test_bad_flag_exits_2(self):
        p = subprocess.run([APP, "--frames", "abc"], capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertTrue(p.stderr.decode().startswith("error:"), p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
