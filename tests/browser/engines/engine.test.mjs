// The cross-engine tests: the same checks on whichever engine ATTN_ENGINE names (chromium, firefox or
// webkit; run.sh runs the file once per engine). One browser launch and six page loads: the demo (start-up,
// the clock, set(), idle, the canvas's mouse and keys, heatmap pixels, typed text, context loss), a course
// page on another origin that embeds it, the example course page's three demos on one compiled module, the
// demo under a strict CSP with Trusted Types, a large recompute shared by the workers, the Train scene, the
// Induction scene, and a llama2.c checkpoint and a Hugging Face Llama folder opened in the Real model scene.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, engineFromEnv } from './driver.mjs';
import { baseUrl, waitFrames, setAndWait, api, assertAllClose, cli, cliAttend, heatmapById } from '../harness.mjs';
import { openDemo, trainUntilStopped, TRAIN_QUERY } from './demo_runs.mjs';
import { assertHeatmapPixels } from '../sampled_pixels.mjs';

const engine = engineFromEnv();
let browser, page;
before(async () => {
  browser = await launch(engine);
  page = await browser.open();
});
after(async () => { if (browser) await browser.close(); });

const state = () => api(page, 'state');
const frame = async () => (await api(page, 'frameStats')).frame;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The lesson's formula, in float64: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(the same).
function lessonPE(pos, d) {
  return Array.from({ length: d }, (_, k) => {
    const angle = pos / 10000 ** (2 * Math.floor(k / 2) / d);
    return k % 2 ? Math.cos(angle) : Math.sin(angle);
  });
}

// The clock's readings on screen (state().shown) are the lesson's numbers at `pos` for d_model 4.
function assertClock(shown, pos, what) {
  assert.equal(shown.pos, pos, `${what}: the position shown`);
  assertAllClose(shown.readings, lessonPE(pos, 4), `${what}: readings at position ${pos}`);
}

test(`${engine}: start-up: attentionDemo.ready resolves and the page is ready`, async (t) => {
  const timing = await openDemo(page, 'scene=clock&d_model=4&pos=44');
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready', 'the shell says ready');
  for (const name of ['wasm_compiled_ms', 'runtime_ready_ms', 'first_frame_ms']) {
    assert.equal(typeof timing[name], 'number', `timing.${name} is filled in`);
  }
  const s = await state();
  assert.equal(s.error, '');
  assert.equal(s.scene, 'clock');
  // the browser drew the glyphs, in several tasks
  assert.equal(s.font.source, 'browser', JSON.stringify(s.font));
  assert.ok(s.font.slices >= 2, JSON.stringify(s.font));
  t.diagnostic(`${browser.name} ${browser.version}: first frame ${timing.first_frame_ms.toFixed(0)} ms after navigation`);
});

test(`${engine}: the clock at position 44 shows the lesson's sin/cos`, async () => {
  const s = await state();
  assert.equal(s.settings.d_model, '4');
  assert.equal(s.shown.readings.length, 4, 'd_model 4: four readings');
  assertClock(s.shown, 44, 'clock from the URL');
});

test(`${engine}: set({pos: 45}) round trip`, async () => {
  const r = await setAndWait(page, { pos: 45 });
  assert.deepEqual(r, { ok: true, notes: [] });
  const s = await state();
  assert.equal(s.settings.pos, '45');
  assertClock(s.shown, 45, 'clock after set()');
});

test(`${engine}: idle: no frame drawn in a second without input`, async () => {
  let last = await frame();
  for (let waited = 0; ; waited += 500) {  // the frames asked for so far end first
    await sleep(500);
    const now = await frame();
    if (now === last) break;
    assert.ok(waited < 10000, `the page kept drawing for 10 s without input (frame ${now})`);
    last = now;
  }
  await sleep(1000);
  assert.equal(await frame(), last, 'frames were drawn in a second without input');
  await waitFrames(page, 2);  // and a request still draws
});

