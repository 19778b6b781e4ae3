// The attention scenes' numbers against the native CLI (build/native/attention_cli) for the same
// settings: multi-head attention (`attend`), order blindness (`router`, and `attend` for the shuffle
// test), position schemes (`attend` per scheme), encoder block (`block`) and the exercises' answers
// (`pe`, `params`, `router`). One browser for the whole file; wasm against native float32 within abs 1e-5
// + rel 1e-4 (assertAllClose prints the largest difference on failure).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, openDemo, waitFrames, setAndWait, api, screenshot, heatmapById,
  assertAllClose, cli, cliAttend,
  withCleanPage, state, heatmaps,
} from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { if (browser) await browser.close(); });

// A fresh context and page; fails the test on any console error or uncaught exception it saw.
const withPage = (viewport, fn) => withCleanPage(browser, { viewport }, fn);

const num = (settings, name) => Number(settings[name]);

// The `attend` input for the page's current settings (the scenes' seeded layer).
function attendInput(settings, positions = settings.positions) {
  return { text: settings.text, d_model: num(settings, 'd_model'), heads: num(settings, 'heads'), positions,
           causal: settings.causal === '1', seed: num(settings, 'seed'), max_len: num(settings, 'slots') };
}

// ---------------------------------------------------------------------------------------------------

test('mha: weights, statistics, row view and parameters equal `attend`', async (t) => {
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, 'scene=mha');
    const cases = [
      {},                                                          // the defaults: sinusoidal, 4 heads
      { positions: 'rope' },
      { positions: 'rope', causal: 1, row: 5 },
      { positions: 'alibi', causal: 0, heads: 2, seed: 3, text: 'The cake was cold, so refund the cake.' },
      { positions: 'learned', heads: 8, d_model: 32, slots: 16, row: 2 },
      { positions: 'none', heads: 1, seed: 11 },
      { positions: 'relative', causal: 1, heads: 4, seed: 5, row: 3 },
    ];
    let worst = 0;
    for (const change of cases) {
      const r = await setAndWait(page, change);
      assert.equal(r.ok, true, `set(${JSON.stringify(change)}) -> ${JSON.stringify(r)}`);
      const s = await state(page);
      const label = `mha ${JSON.stringify(change)}`;
      assert.equal(s.error, '', `${label}: no error`);
      const input = attendInput(s.settings);
      const want = cliAttend(input);
      const shown = s.shown;
      assert.equal(shown.positions, input.positions, `${label}: the scheme shown`);
      assert.equal(shown.causal, input.causal);
      assert.deepEqual(shown.tokens, want.tokens, `${label}: tokens`);
      assert.equal(shown.weights.length, input.heads, `${label}: one grid per head`);
      worst = Math.max(worst, assertAllClose(shown.weights, want.weights, `${label}: shown.weights`).maxDiff);
      const stats = (list) => list.map((h) => [h.entropy, h.mean_distance, h.first_token_mass]);
      worst = Math.max(worst, assertAllClose(stats(shown.stats), stats(want.stats), `${label}: stats`).maxDiff);
      // the grids drawn are the same numbers
      const maps = await heatmaps(page);
      for (let h = 0; h < input.heads; h++) {
        const hm = heatmapById(maps, `mha/head${h}`);
        assert.deepEqual(hm.row_labels.length, want.tokens.length);
        assertAllClose(hm.values, want.weights[h], `${label}: heatmap mha/head${h}`);
      }
      // the row view: token `row`'s row in every head
      const row = shown.row.token;
      assert.equal(row, Math.min(num(s.settings, 'row'), want.tokens.length - 1));
      assertAllClose(shown.row.weights, want.weights.map((w) => w[row]), `${label}: row view of token ${row}`);
      assert.equal(shown.parameters.fused, want.parameters, `${label}: parameters`);
      if (input.causal) {  // nothing after the query gets weight
        const leak = shown.weights.flatMap((w) => w.flatMap((line, i) => line.slice(i + 1))).filter((x) => x !== 0);
        assert.deepEqual(leak, [], `${label}: causal weights above the diagonal are exactly 0`);
      }
    }
    t.diagnostic(`mha: largest |page - CLI| ${worst}`);
  });
});

