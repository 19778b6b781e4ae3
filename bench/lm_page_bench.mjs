// A pretrained model of GPT-2 small's shape in the page against attention_cli lm, side by side: a random
// llama2.c checkpoint with 12 layers of 12 heads, d_model 768, feed-forward 2,048, vocabulary 32,000 (about
// 440 MB, written by tests/lm_reference.py) and a tokenizer.bin, picked in the Real model scene's file input.
// Measured in headless Chromium: the time until the compute worker has opened it and its wasm memory then,
// the longest main-thread task meanwhile; every head's grids on a 128-token text; each generated token (8
// more, continuing the kept forward with its key/value cache: the worker's time over 8, and the wall time
// from the request to the answer drawn; then "Next token" once); and the same commands' wall times in the
// CLI. ATTN_BENCH_FORMAT=llama-folder: the same shape as a Hugging Face Llama folder instead (config.json,
// F32 weights in two .safetensors shards with their index, a tokenizer.json), so the page also fetches the
// readers' deferred module (its load time is printed).
// Usage (dist/ served): ATTENTION_DEMO_URL=... node bench/lm_page_bench.mjs
// ATTN_BENCH_QUICK=1: a 2-layer model of width 128 (the plumbing).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openDemo, api } from '../tests/browser/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.env.ATTN_BENCH_QUICK === '1';
const shape = quick ? { dim: 128, hidden: 256, layers: 2, heads: 4, vocab: 4000 }
  : { dim: 768, hidden: 2048, layers: 12, heads: 12, vocab: 32000 };
const cli = path.join(root, process.env.ATTN_NATIVE_BUILD_DIR || 'build/native', 'attention_cli');
if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with cmake --build --preset native`);
const folder = process.env.ATTN_BENCH_FORMAT === 'llama-folder';
const dir = mkdtempSync(path.join(tmpdir(), 'attention-lm-bench-'));
const model = path.join(dir, 'model.bin'), tokenizer = path.join(dir, 'tokenizer.bin');

// the checkpoint and a tokenizer whose letters are single pieces: 127 letters are 128 ids with BOS
const writer = `
import sys, numpy as np, lm_reference as ref
d, hid, L, H, V = ${shape.dim}, ${shape.hidden}, ${shape.layers}, ${shape.heads}, ${shape.vocab}
m = ref.random_model(np.random.default_rng(1), dim=d, hidden=hid, layers=L, heads=H, kv_heads=H, vocab=V,
                     seq_len=1024, shared=True)