test(`${engine}: the canvas's mouse and keys reach the app: + clicked, Tab to the slider, arrows, a typed value`, async () => {
  const pos = async () => Number((await state()).settings.pos);
  await setAndWait(page, { scene: 'clock', pos: 1 });
  const plus = (await state()).rects['increase position'];
  assert.ok(plus, "the position's + stepper is drawn");
  for (let i = 0; i < 3; i++) {
    await page.click(plus[0] + plus[2] / 2, plus[1] + plus[3] / 2);  // the canvas is at the page's top left
    await waitFrames(page, 2);
  }
  assert.equal(await pos(), 4, 'three clicks on + (the click also gives the canvas the focus)');
  let focus = null;
  for (let i = 0; i < 30 && !(focus && focus.label === 'position'); i++) {
    await page.press('Tab');
    await waitFrames(page, 2);
    focus = (await state()).focus;
  }
  assert.equal(focus && focus.label, 'position', 'Tab walked the controls to the position slider');
  for (let i = 0; i < 2; i++) {
    await page.press('ArrowRight');
    await waitFrames(page, 2);
  }
  assert.equal(await pos(), 6, 'two ArrowRight presses on the slider');
  await page.type('12');
  await page.press('Enter');
  await waitFrames(page, 3);
  assert.equal(await pos(), 12, 'the typed value, then Enter');
});

test(`${engine}: heatmap pixels have the colormap colour of their values`, async () => {
  const r = await setAndWait(page, { scene: 'mha', heads: 2, d_model: 16 });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.ok(await assertHeatmapPixels(page, ['mha/head0', 'mha/head1'], 3) >= 16, 'cells compared');
});