test('order: the router columns and the shuffle test equal `router` and `attend`', async (t) => {
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, 'scene=order');
    let worst = 0;
    // positions picks the second column's scheme; the first column is always without positions
    for (const change of [{ positions: 'sinusoidal' }, { positions: 'rope' },
      { positions: 'learned', slots: 64 }, { positions: 'sinusoidal', d_model: 32, heads: 8, seed: 11 },
      { positions: 'relative' }]) {
      await setAndWait(page, change);
      const s = await state(page);
      const label = `order ${JSON.stringify(change)}`;
      assert.equal(s.error, '', `${label}: no error`);
      const emails = s.shown.emails;
      assert.equal(emails.length, 4, `${label}: two emails x (none, ${change.positions})`);
      assert.deepEqual(emails.map((e) => e.positions), ['none', 'none', change.positions, change.positions]);
      for (const e of emails) {
        const want = cli(['router', '--text', e.text, '--positions', e.positions, '--seed', s.settings.seed,
          '--d-model', s.settings.d_model, '--heads', s.settings.heads, '--max-len', s.settings.slots]);
        const what = `${label}: ${e.positions} "${e.text}"`;
        assert.deepEqual(e.tokens, want.tokens, `${what}: tokens`);
        assert.equal(e.label, want.label, `${what}: label (confidences ${e.confidence} vs ${want.confidence})`);
        worst = Math.max(worst, assertAllClose([e.confidence, ...e.probabilities],
          [want.confidence, ...want.probabilities], `${what}: confidence and probabilities`).maxDiff);
      }

      // The shuffle test from the CLI: the text and the shuffled tokens through the same seeded layer,
      // compared as the page does (original rows in the new order vs the shuffled text's rows).
      const sh = s.shown;
      const shuffledText = sh.shuffled_tokens.join(' ');
      assert.deepEqual(sh.shuffled_tokens, sh.perm.map((p) => sh.tokens[p]), `${label}: shuffled = tokens[perm]`);
      for (const [key, positions] of [['none', 'none'], ['slots', sh.shuffle_scheme]]) {
        const input = { ...attendInput(s.settings, positions), causal: false };
        const a = cliAttend({ ...input, text: s.settings.text });
        const b = cliAttend({ ...input, text: shuffledText });
        assert.deepEqual(b.tokens, sh.shuffled_tokens, `${label}: the CLI reads the shuffled text as the same tokens`);
        let maxDiff = 0, allclose = true;
        sh.perm.forEach((p, i) => a.output[p].forEach((x, c) => {
          const d = Math.abs(x - b.output[i][c]);
          maxDiff = Math.max(maxDiff, d);
          if (!(d <= 1e-5 + 1e-4 * Math.abs(x))) allclose = false;
        }));
        const got = sh.shuffle[key];
        assert.equal(got.allclose, allclose, `${label}: shuffle ${key} (${positions}) allclose: page ` +
          `${got.allclose} (max diff ${got.max_diff}), CLI ${allclose} (max diff ${maxDiff})`);
        if (!allclose) assertAllClose(got.max_diff, maxDiff, `${label}: shuffle ${key} max difference`);
      }
      assert.equal(sh.shuffle.none.allclose, true, 'without positions the shuffle is invisible');
      assert.equal(sh.shuffle.slots.allclose, false, 'with positions added after shuffling it is not');
    }
    t.diagnostic(`order: largest |page - CLI| ${worst}`);
  });
});

test('the refund pair: identical without positions, different with sinusoidal positions', async () => {
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, 'scene=order&positions=sinusoidal');
    const s = (await state(page)).shown;
    const [a, b, c, d] = s.emails;
    assert.deepEqual([a.positions, b.positions, c.positions, d.positions], ['none', 'none', 'sinusoidal', 'sinusoidal']);
    assert.notEqual(a.text, b.text);
    assert.equal(s.same_bag_of_words, true, 'the two emails hold the same words');
    assert.equal(a.label, b.label, 'without positions: the same label');
    assert.ok(Math.abs(a.confidence - b.confidence) < 1e-6,
      `without positions: the same confidence (${a.confidence} vs ${b.confidence})`);
    assert.ok(a.probabilities.every((p, i) => Math.abs(p - b.probabilities[i]) < 1e-6), 'and the same probabilities');
    assert.ok(s.no_positions_difference < 1e-6, `reported difference without positions: ${s.no_positions_difference}`);
    assert.equal(s.same_label_without, true);
    assert.ok(Math.abs(c.confidence - d.confidence) > 1e-3,
      `with sinusoidal positions the confidences differ (${c.confidence} vs ${d.confidence})`);
    assertAllClose(s.with_positions_difference,
      Math.max(...c.probabilities.map((p, i) => Math.abs(p - d.probabilities[i]))), 'reported difference with positions');
  });
});

