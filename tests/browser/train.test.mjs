// The Train scene end to end in the browser: training in the page reaches 99% held-out accuracy with
// sinusoidal positions while the page keeps its frame rate; without positions the order-flipped twins
// stay identical; a typed email is labelled; a saved model loads back with the same predictions; the
// multi-head scene shows the trained model's heads. Timings are printed (t.diagnostic) for the report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser, openDemo, waitFrames, setAndWait, api, assertAllClose, withCleanPage, state, cli } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// A fresh context and page; fails the test on any console error or uncaught exception it saw.
const withPage = (viewport, fn) => withCleanPage(browser, { viewport }, fn);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

// Samples every animation frame in the page: the rAF interval and the app's frameStats().cpu_ms. With
// `settings`, calls set(settings) first and samples until state().shown.running turns false (or timeout);
// otherwise samples for `ms`, asking the app for a frame at every animation frame (it draws only on demand),
// so both samples time drawn frames. Returns the samples, the seconds until training stopped and the last
// state.
function sampleFrames(page, { ms = 1500, settings = null, timeout = 60000 } = {}) {
  return page.evaluate(([duration, change, limit]) => new Promise((resolve) => {
    const demo = window.attentionDemo;
    const intervals = [], cpu = [];
    let last = -1, lastFrame = demo.frameStats().frame, stoppedAfter = null;
    const start = performance.now();
    if (change) demo.set(change);
    function tick(now) {
      if (!change) demo.requestFrames(1);
      if (last >= 0) intervals.push(now - last);
      last = now;
      const fs = demo.frameStats();
      if (fs.frame !== lastFrame) cpu.push(fs.cpu_ms);
      lastFrame = fs.frame;
      const elapsed = now - start;
      let done = elapsed >= (change ? limit : duration);
      if (change && elapsed > 100 && !demo.state().shown.running) {
        stoppedAfter = elapsed / 1000;
        done = true;
      }
      if (done) resolve({ intervals, cpu, stoppedAfter, state: demo.state() });
      else requestAnimationFrame(tick);
    }
    requestAnimationFrame(tick);
  }), [ms, settings, timeout]);
}

let sinusoidalSteps = 0;  // what the first test needed, for the second

