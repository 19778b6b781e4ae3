// The Train scene's "What each head does" in the browser: a trained router's role scores, roles and the
// held-out measures with a head switched off (the off setting) equal attention_cli train's for the same
// model; a head the model does not have is said in place; a malformed setting is refused with a note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser, openDemo, waitFrames, setAndWait, api, assertAllClose, withCleanPage, state, cli,
         assertStillRuns } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// Frames until the heads measure of the shown model is done (it runs a few milliseconds a frame).
async function measured(page) {
  for (let i = 0; i < 200; i++) {
    const s = await state(page);
    const m = s.shown.heads_measure;
    if (m && (m.fraction === 1 || m.error)) return s;
    await waitFrames(page, 2);
  }
  throw new Error('the heads measure did not finish');
}

test('heads: roles, scores and the measures with a head off equal the CLI for the same model', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attn-heads-'));
  try {
    const file = path.join(dir, 'router.json');
    const want = cli(['train', '--positions', 'sinusoidal', '--seed', '1', '--out', file, '--off', '0.2',
                      '--no-timing']);
    // the head whose switching off costs the most order-flipped twins
    const worst = want.ablation.reduce((a, b) => (b.flipped_pair_accuracy < a.flipped_pair_accuracy ? b : a));
    const text = 'Refund the cake, not the balloons.';
    await withCleanPage(browser, { viewport: { width: 1280, height: 900 } }, async (page) => {
      await openDemo(page, `scene=train&text=${encodeURIComponent(text)}`);
      assert.deepEqual(await api(page, 'loadModel', readFileSync(file, 'utf8'), 'router.json'), { ok: true });
      let s = await measured(page);
      assert.equal(s.error, '');
      assert.equal(s.shown.heads.length, want.heads.length);
      for (const [i, h] of want.heads.entries()) {
        const got = s.shown.heads[i];
        assert.deepEqual([got.layer, got.head, got.role], [h.layer, h.head, h.role], `head ${h.layer}.${h.head}`);
        const names = Object.keys(h.scores).sort();
        assertAllClose(names.map((n) => got.scores[n]), names.map((n) => h.scores[n]), `head ${h.layer}.${h.head}`);
      }
      assert.ok(s.shown.heads.some((h) => h.role !== 'mixed'), 'no head is named');
      assert.deepEqual(s.shown.ablated.off, []);
      assertAllClose([s.shown.ablated.clean_test_accuracy, s.shown.ablated.clean_flipped_pair_accuracy],
        [want.final.test_accuracy, want.final.flipped_pair_accuracy], 'every head on');

      // head 0.2 off, as the CLI's --off: the same held-out measures, and the typed email is labelled again
      await setAndWait(page, { off: '0.2' });
      s = await measured(page);
      assert.deepEqual(s.shown.ablated.off, ['0.2']);
      assertAllClose([s.shown.ablated.test_accuracy, s.shown.ablated.flipped_pair_accuracy, s.shown.ablated.test_loss],
        [want.ablated.test_accuracy, want.ablated.flipped_pair_accuracy, want.ablated.test_loss], 'head 0.2 off');
      assert.ok(s.shown.ablated.probabilities.length > 1);
      assert.ok(Math.abs(s.shown.ablated.probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      assert.ok(s.texts.some((t) => t.startsWith('With head 0.2 off: held-out accuracy')), s.texts.join('\n'));

      // the most costly head, as the CLI's single-head ablation measured it
      await setAndWait(page, { off: worst.off });
      s = await measured(page);
      assertAllClose([s.shown.ablated.test_accuracy, s.shown.ablated.flipped_pair_accuracy],
        [worst.test_accuracy, worst.flipped_pair_accuracy], `head ${worst.off} off`);
      assert.ok(s.shown.ablated.flipped_pair_accuracy < s.shown.ablated.clean_flipped_pair_accuracy);

      // a head the model does not have: said in place, and the page keeps working
      await setAndWait(page, { off: '3.0' });
      s = await measured(page);
      assert.match(s.shown.heads_measure.error, /there is no head 3\.0: the model has 1 layer\(s\) of 4 heads/);
      await setAndWait(page, { off: '' });
      s = await measured(page);
      assert.equal(s.shown.heads_measure.error, undefined);
      await assertStillRuns(page);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('heads: a malformed off setting is refused with a note, the rest of the link still applies', async () => {
  await withCleanPage(browser, { viewport: { width: 1280, height: 900 } }, async (page) => {
    await openDemo(page, 'scene=train&off=1.x&seed=3');
    const s = await state(page);
    assert.equal(s.settings.off ?? '', '');
    assert.equal(s.settings.seed, '3');
    assert.ok(s.notes.some((n) => n.includes('off')), `no note names off: ${JSON.stringify(s.notes)}`);
  });
});