// T5's relative position bucket (Raffel et al., 2020), 32 buckets, max distance 128, of rel = key - query.
function t5Bucket(rel, bidirectional) {
  let buckets = 32, ret = 0, n = -rel;
  if (bidirectional) {
    buckets /= 2;
    if (n < 0) ret += buckets;
    n = Math.abs(n);
  } else {
    n = Math.max(n, 0);
  }
  const exact = buckets / 2;
  if (n < exact) return ret + n;
  const large = exact + Math.floor(Math.log(n / exact) / Math.log(128 / exact) * (buckets - exact));
  return ret + Math.min(large, buckets - 1);
}

test('schemes: every scheme\'s grid equals `attend` with that scheme', async (t) => {
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, 'scene=schemes');
    const names = ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 'relative'];
    let worst = 0;
    for (const change of [{}, { head: 1 }, { head: 1, causal: 1, heads: 4, seed: 5 }]) {
      await setAndWait(page, change);
      const s = await state(page);
      const label = `schemes ${JSON.stringify(change)}`;
      assert.equal(s.error, '', `${label}: no error`);
      const head = num(s.settings, 'head');
      assert.equal(s.shown.head, head, `${label}: head shown`);
      const maps = await heatmaps(page);
      for (const name of names) {
        const want = cliAttend(attendInput(s.settings, name));
        assert.deepEqual(s.shown.tokens, want.tokens);
        const hm = heatmapById(maps, `schemes/${name}`);
        assert.deepEqual(hm.range, [0, 1], `${name}: one colour scale from 0 to 1`);
        worst = Math.max(worst, assertAllClose(hm.values, want.weights[head], `${label}: heatmap schemes/${name}`).maxDiff);
        const shown = s.shown.schemes[name];
        assert.equal(shown.ok, true, `${label}: ${name} ok (${shown.error})`);
        assertAllClose(shown.weights, want.weights[head], `${label}: shown.schemes.${name}.weights`);
        const st = want.stats[head];
        assertAllClose([shown.stats.entropy, shown.stats.mean_distance, shown.stats.first_token_mass],
          [st.entropy, st.mean_distance, st.first_token_mass], `${label}: ${name} statistics`);
        // the offset view: mean weight over each diagonal i - j (columns -(T-1) .. T-1)
        const off = s.shown.offsets?.[name]?.weights;
        if (off) {
          const T = want.tokens.length, w = want.weights[head];
          const means = [];
          for (let k = -(T - 1); k <= T - 1; k++) {
            const cells = [];
            for (let i = 0; i < T; i++) if (i - k >= 0 && i - k < T) cells.push(w[i][i - k]);
            means.push(cells.reduce((x, y) => x + y, 0) / cells.length);
          }
          assertAllClose(off, means, `${label}: ${name} mean weight per offset`);
        }
      }
    }
    // the relative scheme's bias per head against the offset i - j: each offset in T5's bucket (written here
    // from the definition), the heatmap showing the numbers reported
    for (const causal of [0, 1]) {
      await setAndWait(page, { causal, heads: 4, head: 2 });
      const s = await state(page);
      const rb = s.shown.relative_bias, T = s.shown.tokens.length;
      assert.equal(rb.buckets, 32);
      assert.equal(rb.max_distance, 128);
      assert.equal(rb.bucket_of.length, 2 * T - 1);
      rb.bucket_of.forEach((b, c) => assert.equal(b, t5Bucket(-(c - (T - 1)), !causal), `bucket of offset ${c - (T - 1)}`));
      assert.equal(rb.bias.length, 4);
      const maps = await heatmaps(page);
      assertAllClose(heatmapById(maps, 'schemes/relative_bias').values, rb.bias, `relative bias (causal ${causal})`);
      for (const row of rb.bias) {  // one number per bucket
        const seen = new Map();
        row.forEach((v, c) => {
          const b = rb.bucket_of[c];
          if (seen.has(b)) assert.equal(v, seen.get(b), `bucket ${b} has one bias`);
          seen.set(b, v);
        });
      }
    }
    t.diagnostic(`schemes: largest |page - CLI| ${worst}`);
  });
});