test(`${engine}: typed text with an emoji and right-to-left words reaches state() exactly`, async () => {
  const box = await page.evaluate(() => {
    const input = document.querySelector('input.field[aria-label="text"]');
    const r = input && input.getBoundingClientRect();
    return r && { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  assert.ok(box, 'the multi-head scene has its text <input>');
  await page.click(box.x, box.y);
  const focused = await page.evaluate(() => {
    const el = document.activeElement;
    if (el && el.matches('input.field')) el.select();  // typing replaces the text
    return el && el.getAttribute('aria-label');
  });
  assert.equal(focused, 'text', 'the click focused the text input');
  const typed = 'cake 😀 שלום عربى end';
  await page.type(typed);
  await page.waitForFunction(() => !document.querySelector('input.field.pending'), null, { timeout: 10000 });
  await waitFrames(page, 3);
  const s = await state();
  assert.equal(s.settings.text, typed, 'state().settings.text');
  assert.equal(s.error, '');
  assert.ok(s.shown.tokens.length >= 4, `the typed text is tokenised: ${JSON.stringify(s.shown.tokens)}`);
});

test(`${engine}: WebGL context loss shows the message; on restore the page draws again`, async () => {
  const before = await api(page, 'heatmaps');
  await page.evaluate(() => {
    window.loseContextExt = document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.loseContextExt.loseContext();
  });
  await page.waitForFunction(() => document.body.dataset.state === 'context-lost', null, { timeout: 10000 });
  const lost = await page.evaluate(() => {
    const status = document.getElementById('status');
    return { visible: !!status && status.getClientRects().length > 0 && getComputedStyle(status).visibility !== 'hidden',
             message: document.getElementById('message').textContent, webgl: window.attentionDemo.state().webgl };
  });
  assert.equal(lost.visible, true, 'the learner is told');
  assert.match(lost.message, /continues by itself/);
  assert.deepEqual(lost.webgl, { lost: true, restores: 0 }, 'state() reports the lost context');
  await page.evaluate(() => window.loseContextExt.restoreContext());
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 10000 });
  await waitFrames(page, 3);
  assert.deepEqual((await state()).webgl, { lost: false, restores: 1 });
  const after = await api(page, 'heatmaps');
  assert.deepEqual(after.map((h) => [h.id, h.values]), before.map((h) => [h.id, h.values]), 'the same view');
  await assertHeatmapPixels(page, ['mha/head0', 'mha/head1'], 4);
});

// A course page at http://localhost:PORT/ (the demo is at 127.0.0.1: another origin and site) that embeds
// the clock with embed.js from the demo's site, under a CSP as strict as a course page's.
async function serveCoursePage() {
  const demoOrigin = new URL(baseUrl()).origin;
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title>' +
    '<link rel="icon" href="data:,"></head><body>' +
    '<attention-demo id="d" query="?scene=clock&amp;d_model=4" height="400"></attention-demo>' +
    `<script src="${baseUrl()}embed.js"></script></body></html>`;
  const csp = `default-src 'self'; script-src ${demoOrigin}; frame-src ${demoOrigin}; img-src data:`;
  const server = http.createServer((req, res) => {
    if (new URL(req.url, 'http://x').pathname !== '/course.html') { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp });
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://localhost:${server.address().port}/course.html` };
}

test(`${engine}: the embed handle across origins: ready, set, state`, async () => {
  const { server, url } = await serveCoursePage();
  try {
    await page.goto(url);
    const got = await page.evaluate(async () => {
      const demo = document.getElementById('d').demo;
      await demo.ready;
      const set = await demo.set({ pos: 44 });
      const settings = (await demo.state()).settings;
      return { set, settings, page: location.origin, frame: new URL(demo.frame.src).origin };
    });
    assert.notEqual(got.page, got.frame, 'the course page and the demo have different origins');
    assert.equal(got.frame, new URL(baseUrl()).origin, 'the iframe is the demo\'s');
    assert.deepEqual(got.set, { ok: true, notes: [] });
    assert.equal(got.settings.scene, 'clock');
    assert.equal(got.settings.embed, '1');
    assert.equal(got.settings.pos, '44', 'state() through the handle sees the new setting');
    // state().shown is the last frame's: wait for the frame that shows position 44
    await page.waitForFunction(async () => (await document.getElementById('d').demo.state()).shown.pos === 44,
      null, { timeout: 30000 });
    assertClock((await page.evaluate(() => document.getElementById('d').demo.state())).shown, 44, 'embedded clock');
  } finally {
    server.close();
  }
});

// The example course page (dist/course-example.html, the demo's own origin, so its frames can be read): its
// three demos start on one compile of the module, the later ones on the first one's (web/stream_wasm.js),
// and each runs its own scene.
test(`${engine}: three demos on a course page share one compiled module and each runs`, async () => {
  await page.goto(baseUrl() + 'course-example.html');
  const got = await page.evaluate(async () => {
    const els = [...document.querySelectorAll('[data-attention-demo], attention-demo')];
    const out = [];
    for (const el of els) {
      el.scrollIntoView();  // an iframe off screen loads lazily
      await el.demo.ready;
      const w = el.demo.frame.contentWindow;
      out.push({ shared: w.attentionDemo.timing.wasm_shared, scene: w.attentionDemo.state().settings.scene });
    }
    return out;
  });
  assert.deepEqual(got.map((g) => g.scene), ['order', 'clock', 'mha'], 'each demo shows its own scene');
  assert.equal(got.filter((g) => !g.shared).length, 1,
    `one demo compiled the module, the others took it: ${JSON.stringify(got)}`);
  // a demo on a module it took starts its compute worker on it too (the Train scene wants one)
  const worker = await page.evaluate(async () => {
    const els = [...document.querySelectorAll('[data-attention-demo], attention-demo')];
    const el = els.find((e) => e.demo.frame.contentWindow.attentionDemo.timing.wasm_shared);
    el.scrollIntoView();  // a demo off screen draws no frame, and the Train scene asks for its worker in one
    const w = el.demo.frame.contentWindow;
    w.attentionDemo.set({ scene: 'train' });
    for (let i = 0; i < 200 && w.attentionDemo.timing.worker_ready_ms === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return w.attentionDemo.timing.worker_ready_ms !== null;
  });
  assert.equal(worker, true, 'the compute worker of a demo on a shared module started');
});

// dist/ again on another port, every response with the README's strictest policy (Trusted Types for script
// sinks, no img-src), and a first script in index.html that records every violation from the start.
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "require-trusted-types-for 'script'";
async function serveUnderStrictCsp() {
  const watch = 'window.cspViolations = []; document.addEventListener("securitypolicyviolation", ' +
    'function (e) { window.cspViolations.push(e.violatedDirective + " blocked " + e.blockedURI); });';
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/csp-watch.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript', 'Content-Security-Policy': STRICT_CSP });
      res.end(watch);
      return;
    }
    const r = await fetch(baseUrl() + path.slice(1));
    let body = Buffer.from(await r.arrayBuffer());
    if (path === '/index.html') {
      body = Buffer.from(body.toString('utf8').replace('<head>', '<head><script src="csp-watch.js"></script>'));
    }
    res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') || 'application/octet-stream',
                              'Content-Security-Policy': STRICT_CSP });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

test(`${engine}: under a strict CSP with Trusted Types the page and its compute worker start and report no violation`, async () => {
  const { server, url } = await serveUnderStrictCsp();
  try {
    await page.goto(url + 'index.html?scene=clock&d_model=4&pos=44');
    await page.evaluate(() => window.attentionDemo.ready.then(() => true));
    await waitFrames(page, 3);
    assertClock((await state()).shown, 44, 'the clock under the strict CSP');
    await page.evaluate(() => window.attentionDemo.set({ scene: 'train' }));  // it starts the compute worker
    await page.waitForFunction(() => window.attentionDemo.timing.worker_ready_ms !== null, null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => Array.isArray(window.cspViolations)), true, 'the watch script ran');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), [], 'no CSP or Trusted Types violation');
  } finally {
    server.close();
  }
});

