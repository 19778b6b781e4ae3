// The Induction scene end to end: the induction task's language model trains in the compute worker to what
// attention_cli's `train --task induction` gives for the same scheme, seed and steps (native and wasm
// training drift a little, so within a tolerance): the two halves' losses at every evaluation, every head's
// scores and name, the longer lengths (the learned table's hard limit), heads switched off; the grids are
// causal attention rows drawn as their values' colours; the scheme comparison trains every scheme in turn
// and its table is the CLI's; after longer training the prediction about switching the induction heads off
// is checked against the measure; a bad off= is said in place and the page keeps working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openDemo, waitFrames, setAndWait, withCleanPage, state, api, cli, assertAllClose,
  assertStillRuns } from './harness.mjs';
import { assertHeatmapPixels } from './sampled_pixels.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

const FLOOR = 0.5, MARGIN = 2.0;  // src/core/train/head_roles.hpp: kRoleFloor, kRoleMargin
// page vs CLI after a few hundred steps: the losses agree to ~1e-4 relative, the scores to ~1e-3
const LOSS_TOL = { atol: 1e-3, rtol: 2e-3 };
const SCORE_TOL = { atol: 5e-3, rtol: 0 };
const HEADS = ['0.0', '0.1', '0.2', '0.3', '1.0', '1.1', '1.2', '1.3'];

function roleOf(scores) {
  const entries = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  const [top, next] = [entries[0][1], entries[1][1]];
  return top >= FLOOR && top >= MARGIN * next ? entries[0][0] : 'mixed';
}

// Frames until the run is paused at `steps`, measured there at the longer lengths too (the pause's).
async function trained(page, steps, timeout = 90000) {
  await page.waitForFunction((n) => {
    const demo = window.attentionDemo;
    demo.requestFrames(1);
    const s = demo.state().shown;
    return !s.running && !s.evaluating && s.steps === n && s.evaluations.step.at(-1) === n && s.eval_length;
  }, steps, { timeout, polling: 200 });
  await waitFrames(page, 2);
  return state(page);
}

function cliRun(positions, steps, extra = []) {
  return cli(['train', '--task', 'induction', '--positions', positions, '--seed', '1', '--steps', String(steps),
              '--eval-length', '64,128', ...extra]);
}

// A comparison row of the page against the CLI's run of the same scheme.
function assertRow(row, want, what) {
  assert.deepEqual(row.formed, want.formed, `${what}: steps at which each kind of head formed`);
  assertAllClose([row.loss_first_half, row.loss_second_half], [want.loss_first_half, want.loss_second_half],
    `${what}: the halves' losses`, LOSS_TOL);
  assertAllClose([row.best_previous_token, row.best_induction],
    [Math.max(...want.previous_token[0]), Math.max(...want.induction.at(-1))], `${what}: the best scores`, SCORE_TOL);
  assert.equal(row.eval_length.length, want.eval_length.length);
  for (const [i, at] of want.eval_length.entries()) {
    assert.equal(row.eval_length[i].length, at.length);
    if (at.error) {
      assert.equal(row.eval_length[i].error, at.error, `${what}: at ${at.length}`);
    } else {
      assertAllClose([row.eval_length[i].loss_second_half], [at.loss_second_half], `${what}: at ${at.length}`,
        LOSS_TOL);
    }
  }
}

test('induction: trains in the worker as the CLI does; heads, grids and heads off are what was computed',
  async () => {
    await withCleanPage(browser, { viewport: { width: 1280, height: 2400 } }, async (page) => {
      await openDemo(page, 'scene=induction&positions=rope&seed=1&max_steps=200');
      let s = await state(page);
      assert.equal(s.shown.steps, 0);
      await setAndWait(page, { train: 'run' });
      s = await trained(page, 200);
      assert.equal(s.error, '');
      assert.equal(s.shown.in_worker, true, 'the model trains in the compute worker');
      const want = cliRun('rope', 200);

      // 1. every evaluation's losses, the last one's scores and the names they give
      const ev = s.shown.evaluations;
      assert.deepEqual(ev.step, want.curve.map((c) => c.step));
      assertAllClose(ev.loss_first_half, want.curve.map((c) => c.loss_first_half), 'first half', LOSS_TOL);
      assertAllClose(ev.loss_second_half, want.curve.map((c) => c.loss_second_half), 'repeat', LOSS_TOL);
      assertAllClose(s.shown.previous_token.flat(), want.previous_token.flat(), 'previous-token scores', SCORE_TOL);
      assertAllClose(s.shown.induction.flat(), want.induction.flat(), 'prefix-matching scores', SCORE_TOL);
      assert.deepEqual(s.shown.heads.map((h) => `${h.layer}.${h.head}`), HEADS);
      for (const h of s.shown.heads) {
        assert.equal(h.role, roleOf({ previous_token: h.previous_token, induction: h.induction }),
          `head ${h.layer}.${h.head}'s name follows from its scores`);
      }
      assertRow(s.shown.table.find((r) => r.positions === 'rope'), want, 'rope');

      // 2. the grids: causal rows of weights that sum to 1, drawn as their values' colours
      assert.deepEqual(s.shown.grids, HEADS.map((h) => `induction/head${h}`));
      for (const id of s.shown.grids.slice(0, 2).concat(s.shown.grids.slice(4, 6))) {
        const [h] = await api(page, 'heatmaps', { id });
        assert.equal(h.rows, 32);
        h.values.forEach((row, i) => {
          const sum = row.reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(sum - 1) < 1e-5, `${id} row ${i} sums to ${sum}`);
          assert.ok(row.slice(i + 1).every((v) => v === 0), `${id} row ${i} sees no later key`);
        });
      }
      await assertHeatmapPixels(page, ['induction/head0.0', 'induction/head1.2']);

      // 3. layer 1 switched off: the halves' losses as the CLI measures them with the same heads off
      await setAndWait(page, { off: '1.0,1.1,1.2,1.3' });
      await page.waitForFunction(() => {
        window.attentionDemo.requestFrames(1);
        return window.attentionDemo.state().shown.ablated;
      }, null, { timeout: 30000, polling: 100 });
      s = await state(page);
      assert.match(s.query, /(^|&)off=1\.0%2C1\.1%2C1\.2%2C1\.3(&|$)|(^|&)off=1\.0,1\.1,1\.2,1\.3(&|$)/);
      const off = cliRun('rope', 200, ['--off', '1.0,1.1,1.2,1.3']).ablated;
      assertAllClose([s.shown.ablated.loss_first_half, s.shown.ablated.loss_second_half],
        [off.loss_first_half, off.loss_second_half], 'layer 1 off', LOSS_TOL);
      assert.ok(s.shown.grids.includes('induction/head1.0'));

      // 4. a head the model does not have: said in place, every head on, the page keeps working
      await setAndWait(page, { off: '2.0' });
      s = await state(page);
      assert.match(s.shown.off_error, /^off=2\.0: /);
      assert.equal(s.shown.off, '');
      await assertStillRuns(page);
    });
  });