open(sys.argv[1], "wb").write(ref.write_legacy(m))
pieces = [b"<unk>", b"<s>", b"</s>"] + [b"<0x%02X>" % i for i in range(256)] + [b" "]
pieces += [bytes([c]) for c in range(97, 123)] + [b" " + bytes([c]) for c in range(97, 123)]
pieces += [b"<t%d>" % i for i in range(V - len(pieces))]
open(sys.argv[2], "wb").write(ref.write_tokenizer(pieces, [0.0] * 259 + [1.0] * (V - 259)))
`;
// the folder: the same shapes (no shared key/value heads, tied output layer), F32 in two shards, and a
// byte-level BPE whose letters and " " are single tokens (vocab.json's order: a-z, "Ġ", then fillers)
const folderWriter = `
import json, os, sys, numpy as np, lm_reference as ref
d, hid, L, H, V = ${shape.dim}, ${shape.hidden}, ${shape.layers}, ${shape.heads}, ${shape.vocab}
config, _, t = ref.hf_llama(np.random.default_rng(1), d, hid, L, H, H, V, True, "F32", 10000.0)
config["max_position_embeddings"] = 1024
names = sorted(t)
shards = {"model-00001-of-00002.safetensors": names[:len(names) // 2],
          "model-00002-of-00002.safetensors": names[len(names) // 2:]}
for file, part in shards.items():
    raw, _ = ref.write_safetensors({n: t[n] for n in part}, {n: "F32" for n in part})
    open(os.path.join(sys.argv[1], file), "wb").write(raw)
vocab = [chr(c) for c in range(97, 123)] + ["\u0120"]
vocab = {w: i for i, w in enumerate(vocab + ["x%d" % i for i in range(V - len(vocab))])}
tok = {"version": "1.0", "added_tokens": [], "normalizer": None,
       "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
       "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                 "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "vocab": vocab, "merges": []}}
index = {"metadata": {}, "weight_map": {n: f for f, part in shards.items() for n in part}}
for name, value in {"config.json": config, "model.safetensors.index.json": index, "tokenizer.json": tok}.items():
    json.dump(value, open(os.path.join(sys.argv[1], name), "w"))
`;
let r = folder
  ? spawnSync('/usr/bin/python3', ['-c', folderWriter, dir], { cwd: path.join(root, 'tests'), encoding: 'utf8' })
  : spawnSync('/usr/bin/python3', ['-c', writer, model, tokenizer], { cwd: path.join(root, 'tests'), encoding: 'utf8' });
if (r.status !== 0) throw new Error(r.stderr);
const files = readdirSync(dir).map((f) => path.join(dir, f));
const weights = files.filter((f) => /\.(bin|safetensors)$/.test(f) && !/tokenizer\.bin$/.test(f));
const mb = weights.reduce((sum, f) => sum + statSync(f).size, 0) / 1e6;
const modelArgs = folder ? ['--model', dir] : ['--model', model, '--tokenizer', tokenizer];
const text = Array.from({ length: 127 }, (_, i) => String.fromCharCode(97 + (i * 7) % 26)).join('');
const text2 = Array.from({ length: 127 }, (_, i) => String.fromCharCode(97 + (i * 11) % 26)).join('');

function cliSeconds(extra) {
  const t0 = performance.now();
  const out = spawnSync(cli, ['lm', ...modelArgs, '--text', text, ...extra],
                        { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(out.stderr);
  return { seconds: (performance.now() - t0) / 1000, ids: JSON.parse(out.stdout).ids.length };
}

async function answer(page, timeout = 600000) {
  await page.waitForFunction(() => {
    window.attentionDemo.requestFrames(1);
    const s = window.attentionDemo.state().shown;
    return s.model && s.ids && !s.waiting;
  }, null, { timeout, polling: 200 });
  return api(page, 'state');
}

const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
try {
  await openDemo(page, 'scene=lm&hide=grids,enlarged,heads&text=' + text);
  await page.waitForFunction(() => window.Module.attentionWorker, null, { timeout: 30000 });
  await page.evaluate(() => {
    window.benchLong = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.benchLong.push(e.duration); })
      .observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await page.setInputFiles('#checkpoint-files', files);
  let s = await answer(page);
  const firstAnswer = (Date.now() - t0) / 1000;
  const opened = s.shown.model;
  const longest = await page.evaluate(() => Math.max(0, ...window.benchLong));
  // another 128-token text: the worker's time for its forward with every head's grid (the first answer
  // may be a later one that only continued the kept forward)
  const firstIds = s.shown.ids.join(',');
  await page.evaluate((t) => window.attentionDemo.set({ text: t }), text2);
  await page.waitForFunction((old) => {
    const now = window.attentionDemo.state().shown;
    return now.ids && now.ids.join(',') !== old && !now.waiting;
  }, firstIds, { timeout: 600000, polling: 50 });
  s = await api(page, 'state');
  const grids = s.shown.seconds;
  // n more tokens: the worker's seconds for them and the wall seconds until they are shown
  const more = async (n) => {
    const before = s.shown.ids.length, w0 = Date.now();
    await page.evaluate((g) => window.attentionDemo.set({ generate: g }), before - s.shown.prompt_length + n);
    await page.waitForFunction((want) => window.attentionDemo.state().shown.ids?.length === want &&
      !window.attentionDemo.state().shown.waiting, before + n, { timeout: 600000, polling: 5 });
    const wall = (Date.now() - w0) / 1000;
    s = await api(page, 'state');
    return { worker: s.shown.seconds, wall };
  };
  const eight = await more(8), one = await more(1);
  const perToken = eight.worker / 8;

  // the CLI: the faster of two runs each (the file's read varies more than 32 tokens take)
  const best = (extra) => [cliSeconds(extra), cliSeconds(extra)].sort((a, b) => a.seconds - b.seconds)[0];
  const c0 = best(['--attention']), c32 = best(['--generate', '32']), c00 = best([]);
  const deferred = await page.evaluate(() => window.attentionDemo.timing.deferred_ms);
  console.log(`a random ${folder ? 'Hugging Face Llama folder (F32, two shards)' : 'llama2.c checkpoint'}: ` +
              `${shape.layers} layers x ${shape.heads} heads, d_model ${shape.dim}, ` +
              `feed-forward ${shape.hidden}, vocabulary ${shape.vocab}: ${mb.toFixed(0)} MB, ` +
              `${(opened.parameters / 1e6).toFixed(1)}M parameters`);
  console.log(`page (compute worker, headless Chromium)`);
  console.log(`  opened in ${opened.seconds.toFixed(2)} s in the worker (${firstAnswer.toFixed(2)} s from the pick ` +
              `to the first answer); wasm memory then ${(opened.memory / 1e6).toFixed(0)} MB = ` +
              `${(opened.memory / (mb * 1e6)).toFixed(2)}x the weights; longest main-thread task ${longest.toFixed(0)} ms; ` +
              `the readers' deferred module loaded in ${deferred.toFixed(0)} ms`);
  console.log(`  ${s.shown.prompt_length} tokens, every head's grid: ${(grids * 1000).toFixed(0)} ms; ` +
              `each generated token (key/value cache): ${(perToken * 1000).toFixed(0)} ms in the worker ` +
              `(8 more: ${(eight.wall * 1000).toFixed(0)} ms from the request to the answer shown; ` +
              `"Next token": ${(one.worker * 1000).toFixed(0)} ms in the worker, ${(one.wall * 1000).toFixed(0)} ms shown)`);
  console.log(`attention_cli lm (native, wall, reading the file included)`);
  console.log(`  ${c0.ids} tokens with --attention: ${c0.seconds.toFixed(2)} s; without: ${c00.seconds.toFixed(2)} s; ` +
              `each generated token: ${((c32.seconds - c00.seconds) / 32 * 1000).toFixed(0)} ms (32 tokens, less the run without)`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