test('train: sinusoidal positions reach 99% held-out accuracy in the page; the page stays responsive',
  async (t) => {
    await withPage({ width: 1280, height: 800 }, async (page) => {
      await openDemo(page, 'scene=train');
      let s = await state(page);
      assert.equal(s.error, '');
      assert.equal(s.shown.positions, 'sinusoidal');
      assert.equal(s.shown.steps, 0);
      assert.equal(s.shown.running, false);

      const idle = await sampleFrames(page, { ms: 1500 });
      const run = await sampleFrames(page, { settings: { train: 'run' }, timeout: 60000 });
      s = run.state;
      const m = s.shown.metrics;
      const report = {
        steps: s.shown.steps, target_step: s.shown.target_step, seconds_in_page: run.stoppedAfter,
        training_seconds_reported: s.shown.target_seconds, steps_per_second: s.shown.steps_per_second,
        idle_raf_ms: median(idle.intervals), training_raf_ms: median(run.intervals),
        training_raf_p95_ms: quantile(run.intervals, 0.95), idle_cpu_ms: median(idle.cpu),
        training_cpu_ms: median(run.cpu), training_cpu_p95_ms: quantile(run.cpu, 0.95), frames: run.intervals.length,
        test_accuracy: m.test_accuracy, flipped_pair_accuracy: m.flipped_pair_accuracy,
      };
      t.diagnostic(`sinusoidal training: ${JSON.stringify(report)}`);
      console.log('train report', JSON.stringify(report));

      assert.equal(s.error, '');
      assert.notEqual(run.stoppedAfter, null, 'training stopped by itself within 60 s');
      assert.equal(s.shown.target_reached, true, 'stopped at the target, not at max steps');
      assert.ok(m.test_accuracy >= 0.99, `held-out accuracy ${m.test_accuracy}`);
      assert.ok(m.flipped_pair_accuracy >= 0.97, `flipped-pair accuracy ${m.flipped_pair_accuracy}`);
      assert.ok(m.max_pair_difference > 0.5, 'the twins get different outputs');
      assert.equal(s.shown.steps, s.shown.target_step);
      assert.ok(s.shown.steps > 0 && s.shown.steps % 25 === 0, 'the target is checked every 25 steps');
      sinusoidalSteps = s.shown.steps;
      // responsive: the page draws the worker's news as it comes (an update at most every 50 ms,
      // src/app/logic/train_host.hpp, each drawn at the next display frame), so the frames while training
      // are at least half of one per update or per idle frame, whichever is rarer, and their median
      // interval at most twice the rarer one
      const news_ms = Math.max(50, report.idle_raf_ms);
      const expected = (run.stoppedAfter * 1000) / news_ms;
      assert.ok(run.intervals.length >= Math.max(5, 0.5 * expected),
        `only ${run.intervals.length} frames while training (${expected.toFixed(0)} at one per ${news_ms} ms)`);
      assert.ok(report.training_raf_ms <= 2 * news_ms,
        `median frame interval ${report.training_raf_ms} ms while training vs ${news_ms} ms between news`);

      // the refund pair: both orders right, different outputs
      const pair = s.shown.pair;
      assert.equal(pair.length, 2);
      for (const p of pair) assert.equal(p.label, p.expected, `${p.text} -> ${p.label}`);
      assert.ok(s.shown.pair_difference > 0.1);

      // a typed email
      const text = 'Refund the candles, not the hamper.';
      await setAndWait(page, { text });
      s = await state(page);
      const pred = s.shown.prediction;
      assert.equal(pred.text, text);
      assert.deepEqual(pred.tokens, ['refund', 'the', 'candles', ',', 'not', 'the', 'hamper', '.']);
      assert.equal(pred.label, 'candles');
      assert.equal(pred.probabilities.length, 14);
      assert.ok(Math.abs(pred.probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      assert.equal(pred.confidence, Math.max(...pred.probabilities));

      // save -> load: the same predictions, and the file's training info
      const file = await api(page, 'modelJson');
      const doc = JSON.parse(file);
      assert.equal(doc.format, 'attention-demo-router');
      assert.equal(doc.config.positions, 'sinusoidal');
      assert.equal(doc.training.steps, sinusoidalSteps);
      const before = { prediction: pred, pair: s.shown.pair };
      const bad = await api(page, 'loadModel', '{"format": "something else"}');
      assert.equal(bad.ok, false);
      assert.match(bad.error, /format|version|config/);
      const loaded = await api(page, 'loadModel', file, 'model.json');
      assert.deepEqual(loaded, { ok: true });
      await waitFrames(page, 3);
      s = await state(page);
      assert.equal(s.error, '');
      assert.equal(s.shown.model_loaded_from, 'model.json');
      assert.equal(s.shown.positions, 'sinusoidal');
      assert.equal(s.shown.metrics.test_accuracy, m.test_accuracy, 'the training info comes from the file');
      assertAllClose(s.shown.prediction.probabilities, before.prediction.probabilities, 'after loading',
        { atol: 0, rtol: 0 });
      assert.deepEqual(s.shown.pair, before.pair);

      // the multi-head scene shows the trained model's heads
      await setAndWait(page, { scene: 'mha', model: 'trained', text });
      s = await state(page);
      assert.equal(s.error, '');
      assert.equal(s.shown.model, 'trained');
      assert.equal(s.shown.trained_model.source, 'model.json');
      assert.deepEqual(s.shown.tokens, pred.tokens);
      assert.equal(s.shown.weights.length, 4);
      for (const w of s.shown.weights) {
        for (const row of w) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      }
      assert.equal(s.shown.stats.length, 4);
    });
  });

test('train: without positions the order-flipped twins stay identical however long it trains', async (t) => {
  const steps = sinusoidalSteps || 200;
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, `scene=train&positions=none&max_steps=${steps}`);
    const run = await sampleFrames(page, { settings: { train: 'run' }, timeout: 60000 });
    assert.notEqual(run.stoppedAfter, null, 'training stopped at max steps within 60 s');
    await page.waitForFunction((n) => {
      const s = window.attentionDemo.state().shown;
      return s.metrics && s.metrics.step === n && !s.evaluating;
    }, steps, { timeout: 20000 });
    let s = await state(page);
    const m = s.shown.metrics;
    t.diagnostic(`none after ${steps} steps (${run.stoppedAfter} s): ${JSON.stringify(m)}`);
    assert.equal(s.error, '');
    assert.equal(s.shown.steps, steps);
    assert.equal(s.shown.target_reached, false);
    assert.ok(m.max_pair_difference < 1e-6, `largest twin difference ${m.max_pair_difference}`);
    assert.ok(m.flipped_pair_accuracy <= 0.5, `flipped-pair accuracy ${m.flipped_pair_accuracy}`);
    assert.ok(m.test_accuracy <= 0.5 + 1e-6, `held-out accuracy ${m.test_accuracy}`);
    const [a, b] = s.shown.pair;
    assert.equal(a.label, b.label, 'both orders get the same label');
    assert.equal(a.confidence, b.confidence);
    assert.ok(s.shown.pair_difference < 1e-6);
    // the lesson's "same label, same confidence", with this trained model's one confidence
    const said = (st, part) => st.texts.some((x) => x.includes(part));
    assert.ok(said(s, `Both get one confidence, ${a.confidence.toFixed(3)}`), s.texts.join('\n'));
    assert.ok(said(s, "the lesson's 0.87 was an illustration"));
    // longer emails, measured once training stopped, beside the context-length advice
    await page.waitForFunction(() => (window.attentionDemo.state().shown.longer || []).length === 3, null,
      { timeout: 60000, polling: 200 });
    s = await state(page);
    t.diagnostic(`none, longer emails: ${JSON.stringify(s.shown.longer)}`);
    for (const row of s.shown.longer) assert.ok(row.test_accuracy <= 0.5 + 1e-6, JSON.stringify(row));
    assert.ok(said(s, 'documented context length'));
    // the order scene points at this trained order-blind router's one confidence
    await setAndWait(page, { scene: 'order' });
    s = await state(page);
    assert.ok(said(s, 'The router trained without positions in the Train scene gives both'), s.texts.join('\n'));
  });
});