// 96 tokens at d_model 256 go to the compute worker, which shares them with its helpers (one per core
// beyond the first): the heads' weights (the grids of the first and the last) and statistics are the CLI's.
test(`${engine}: a large recompute shared by the compute worker and its helpers gives the CLI's numbers`, async (t) => {
  const words = ['refund', 'the', 'delivery', 'fee', 'not', 'cake', 'it', 'was', 'late'];
  const text = Array.from({ length: 96 }, (_, i) => words[i % words.length]).join(' ');
  const input = { text, d_model: 256, heads: 8, positions: 'rope', causal: true, seed: 3, max_len: 128 };
  await openDemo(page, `scene=mha&heads_view=grid&d_model=256&heads=8&positions=rope&causal=1&seed=3&text=${encodeURIComponent(text)}`);
  let s;
  for (let i = 0; i < 600; i++) {
    s = await state();
    if (s.shown.computed_in === 'worker' && (s.shown.stats || []).length === 8 &&
        !(await api(page, 'frameStats')).computing) break;
    await sleep(100);
  }
  await waitFrames(page, 3);
  const timing = await page.evaluate(() => window.attentionDemo.timing);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  t.diagnostic(`${engine}: ${cores} cores, ${timing.helpers} helper workers, shared by ${s.shown.workers}`);
  assert.equal(s.error, '');
  assert.equal(s.shown.computed_in, 'worker');
  assert.equal(timing.helpers, Math.max(Math.min(cores || 1, 4) - 1, 0), 'one helper per core beyond the first');
  assert.equal(s.shown.workers, 1 + timing.helpers, 'the compute worker and every helper shared it');
  const want = cliAttend(input);
  assert.deepEqual(s.shown.tokens, want.tokens);
  for (const h of [0, 7]) {  // the first span's first head, the last span's last
    const id = `mha/head${h}`;
    const map = heatmapById(await api(page, 'heatmaps', { id }), id);
    assertAllClose(map.values, want.weights[h], `${engine}: head ${h}'s weights`);
  }
  const stats = (list) => list.map((h) => [h.entropy, h.mean_distance, h.first_token_mass]);
  assertAllClose(stats(s.shown.stats), stats(want.stats), `${engine}: every head's statistics`);
});

test(`${engine}: training with sinusoidal positions reaches 99% held-out accuracy, in the compute worker`, async (t) => {
  await openDemo(page, TRAIN_QUERY);
  const fresh = await state();
  assert.equal(fresh.error, '');
  assert.deepEqual([fresh.shown.positions, fresh.shown.steps, fresh.shown.running], ['sinusoidal', 0, false]);
  const { state: s, seconds } = await trainUntilStopped(page);
  const m = s.shown.metrics;
  t.diagnostic(`${engine}: ${s.shown.steps} steps, held-out accuracy ${m.test_accuracy}, ` +
               `${seconds.toFixed(1)} s`);
  assert.equal(s.error, '');
  assert.equal(s.shown.in_worker, true, 'the session ran in the compute worker');
  assert.equal(s.shown.target_reached, true, `stopped at the target, not at max steps (${s.shown.steps} steps)`);
  assert.ok(m.test_accuracy >= 0.99, `held-out accuracy ${m.test_accuracy}`);
});

test(`${engine}: the induction task's model trains in the compute worker as attention_cli trains it`, async (t) => {
  await openDemo(page, 'scene=induction&positions=rope&seed=1&max_steps=200&hide=grids,compare');
  const { seconds } = await trainUntilStopped(page);
  let s = await state();
  for (let i = 0; i < 100 && (s.shown.evaluating || s.shown.evaluations.step.at(-1) !== 200); ++i) {
    await sleep(100);  // the evaluation at the last step arrives after the stop
    s = await state();
  }
  t.diagnostic(`${engine}: induction task, ${s.shown.steps} steps in ${seconds.toFixed(1)} s`);
  assert.equal(s.error, '');
  assert.equal(s.shown.in_worker, true, 'the session ran in the compute worker');
  assert.equal(s.shown.steps, 200);
  const want = cli(['train', '--task', 'induction', '--positions', 'rope', '--seed', '1', '--steps', '200']);
  // the halves' losses at every evaluation, 100 steps apart, as the CLI measured them
  const ev = s.shown.evaluations;
  assert.deepEqual(ev.step, want.curve.map((c) => c.step));
  const tol = { atol: 1e-3, rtol: 2e-3 };  // wasm against native training (tests/browser/induction.test.mjs)
  assertAllClose(ev.loss_first_half, want.curve.map((c) => c.loss_first_half), 'first half', tol);
  assertAllClose(ev.loss_second_half, want.curve.map((c) => c.loss_second_half), 'repeat', tol);
});

