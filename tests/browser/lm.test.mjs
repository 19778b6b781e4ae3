// The Real model scene end to end: a llama2.c checkpoint and tokenizer (written by write_lm_files.py) picked
// in the file input open in the compute worker, and everything the scene shows is what attention_cli lm
// computes on the same files: the text's ids and pieces, the next token's top 10, every head's weights (and
// the grids' pixels), heads switched off, greedy generation and the heads' role scores; files named by a
// checkpoint= link open the same way, and so do Hugging Face folders (GPT-2 by its path, Llama's BF16 shards
// picked), and GPT-2's learned table shows in the Position table scene; a missing shard and a truncated
// file are refused in place and the page keeps working. The
// readers' code (the deferred module) is loaded by the worker, never by the page's thread.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openDemo, setAndWait, withCleanPage, api, cli, assertAllClose,
  assertStillRuns } from './harness.mjs';
import { assertHeatmapPixels } from './sampled_pixels.mjs';

let browser, dir;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'attention-lm-'));
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'write_lm_files.py');
  const r = spawnSync('/usr/bin/python3', [script, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  browser = await launchBrowser();
});
after(async () => {
  if (browser) await browser.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const TEXT = 'the cat sat on the mat';
const TOL = { atol: 2e-5, rtol: 1e-4 };  // wasm against native float32

// Frames until the scene shows the answer to the current settings (not one still being computed).
async function answered(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const demo = window.attentionDemo;
    demo.requestFrames(1);
    const s = demo.state();
    return s.shown.model && !s.shown.waiting && (s.shown.ids || s.error) && s.shown.roles?.length;
  }, null, { timeout, polling: 100 });
  return api(page, 'state');
}

function lmCli(extra) {
  return cli(['lm', '--model', path.join(dir, 'tiny-stories.bin'), '--tokenizer', path.join(dir, 'tokenizer.bin'),
              ...extra]);
}

function assertNext(got, want, what) {
  assert.deepEqual(got.map((n) => n.id), want.map((n) => n.id), `${what}: the top 10's ids`);
  assert.deepEqual(got.map((n) => n.piece), want.map((n) => n.piece), `${what}: the top 10's pieces`);
  assertAllClose(got.map((n) => n.p), want.map((n) => n.p), `${what}: the top 10's probabilities`, TOL);
}