// The relative scheme (a learned bias per head and distance bucket) trains in the page's worker as the CLI
// trains it, tells the refund pair apart, and its saved file (with each layer's distance_bias table) labels
// an email as the CLI does with that file.
test('train: relative position biases train in the page as in the CLI, and their table is saved', async (t) => {
  const steps = 400;  // the CLI's default; the page stops earlier once 99% held-out accuracy holds
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, `scene=train&positions=relative&seed=1&max_steps=${steps}`);
    assert.deepEqual((await state(page)).messages, [], 'the link is read without a note');
    await setAndWait(page, { train: 'run' });
    await page.waitForFunction((n) => {
      const s = window.attentionDemo.state().shown;
      return !s.running && !s.evaluating && s.metrics && s.metrics.step === s.steps && s.steps > 0 && s.steps <= n;
    }, steps, { timeout: 60000, polling: 100 });
    const s = await state(page);
    assert.equal(s.error, '');
    assert.equal(s.shown.positions, 'relative');
    const m = s.shown.metrics;
    const want = cli(['train', '--positions', 'relative', '--seed', '1', '--steps', String(s.shown.steps), '--no-timing']);
    t.diagnostic(`relative after ${s.shown.steps} steps: page ${JSON.stringify(m)}; CLI ${JSON.stringify(want.final)}`);
    assertAllClose([m.test_loss], [want.final.test_loss], 'held-out loss against the CLI', { atol: 2e-3, rtol: 2e-3 });
    assert.ok(Math.abs(m.test_accuracy - want.final.test_accuracy) <= 0.01, 'held-out accuracy as the CLI');
    assert.equal(s.shown.target_reached, true, '99% held-out accuracy, as the CLI reaches');
    assert.ok(m.flipped_pair_accuracy >= 0.97, `flipped pairs told apart (${m.flipped_pair_accuracy})`);
    const [a, b] = s.shown.pair;
    assert.notEqual(a.label, b.label, 'the refund pair gets two labels');
    // the saved file carries every layer's bias table and labels an email as the CLI does with it
    const doc = JSON.parse(await api(page, 'modelJson'));
    assert.equal(doc.config.positions, 'relative');
    const tables = JSON.stringify(doc).match(/layers\.\d+\.distance_bias/g) ?? [];
    assert.ok(tables.length >= 1, 'the file holds layers.0.distance_bias');
    const dir = mkdtempSync(path.join(tmpdir(), 'relative-'));
    try {
      const file = path.join(dir, 'relative.json');
      writeFileSync(file, JSON.stringify(doc));
      const text = 'Refund the hamper, not the candles.';
      const got = cli(['router', '--model', file, '--text', text]);
      await setAndWait(page, { text });
      assertAllClose((await state(page)).shown.prediction.probabilities, got.probabilities, 'the saved model against the CLI');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Opens the Train scene on an email, loads the model file at `file` under `name` and checks that the scene
// shows it without an error and labels the email with the CLI's probabilities; returns state().
async function showModelFile(page, file, name, text = 'Refund the cake, not the balloons.') {
  const want = cli(['router', '--model', file, '--text', text]);
  await openDemo(page, `scene=train&text=${encodeURIComponent(text)}`);
  assert.deepEqual(await api(page, 'loadModel', readFileSync(file, 'utf8'), name), { ok: true });
  await waitFrames(page, 3);
  const s = await state(page);
  assert.equal(s.error, '');
  assert.equal(s.shown.model_loaded_from, name);
  assert.equal(s.shown.prediction.label, want.label);
  assertAllClose(s.shown.prediction.probabilities, want.probabilities, `${name} against the CLI`);
  return s;
}

// A model file wider than the page trains (d_model 160; the scene trains up to 128) is shown as it is: its
// width stays in the settings, it labels an email as the CLI does, and training it says why it cannot, in
// place, until a width it can train is chosen.
test('train: a model file wider than the page trains keeps its width and predicts as the CLI does', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attn-wide-'));
  try {
    const file = path.join(dir, 'wide.json');
    cli(['train', '--d-model', '160', '--heads', '4', '--layers', '1', '--steps', '2', '--out', file]);
    await withPage({ width: 1280, height: 800 }, async (page) => {
      let s = await showModelFile(page, file, 'wide.json');
      assert.equal(s.shown.d_model, 160);
      assert.equal(s.settings.d_model, '160');
      await setAndWait(page, { train: 'run' });
      s = await state(page);
      assert.match(s.error, /d_model 160 is too wide to train in the page/);
      assert.equal(s.settings.train, 'pause');
      await setAndWait(page, { d_model: 32 });
      s = await state(page);
      assert.equal(s.error, '');
      assert.equal(s.shown.d_model, 32);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A model file with more layers than the page trains (6; the file format takes up to 8, the scene's slider
// 1 to 4) is shown as it is: state().shown and the scene's text give its 6 layers while the layers setting
// stays in its range, and it labels an email as the CLI does.
test('train: a model file deeper than the page trains says how many layers it has', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attn-deep-'));
  try {
    const four = path.join(dir, 'four.json'), six = path.join(dir, 'six.json');
    cli(['train', '--layers', '4', '--steps', '2', '--out', four]);
    const model = JSON.parse(readFileSync(four, 'utf8'));  // layers 4 and 5: copies of layers 0 and 1
    for (const name of Object.keys(model.tensors).filter((n) => /^layers\.[01]\./.test(n))) {
      model.tensors[name.replace(/^layers\.(\d)/, (_, l) => `layers.${Number(l) + 4}`)] = model.tensors[name];
    }
    model.config.layers = 6;
    writeFileSync(six, JSON.stringify(model));
    await withPage({ width: 1280, height: 800 }, async (page) => {
      const s = await showModelFile(page, six, 'six.json');
      assert.equal(s.shown.layers, 6);
      assert.equal(s.settings.layers, '4');
      assert.ok(s.texts.some((t) => t.includes('This model (6 attention layers) was loaded from six.json')),
        `no sentence gives the file's 6 layers: ${JSON.stringify(s.texts)}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