test('encoder: every intermediate and head equals `block`', async (t) => {
  await withPage({ width: 1280, height: 800 }, async (page) => {
    await openDemo(page, 'scene=encoder');
    const steps = ['input', 'attention', 'residual1', 'norm1', 'hidden', 'ffn', 'residual2', 'output'];
    let worst = 0;
    for (const change of [{}, { positions: 'rope', causal: 1, heads: 4, seed: 9, text: 'Refund the cake, not the fee!' }]) {
      await setAndWait(page, change);
      const s = await state(page);
      const label = `encoder ${JSON.stringify(change)}`;
      assert.equal(s.error, '', `${label}: no error`);
      const want = cli(['block', '--input', '-'], attendInput(s.settings));
      assert.deepEqual(s.shown.tokens, want.tokens);
      assert.equal(s.shown.d_ff, want.d_ff);
      const maps = await heatmaps(page);
      for (const step of steps) {
        const hm = heatmapById(maps, `encoder/${step}`);
        assert.deepEqual(s.shown.shapes[step], [want[step].length, want[step][0].length], `${label}: shape of ${step}`);
        worst = Math.max(worst, assertAllClose(hm.values, want[step], `${label}: heatmap encoder/${step}`).maxDiff);
      }
      for (let h = 0; h < want.heads; h++) {
        assertAllClose(heatmapById(maps, `encoder/head${h}`).values, want.weights[h], `${label}: encoder/head${h}`);
      }
      assertAllClose(s.shown.output, want.output, `${label}: shown.output`);
    }
    t.diagnostic(`encoder: largest |page - CLI| ${worst}`);
  });
});

// ---------------------------------------------------------------------------------------------------
// Exercises: the scene reports a question's solution in state() only once it is revealed, and Reveal is
// a button on the canvas. The buttons are found in a screenshot by their colour (Check, Hint, Reveal: a
// line of three buttons per question) and clicked from the last question up, so that the text a reveal
// adds never moves a button still to be clicked.

const BUTTON_RGB = [36, 70, 110];  // ImGui's dark style button over the window background

async function questionButtonRows(page) {
  const view = page.viewportSize();
  await page.mouse.move(view.width - 5, view.height - 5);  // no hovered (recoloured) button
  await waitFrames(page, 2);
  const shot = await screenshot(page);
  const rows = [];
  for (let y = 0; y < shot.height; y++) {
    const runs = [];
    let start = -1;
    for (let x = 0; x <= shot.width; x++) {
      const on = x < shot.width && shot.at(x, y).every((v, i) => Math.abs(v - BUTTON_RGB[i]) <= 2);
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        if (x - start >= 16) runs.push([start, x]);
        start = -1;
      }
    }
    if (runs.length !== 3) continue;
    const last = rows[rows.length - 1];
    if (last && y - last.y0 <= 24) last.y1 = y;  // the same line of buttons (text splits some pixel rows)
    else rows.push({ y0: y, y1: y, runs });
  }
  return rows.map((r) => ({ y: (r.y0 + r.y1) / 2, xs: r.runs.map(([a, b]) => (a + b) / 2), inputX: r.runs[0][0] - 90 }));
}

async function click(page, x, y) {
  await page.mouse.click(x, y);
  await waitFrames(page, 3);
}