test('lm: picked llama2.c files open in the worker; ids, top 10, every head, heads off, generation and roles are the CLI\'s',
  async () => {
    await withCleanPage(browser, { viewport: { width: 1280, height: 2600 } }, async (page) => {
      await openDemo(page, 'scene=lm&text=' + encodeURIComponent(TEXT));
      await page.waitForFunction(() => window.Module && window.Module.attentionWorker, null, { timeout: 30000 });
      await page.setInputFiles('#checkpoint-files', [path.join(dir, 'tiny-stories.bin'), path.join(dir, 'tokenizer.bin')]);
      let s = await answered(page);
      assert.equal(s.error, '');
      const m = s.shown.model;
      assert.deepEqual([m.format, m.layers, m.heads, m.kv_heads, m.d_model, m.max_len, m.tokenizer, m.in_worker],
        ['llama2c', 3, 4, 2, 32, 96, true, true]);
      assert.deepEqual(m.source.split(', ').sort(), ['tiny-stories.bin', 'tokenizer.bin']);

      // 1. the text's ids and pieces, the top 10 and every head's weights
      const want = lmCli(['--text', TEXT, '--attention', '--roles', '--seed', '1']);
      assert.deepEqual(s.shown.ids, want.ids);
      assert.deepEqual(s.shown.pieces, want.pieces);
      assert.equal(s.shown.text, want.text);
      assertNext(s.shown.next, want.next, 'the text');
      const ids = [];
      for (let l = 0; l < 3; l++) for (let h = 0; h < 4; h++) ids.push(`lm/head${l}.${h}`);
      assert.deepEqual(s.shown.grids, ids);
      for (const [k, id] of ids.entries()) {
        const [g] = await api(page, 'heatmaps', { id });
        assertAllClose(g.values.flat(), want.attention[Math.floor(k / 4)][k % 4].flat(), id, TOL);
      }
      await assertHeatmapPixels(page, ['lm/head0.0', 'lm/head2.3']);

      // 2. role scores on the repeated segment
      const roles = s.shown.roles.slice().sort((a, b) => a.layer - b.layer || a.head - b.head);
      assert.equal(roles.length, 12);
      for (const [i, r] of roles.entries()) {
        const w = want.roles.heads[i];
        assert.deepEqual([r.layer, r.head, r.role], [w.layer, w.head, w.role]);
        const keys = ['previous_token', 'induction', 'first_token'];
        assertAllClose(keys.map((k) => r.scores[k]), keys.map((k) => w.scores[k]),
          `head ${r.layer}.${r.head}'s scores`, { atol: 1e-5, rtol: 0 });
      }

      // 3. an enlarged head, and heads switched off: the CLI's top 10 with the same heads off
      await setAndWait(page, { grid: '1.2' });
      s = await answered(page);
      assert.equal(s.shown.grid.id, 'lm/enlarged');
      const [big] = await api(page, 'heatmaps', { id: 'lm/enlarged' });
      assertAllClose(big.values.flat(), want.attention[1][2].flat(), 'the enlarged head', TOL);
      // RoPE in that head: the last query and the key the CLI's weights favour, scored at gaps -64 .. 64
      const row = want.attention[1][2].at(-1);
      assert.equal(s.shown.grid.rope_key, row.indexOf(Math.max(...row)), 'the key the last query weights most');
      assert.equal(s.shown.grid.rope_scores.length, 129);
      assert.ok(s.shown.grid.rope_scores.every(Number.isFinite) &&
        new Set(s.shown.grid.rope_scores).size > 10, 'a score at every gap, changing with the gap');
      await setAndWait(page, { off: '0.1,1.3' });
      s = await answered(page);
      assert.equal(s.shown.off, '0.1,1.3');
      assertNext(s.shown.next, lmCli(['--text', TEXT, '--off', '0.1,1.3']).next, 'heads 0.1 and 1.3 off');

      // 4. greedy generation, one token at a time: the CLI's ids
      await setAndWait(page, { off: '', generate: 5 });
      s = await answered(page);
      const gen = lmCli(['--text', TEXT, '--generate', '5']);
      assert.deepEqual(s.shown.ids, gen.ids);
      assert.equal(s.shown.prompt_length, gen.prompt_length);
      assertNext(s.shown.next, gen.next, 'after 5 generated tokens');
      const [last] = await api(page, 'heatmaps', { id: 'lm/head0.0' });
      assert.equal(last.rows, gen.ids.length, 'the grids cover the generated tokens');

      // 5. a text longer than the context: said in place, the page keeps working
      await setAndWait(page, { generate: 0, text: 'the cat '.repeat(60) });
      await page.waitForFunction(() => {
        window.attentionDemo.requestFrames(1);
        return /96/.test(window.attentionDemo.state().error);
      }, null, { timeout: 30000, polling: 100 });
      await assertStillRuns(page);
    });
  });