test(`${engine}: a llama2.c checkpoint and a Hugging Face folder open in the compute worker and answer as attention_cli lm does`, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attention-lm-'));
  try {
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'write_lm_files.py');
    const w = spawnSync('/usr/bin/python3', [script, dir], { encoding: 'utf8' });
    assert.equal(w.status, 0, w.stderr);
    const text = 'the cat sat';
    await openDemo(page, 'scene=lm&generate=2&off=1.1&text=' + encodeURIComponent(text));
    const files = ['tiny-stories.bin', 'tokenizer.bin'].map((name) =>
      ({ name, b64: readFileSync(path.join(dir, name)).toString('base64') }));
    await page.evaluate(async (list) => {
      for (let i = 0; i < 200 && !window.Module.attentionWorker; i++) await new Promise((r) => setTimeout(r, 50));
      const decoded = list.map((f) => ({ name: f.name, bytes: Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0)) }));
      return window.attentionDemo.openCheckpoint(decoded);
    }, files);
    let s;
    for (let i = 0; i < 300; i++) {  // the answer arrives from the worker
      await page.evaluate(() => window.attentionDemo.requestFrames(2));
      s = await state();
      if (s.shown.model && s.shown.ids && !s.shown.waiting) break;
      await sleep(100);
    }
    assert.equal(s.error, '');
    assert.equal(s.shown.model.in_worker, true);
    const want = cli(['lm', '--model', path.join(dir, 'tiny-stories.bin'), '--tokenizer', path.join(dir, 'tokenizer.bin'),
                      '--text', text, '--generate', '2', '--off', '1.1', '--attention']);
    assert.deepEqual(s.shown.ids, want.ids, 'the prompt and the 2 generated ids');
    assert.deepEqual(s.shown.next.map((n) => n.id), want.next.map((n) => n.id), 'the top 10 with head 1.1 off');
    assertAllClose(s.shown.next.map((n) => n.p), want.next.map((n) => n.p), 'their probabilities',
                   { atol: 2e-5, rtol: 1e-4 });
    const [g] = await api(page, 'heatmaps', { id: 'lm/head2.3' });
    assertAllClose(g.values.flat(), want.attention[2][3].flat(), 'head 2.3', { atol: 2e-5, rtol: 1e-4 });

    // a Hugging Face Llama folder: BF16 shards with their index and tokenizer.json
    const folder = path.join(dir, 'llama');
    const hf = readdirSync(folder).map((name) => ({ name, b64: readFileSync(path.join(folder, name)).toString('base64') }));
    await page.evaluate((list) => {
      window.attentionDemo.set({ off: '', text: 'hello world cat' });
      const decoded = list.map((f) => ({ name: f.name, bytes: Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0)) }));
      return window.attentionDemo.openCheckpoint(decoded);
    }, hf);
    for (let i = 0; i < 300; i++) {
      await page.evaluate(() => window.attentionDemo.requestFrames(2));
      s = await state();
      if (s.shown.model?.format === 'llama' && s.shown.ids && !s.shown.waiting) break;
      await sleep(100);
    }
    assert.equal(s.error, '');
    const hfWant = cli(['lm', '--model', folder, '--text', 'hello world cat', '--generate', '2', '--attention']);
    assert.deepEqual(s.shown.ids, hfWant.ids, 'the Llama folder: the prompt and the 2 generated ids');
    assert.equal(s.shown.text, hfWant.text);
    assertAllClose(s.shown.next.map((n) => n.p), hfWant.next.map((n) => n.p), 'the Llama folder\'s top 10',
                   { atol: 2e-5, rtol: 1e-4 });
    const [hg] = await api(page, 'heatmaps', { id: 'lm/head1.2' });
    assertAllClose(hg.values.flat(), hfWant.attention[1][2].flat(), 'the Llama folder\'s head 1.2', { atol: 2e-5, rtol: 1e-4 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