test('exercises: the revealed answers equal the CLI\'s numbers; a typed answer is checked', async (t) => {
  await withPage({ width: 1280, height: 1400 }, async (page) => {  // all eight questions on screen
    // the shuffle question's permutation is the order scene's, from the same text and seed
    await openDemo(page, 'scene=order&positions=sinusoidal');
    const order = (await state(page)).shown;
    await openDemo(page, 'scene=exercises');
    const before = (await state(page)).shown.questions;
    const ids = before.map((q) => q.id);
    assert.deepEqual(ids, ['clock44', 'head_dim', 'parameters', 'invalid_heads', 'shuffle_positions',
      'learned_limit', 'refund_pair', 'rope_gap']);
    assert.ok(before.every((q) => !q.revealed && !('solution' in q)), 'no solution before Reveal');
    const rows = await questionButtonRows(page);
    assert.equal(rows.length, ids.length, `one line of Check/Hint/Reveal buttons per question: ${JSON.stringify(rows)}`);
    for (let i = rows.length - 1; i >= 0; i--) {
      await click(page, rows[i].xs[2], rows[i].y);
      const q = (await state(page)).shown.questions[i];
      assert.equal(q.revealed, true, `Reveal of question ${ids[i]} at (${rows[i].xs[2]}, ${rows[i].y})`);
    }
    const solution = Object.fromEntries((await state(page)).shown.questions.map((q) => [q.id, q.solution]));
    t.diagnostic(`revealed: ${JSON.stringify(solution)}`);

    // a: the position in 1..49 whose fast hand (dimensions 0, 1) reads closest to position 0's
    const pe = cli(['pe', '--d-model', '4', '--count', '50']).table;
    const dist = (p) => Math.hypot(pe[p][0] - pe[0][0], pe[p][1] - pe[0][1]);
    const nearest = [...Array(49).keys()].map((k) => k + 1).reduce((b, p) => (dist(p) < dist(b) ? p : b));
    assert.equal(solution.clock44, nearest, 'clock: nearest return of the fast hand (pe)');
    assert.equal(nearest, 44);
    // b, c: params
    assert.equal(solution.head_dim, cli(['params', '--d-model', '768', '--heads', '12']).d_k);
    const p512 = cli(['params', '--d-model', '512', '--heads', '8']);
    assert.equal(solution.parameters, p512.fused_parameters);
    assert.equal(p512.single_head_parameters, p512.fused_parameters);
    // d: options 4, 6, 8, 16 heads (the order on screen); the CLI refuses the one that does not divide 512
    const refused = [4, 6, 8, 16].findIndex((h) => {
      try { cli(['params', '--d-model', '512', '--heads', String(h)]); return false; } catch (e) { return /divisible/.test(e.message); }
    });
    assert.equal(solution.invalid_heads, refused, 'invalid head count for 512');
    // e: "Yes: allclose stays true" (0) / "No: allclose becomes false" (1), from the CLI's shuffle
    const input = { text: order.text, d_model: order.d_model, heads: order.heads, seed: order.seed, positions: 'sinusoidal' };
    const a = cliAttend(input), b = cliAttend({ ...input, text: order.shuffled_tokens.join(' ') });
    const stays = order.perm.every((p, i) => a.output[p].every((x, c) => Math.abs(x - b.output[i][c]) <= 1e-5 + 1e-4 * Math.abs(x)));
    assert.equal(solution.shuffle_positions, stays ? 0 : 1, 'shuffle test with the table added after shuffling');
    // f: options (stretches, wraps round, stops with an error, shares the last slot): the CLI's learned
    // table of 128 slots refuses position 128 of a 400-token text
    assert.throws(() => cli(['pe', '--scheme', 'learned', '--d-model', '16', '--count', '400', '--max-len', '128']),
      /position 128 is past the end of the learned table/);
    assert.equal(solution.learned_limit, 2, 'learned table: stops with an error at position 128');
    // g: "Yes: same label, same confidence" (0) when the router without positions cannot tell them apart
    const emails = ['Refund the delivery fee, not the cake.', 'Refund the cake, not the delivery fee.'];
    const [r1, r2] = emails.map((e) => cli(['router', '--text', e, '--positions', 'none']));
    const same = r1.label === r2.label && Math.abs(r1.confidence - r2.confidence) <= 1e-5;
    assert.equal(solution.refund_pair, same ? 0 : 1, `router without positions: ${r1.confidence} vs ${r2.confidence}`);
    // h: RoPE depends on the gap only: (10, 7) scores as (q, 2) for q - 2 = 3; the schemes scene shows it
    assert.equal(solution.rope_gap, 10 - 7 + 2);
    await openDemo(page, 'scene=schemes&pos=10&pos2=7');
    const rope = (await state(page)).shown.rope;
    const shifted = rope.shifted.find((x) => x.pos === solution.rope_gap && x.pos2 === 2);
    assert.ok(shifted, `the schemes scene lists (${solution.rope_gap}, 2): ${JSON.stringify(rope.shifted)}`);
    assertAllClose(shifted.score, rope.score, 'RoPE score at the same gap');

    // Check: a typed answer is checked (a fresh page: the learner's answers live in the scene)
    await openDemo(page, 'scene=exercises');
    // (question b first: the feedback a Check adds moves the questions below it)
    const [first, second] = await questionButtonRows(page);
    for (const [row, answer] of [[second, '768'], [first, String(nearest)]]) {
      await click(page, row.inputX, row.y);
      await page.keyboard.type(answer);
      await waitFrames(page, 2);
      await click(page, row.xs[0], row.y);
    }
    const checked = (await state(page)).shown;
    assert.deepEqual(checked.questions.slice(0, 2).map((q) => [q.answered, q.correct]), [[true, true], [true, false]],
      'question a answered right (44), question b wrong (768)');
    assert.equal(checked.score, 1);
  });
});