// GPT-2's learned position table (wpe) as the safetensors file stores it (F16), read by numpy from the format's
// definition: 8 bytes of header length, the JSON header, then each tensor's bytes at its offsets.
function fileTable(file) {
  const script = `
import json, struct, sys, numpy as np
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", b[:8])[0]
t = [v for k, v in json.loads(b[8:8 + n]).items() if k.endswith("wpe.weight")][0]
s, e = t["data_offsets"]
print(json.dumps(np.frombuffer(b[8 + n + s:8 + n + e], dtype=np.float16).reshape(t["shape"]).astype(float).tolist()))
`;
  const r = spawnSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// With the GPT-2 folder open: the Position table scene shows its learned table (16 slots) and the table's
// similarity, and says that position 16 has no vector.
async function learnedTable(page) {
  assert.equal((await setAndWait(page, { scene: 'positions', count: 20 })).ok, true);
  const s = await api(page, 'state');
  assert.equal(s.error, '');
  assert.deepEqual([s.shown.learned.slots, s.shown.learned.rows, s.shown.learned.past_end], [16, 16, true]);
  const wpe = fileTable(path.join(dir, 'gpt2', 'model.safetensors'));
  const [table] = await api(page, 'heatmaps', { id: 'positions/learned' });
  assertAllClose(table.values.flat(), wpe.flat(), 'the learned table', { atol: 0, rtol: 0 });
  const dot = wpe.map((a) => wpe.map((b) => a.reduce((sum, x, k) => sum + x * b[k], 0)));
  const [sim] = await api(page, 'heatmaps', { id: 'positions/learned_similarity' });
  assertAllClose(sim.values.flat(), dot.flat(), 'its similarity', { atol: 1e-5, rtol: 1e-5 });
  assert.ok(s.texts.join('\n').includes('Position 16 has no vector: the table ends at slot 16'), 'the limit is said');
  await assertHeatmapPixels(page, ['positions/learned', 'positions/learned_similarity']);
  await setAndWait(page, { scene: 'lm' });
}

test('lm: a checkpoint= link opens its files, a Hugging Face folder by its path, picked shards too; bad ones are refused in place',
  async () => {
    await withCleanPage(browser, { viewport: { width: 1280, height: 2600 } }, async (page, errors) => {
      await page.route('**/models/**', (route) => {
        const url = new URL(route.request().url());
        let body;
        try {
          body = readFileSync(path.join(dir, url.pathname.split('/models/')[1]));
        } catch (e) {
          route.fulfill({ status: 404, body: '' });
          return;
        }
        if (url.search === '?cut') body = body.subarray(0, 100);
        route.fulfill({ status: 200, body });
      });
      await openDemo(page, 'scene=lm&generate=2&text=' + encodeURIComponent('a cat') +
        '&checkpoint=' + encodeURIComponent('models/tiny-stories.bin,models/tokenizer.bin'));
      let s = await answered(page);
      assert.equal(s.error, '');
      assert.deepEqual(s.shown.model.source.split(', ').sort(), ['tiny-stories.bin', 'tokenizer.bin']);
      const want = lmCli(['--text', 'a cat', '--generate', '2']);
      assert.deepEqual(s.shown.ids, want.ids);
      assertNext(s.shown.next, want.next, 'the linked model');
      // the readers' code came with the first model, to the worker only
      let timing = await page.evaluate(() => window.attentionDemo.timing);
      assert.ok(timing.deferred_ms >= 0, 'the worker loaded the deferred module');
      assert.equal(timing.deferred_page_ms, null, 'the page\'s thread never needs it');

      // Hugging Face folders: GPT-2 by its path (the page finds config.json, model.safetensors, vocab.json
      // and merges.txt) and Llama's BF16 shards picked with their index and tokenizer.json, each the CLI's
      const text = 'hello world cat';
      const folders = { gpt2: ['gpt2', 2, 3], llama: ['llama', 2, 4] };
      for (const [name, [format, layers, heads]] of Object.entries(folders)) {
        if (name === 'gpt2') {
          await setAndWait(page, { generate: 3, text, checkpoint: 'models/gpt2/' });
        } else {
          await setAndWait(page, { generate: 3, text, checkpoint: '' });
          await page.setInputFiles('#checkpoint-files', readdirSync(path.join(dir, 'llama')).map((f) => path.join(dir, 'llama', f)));
        }
        await page.waitForFunction((f) => window.attentionDemo.state().shown.model?.format === f, format,
          { timeout: 30000, polling: 100 });
        if (name === 'gpt2') {
          // the folder's probes for the files it does not have: model.safetensors.index.json, tokenizer.json
          const probes = errors.filter((e) => /status of 404/.test(e));
          assert.equal(probes.length, 2, errors.join('\n'));
          errors.splice(0, errors.length, ...errors.filter((e) => !/status of 404/.test(e)));
        }
        s = await answered(page);
        assert.equal(s.error, '', name);
        const m = s.shown.model;
        assert.deepEqual([m.format, m.layers, m.heads, m.tokenizer, m.in_worker], [format, layers, heads, true, true], name);
        const got = cli(['lm', '--model', path.join(dir, name), '--text', text, '--generate', '3', '--attention']);
        assert.deepEqual(s.shown.ids, got.ids, `${name}: the prompt's and the generated ids`);
        assert.equal(s.shown.text, got.text, name);
        assertNext(s.shown.next, got.next, name);
        const [g] = await api(page, 'heatmaps', { id: 'lm/head1.2' });
        assertAllClose(g.values.flat(), got.attention[1][2].flat(), `${name}: head 1.2`, TOL);
        if (name === 'gpt2') await learnedTable(page);
      }

      // a shard the index names is missing; a truncated checkpoint: their readers' reasons in place
      await page.setInputFiles('#checkpoint-files', ['config.json', 'model.safetensors.index.json',
        'model-00001-of-00002.safetensors'].map((f) => path.join(dir, 'llama', f)));
      await page.waitForFunction(() => {
        window.attentionDemo.requestFrames(1);
        return /model-00002-of-00002.safetensors' is missing/.test(window.attentionDemo.state().shown.open_error);
      }, null, { timeout: 30000, polling: 100 });
      assert.equal((await api(page, 'state')).shown.model, null);
      await setAndWait(page, { checkpoint: 'models/tiny-stories.bin?cut,models/tokenizer.bin' });
      await page.waitForFunction(() => {
        window.attentionDemo.requestFrames(1);
        return /bytes/.test(window.attentionDemo.state().shown.open_error);
      }, null, { timeout: 30000, polling: 100 });
      timing = await page.evaluate(() => window.attentionDemo.timing);
      assert.equal(timing.deferred_page_ms, null);
      await assertStillRuns(page);
    });
  });