test('induction: every scheme in turn, and the table is what the CLI prints for the same seed', async () => {
  await withCleanPage(browser, { viewport: { width: 1280, height: 2400 } }, async (page) => {
    await openDemo(page, 'scene=induction&positions=none&seed=1&max_steps=100&hide=grids,heads,curves,predict');
    assert.deepEqual((await state(page)).messages, [], 'the link is read without a note');
    // the untrained model's first evaluation in, so nothing moves the button any more
    await page.waitForFunction(() => {
      window.attentionDemo.requestFrames(1);
      return window.attentionDemo.state().shown.evaluations.step.length > 0;
    }, null, { timeout: 30000, polling: 100 });
    await waitFrames(page, 2);
    let s = await state(page);
    const [x, y, w, h] = s.rects['induction/compare'];
    await page.mouse.move(x + w / 2, y + h / 2);  // as a learner's pointer: over the button, then a click
    await waitFrames(page, 2);
    await page.mouse.click(x + w / 2, y + h / 2);
    const started = Date.now();
    for (;;) {
      await page.evaluate(() => window.attentionDemo.requestFrames(1));
      await waitFrames(page, 1);
      s = await state(page);
      const t = s.shown;
      if (!t.comparing && !t.running && t.table && t.table.length === 6) break;
      if (Date.now() - started > 150000) {
        assert.fail(`the comparison stalled: ${JSON.stringify({ positions: t.positions, steps: t.steps,
          running: t.running, evaluating: t.evaluating, comparing: t.comparing, evaluations: t.evaluations.step,
          eval_length: t.eval_length, rows: (t.table ?? []).map((r) => [r.positions, r.steps]),
          train: s.settings.train, error: s.error, rect_clicked: [x, y, w, h], rect: s.rects['induction/compare'] })}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const schemes = ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 'relative'];
    assert.deepEqual(s.shown.table.map((r) => r.positions), schemes);
    for (const row of s.shown.table) {
      assert.equal(row.steps, 100);
      assertRow(row, cliRun(row.positions, 100), row.positions);
    }
    // the learned table cannot read past its 32 slots: said in words, in the row and its summary
    const learned = s.shown.table.find((r) => r.positions === 'learned');
    assert.ok(learned.eval_length.every((a) => a.error), 'no learned slot past 32');
    assert.match(learned.summary, /no vector past its last slot/);
  });
});

test('induction: predict, then check what switching the induction heads off does', async () => {
  await withCleanPage(browser, { viewport: { width: 1280, height: 2400 } }, async (page) => {
    await openDemo(page, 'scene=induction&positions=rope&seed=1&max_steps=1000&hide=grids,compare');
    assert.deepEqual((await state(page)).messages, [], 'the link is read without a note');
    await setAndWait(page, { train: 'run' });
    let s = await trained(page, 1000, 150000);
    const heads = s.shown.prediction.heads;
    const layer1 = s.shown.heads.filter((h) => h.layer === 1 && h.induction >= 0.3).map((h) => `1.${h.head}`);
    assert.equal(heads, layer1.join(','), 'the question names the later-layer heads scoring 0.3 or more');
    assert.ok(layer1.length > 0, 'an induction head formed by step 1000');
    assert.equal(s.shown.prediction.guess, null);
    const [x, y, w, h] = s.rects['induction/guess/0'];
    await page.mouse.click(x + Math.min(10, w / 2), y + h / 2);
    await page.waitForFunction(() => {
      window.attentionDemo.requestFrames(1);
      return window.attentionDemo.state().shown.prediction?.effect;
    }, null, { timeout: 30000, polling: 100 });
    s = await state(page);
    assert.equal(s.settings.off, heads, 'the check switched them off');
    const p = s.shown.prediction, a = s.shown.ablated;
    assert.equal(a.off, heads);
    // the measured effect follows from the numbers shown (induction_view.hpp: off_effect)
    const effect = a.loss_second_half >= 0.75 * a.loss_first_half ? 0
      : a.loss_second_half >= 1.5 * a.all_on.loss_second_half ? 1 : 2;
    assert.equal(p.right, effect === 0, `guess 0 is right exactly when the effect is 0 (${JSON.stringify(a)})`);
    assert.ok(a.loss_second_half > a.all_on.loss_second_half, 'without them the repeat is harder');
    assert.ok(a.all_on.loss_second_half < a.all_on.loss_first_half, 'with them the repeat is easier');
  });
});
