// The attention scenes in the browser beyond their numbers: head grids coloured by the colormap of the
// CLI's weights, hover tooltips, bad input shown in place, CSV export, every scene loading cleanly and
// reopening from its URL. One browser for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launchBrowser, openDemo, waitReady, waitFrames, setAndWait, api, screenshot, rng, canvasInfo,
  cellCentre, heatmapById, assertAllClose, cli, cliAttend,
  withCleanPage, state, heatmaps,
} from './harness.mjs';
import { parseColormapTables, expectedColor } from './colormap.mjs';

const COLOR_TOLERANCE = 2;  // per channel, as in app.test.mjs (SwiftShader measures 0)
const tables = parseColormapTables();
let browser;
let maxColorDiff = 0;

before(async () => { browser = await launchBrowser(); });
after(async () => {
  if (browser) await browser.close();
  console.log(`largest colour difference measured: ${maxColorDiff} / 255 per channel (tolerance ${COLOR_TOLERANCE})`);
});

// A fresh context and page; fails the test on any console error or uncaught exception it saw.
const withPage = (viewport, fn) => withCleanPage(browser, { viewport }, fn);

const VIEW = { width: 1280, height: 800 };
const ids = (maps) => maps.map((m) => m.id);

// C's printf("%.6g", x): what the tooltip prints for a weight.
function formatG(x, precision = 6) {
  if (x === 0) return '0';
  const exp = Number(x.toExponential(precision - 1).split('e')[1]);
  if (exp < -4 || exp >= precision) {
    const [m, e] = x.toExponential(precision - 1).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    return `${mant}e${e[0] === '-' ? '-' : '+'}${String(Math.abs(Number(e))).padStart(2, '0')}`;
  }
  const fixed = x.toFixed(precision - 1 - exp);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

// The smallest and largest weight and `random` more cells of a (rows x cols) matrix.
function sampleCells(values, random, seed) {
  const all = values.flatMap((line, r) => line.map((v, c) => ({ r, c, v })));
  const cells = [
    { ...all.reduce((a, b) => (b.v < a.v ? b : a)), why: 'min' },
    { ...all.reduce((a, b) => (b.v > a.v ? b : a)), why: 'max' },
  ];
  const next = rng(seed);
  for (let i = 0; i < random; i++) cells.push({ ...all[Math.floor(next() * all.length)], why: 'random' });
  return cells;
}

// The pixel at each sampled cell's centre has the colormap colour of the CLI's weight for that cell.
async function checkGridPixels(page, wantById, colormap, seed) {
  const info = await canvasInfo(page);
  const maps = await heatmaps(page);
  const shot = await screenshot(page);
  const bad = [];
  let worst = 0;
  for (const [id, want] of Object.entries(wantById)) {
    const h = heatmapById(maps, id);
    assert.equal(h.colormap, colormap, `${id}: colormap`);
    assert.deepEqual(h.range, [0, 1], `${id}: weights on a fixed 0..1 scale`);
    assert.deepEqual([h.rows, h.cols], [want.length, want[0].length], `${id}: shape`);
    assert.ok(h.visible && h.rect.x >= 0 && h.rect.y >= 0 && h.rect.x + h.rect.w <= info.cssW &&
      h.rect.y + h.rect.h <= info.cssH, `${id}: on screen: ${JSON.stringify(h.rect)}`);
    assert.ok(h.rect.w / h.cols >= 4 && h.rect.h / h.rows >= 4, `${id}: cells large enough to sample`);
    for (const cell of sampleCells(want, 6, seed)) {
      const p = cellCentre(info, h, cell.r, cell.c);
      const got = shot.at(Math.floor(p.x * info.dpr), Math.floor(p.y * info.dpr));
      const expected = expectedColor(tables, colormap, cell.v, 0, 1);
      const diff = Math.max(...got.map((g, i) => Math.abs(g - expected[i])));
      worst = Math.max(worst, diff);
      if (diff > COLOR_TOLERANCE) {
        bad.push(`${id} [${cell.r},${cell.c}] (${cell.why}) weight ${cell.v}: rgb(${got}), expected rgb(${expected})`);
      }
    }
  }
  maxColorDiff = Math.max(maxColorDiff, worst);
  assert.deepEqual(bad, [], `${colormap}: head grid pixels differ from the colour of their weights`);
  return worst;
}

// ---------------------------------------------------------------------------------------------------

test('pixels: head grid cells have the colour of the CLI\'s weights (viridis, then cividis)', async (t) => {
  await withPage(VIEW, async (page) => {
    await openDemo(page, 'scene=mha&text=' + encodeURIComponent('Refund the cake, not the delivery fee.'));
    const s = await state(page);
    const want = cliAttend({ text: s.settings.text, d_model: 16, heads: 4, positions: 'sinusoidal', seed: 7 }).weights;
    const grids = { 'mha/head0': want[0], 'mha/head1': want[1] };
    const viridis = await checkGridPixels(page, grids, 'viridis', 1);
    await setAndWait(page, { colormap: 'cividis' });
    assert.equal((await state(page)).settings.colormap, 'cividis');
    const cividis = await checkGridPixels(page, grids, 'cividis', 2);
    t.diagnostic(`largest colour difference: viridis ${viridis}, cividis ${cividis}`);
  });
});

test('hover: the tooltip names query, key, weight, raw score and, with sinusoidal positions, the clock hands', async () => {
  await withPage(VIEW, async (page) => {
    await openDemo(page, 'scene=mha');  // the lesson's email, 4 heads, d_model 16, sinusoidal
    const speeds = cli(['pe', '--d-model', '16', '--positions', '0']).speeds;
    const hoverCell = async (id, row, col) => {
      const h = heatmapById(await heatmaps(page), id);
      const p = cellCentre(await canvasInfo(page), h, row, col);
      await page.mouse.move(p.x, p.y);
      await waitFrames(page, 3);
      const s = await state(page);
      assert.ok(s.hover, `hovering ${id} [${row},${col}] at (${p.x}, ${p.y}) reports a tooltip`);
      assert.deepEqual([s.hover.id, s.hover.row, s.hover.col], [id, row, col], JSON.stringify(s.hover));
      return { s, lines: s.hover.lines, h };
    };
    const [row, col] = [3, 2];  // query 'cake' (3), key 'eggless' (2)
    for (const positions of ['sinusoidal', 'rope']) {
      await setAndWait(page, { positions });
      const { s, lines, h } = await hoverCell('mha/head1', row, col);
      const text = lines.join('\n');
      const want = cliAttend({ text: s.settings.text, d_model: 16, heads: 4, positions, seed: 7 });
      assert.ok(lines.includes(`query '${want.tokens[row]}' (${row})`), `query token line: ${text}`);
      assert.ok(lines.includes(`key '${want.tokens[col]}' (${col})`), `key token line: ${text}`);
      assert.ok(lines.includes(`value ${formatG(h.values[row][col])}`),
        `the weight as %.6g (value ${formatG(h.values[row][col])}): ${text}`);
      assertAllClose(h.values[row][col], want.weights[1][row][col], `${positions}: hovered weight`);
      const score = lines.map((l) => /^raw score (-?[0-9.]+)/.exec(l)).find(Boolean);
      assert.ok(score, `a raw score line: ${text}`);
      assertAllClose(Number(score[1]), want.scores[1][row][col], `${positions}: raw score (printed %.4f)`, { atol: 6e-5, rtol: 1e-4 });
      const hands = lines.map((l) => /hand (\d+): ([0-9.]+) rad vs ([0-9.]+) rad, phase difference ([-+][0-9.]+) rad/.exec(l)).filter(Boolean);
      if (positions === 'sinusoidal') {
        assert.ok(lines.includes(`clock hands at query position ${row} and key position ${col}:`), text);
        assert.equal(hands.length, 4, `the first 4 of 8 hands: ${text}`);
        const wrap = (a) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
        for (const m of hands) {
          const k = Number(m[1]), a = wrap(row * speeds[k]), b = wrap(col * speeds[k]);
          let d = b - a;
          if (d <= -Math.PI) d += 2 * Math.PI;
          if (d > Math.PI) d -= 2 * Math.PI;
          assertAllClose([Number(m[2]), Number(m[3]), Number(m[4])], [a, b, d], `hand ${k} (printed %.2f)`, { atol: 0.0051, rtol: 0 });
        }
      } else {
        assert.equal(hands.length, 0, `no clock hands without sinusoidal positions: ${text}`);
        assert.ok(!/clock/.test(text), text);
      }
    }
    // a masked cell says so
    await setAndWait(page, { causal: 1 });
    const masked = await hoverCell('mha/head1', 2, 3);
    assert.equal(masked.h.values[2][3], 0);
    assert.ok(masked.lines.some((l) => /^raw score -inf: masked/.test(l)), masked.lines.join('\n'));
    // leaving the grid ends the tooltip
    await page.mouse.move(VIEW.width - 5, VIEW.height - 5);
    await waitFrames(page, 3);
    assert.equal((await state(page)).hover, null);
  });
});

test('bad input: an empty text is an error in place; a valid text clears it', async () => {
  await withPage(VIEW, async (page) => {
    await openDemo(page, 'scene=mha');
    const grids = { mha: 'mha/head0', order: 'order/original', schemes: 'schemes/none', encoder: 'encoder/input' };
    for (const [scene, grid] of Object.entries(grids)) {
      const r = await setAndWait(page, { scene, text: '' });
      assert.equal(r.ok, true);
      const s = await state(page);
      assert.match(s.error, /empty/, `${scene}: the error says the text is empty`);
      assert.ok(!ids(await heatmaps(page)).includes(grid), `${scene}: no ${grid} for an empty text`);
      if (scene === 'order') assert.equal(s.shown.emails.length, 4, 'the refund pair does not depend on the text');
      await setAndWait(page, { text: 'Refund the cake.' });
      const fixed = await state(page);
      assert.equal(fixed.error, '', `${scene}: the error clears`);
      assert.ok(ids(await heatmaps(page)).includes(grid), `${scene}: ${grid} drawn again`);
    }
  });
});

test('bad input: a text over 1024 tokens is cut with a visible note; the dropped tokens are reported', async () => {
  await withPage(VIEW, async (page) => {
    const long = Array.from({ length: 1100 }, (_, i) => `w${i}`).join(' ');
    // The note is drawn in the notes' yellow; nothing else on these scenes has that colour.
    const yellowPixels = async () => {
      const shot = await screenshot(page);
      let n = 0;
      for (let y = 0; y < shot.height; y += 1) {
        for (let x = 0; x < shot.width; x += 1) {
          const [r, g, b] = shot.at(x, y);
          if (r === 255 && Math.abs(g - 204) <= 1 && Math.abs(b - 77) <= 1) n++;
        }
      }
      return n;
    };
    for (const scene of ['mha', 'encoder']) {
      await openDemo(page, `scene=${scene}`);
      assert.equal(await yellowPixels(), 0, `${scene}: no note for a short text`);
      await setAndWait(page, { text: long });
      const s = await state(page);
      assert.equal(s.error, '', `${scene}: a long text is not an error`);
      assert.equal(s.shown.dropped_tokens, 76, `${scene}: 1100 - 1024 tokens dropped`);
      assert.equal(s.shown.tokens.length, 1024);
      assert.equal(s.shown.tokens[1023], 'w1023', 'the end is cut, the start kept');
      assert.ok(await yellowPixels() > 30, `${scene}: the note is drawn`);
      if (scene === 'mha') assert.equal(s.shown.row.weights[0].length, 1024, 'the grids are 1024 x 1024');
      else assert.deepEqual(s.shown.shapes.input, [1024, 16]);
      // (no heatmaps() here: it serialises every value, 4 x 1024 x 1024 of them, which takes ~20 s)
    }
  });
});

test('bad input: emoji and other UTF-8 are tokens like any other', async () => {
  await withPage(VIEW, async (page) => {
    const text = 'Refund 🎂 please 😀 — café ₹500 日本語 “cold” naïve 👍🏽!';
    await openDemo(page, 'scene=mha&text=' + encodeURIComponent(text));
    const s = await state(page);
    assert.equal(s.error, '');
    assert.deepEqual(s.notes, []);
    assert.equal(s.settings.text, text);
    for (const token of ['🎂', '😀', 'café', '₹', 'naïve']) assert.ok(s.shown.tokens.includes(token), `token ${token} in ${JSON.stringify(s.shown.tokens)}`);
    const want = cliAttend({ text, d_model: 16, heads: 4, positions: 'sinusoidal', seed: 7 });
    assert.deepEqual(s.shown.tokens, want.tokens);
    assertAllClose(s.shown.weights, want.weights, 'UTF-8 text: weights');
    assert.deepEqual(heatmapById(await heatmaps(page), 'mha/head0').row_labels, want.tokens);
    // the URL keeps the text
    assert.equal(new URL(page.url()).searchParams.get('text'), text);
  });
});

test('bad input: d_model 512 with 6 heads is the "not divisible" error in place', async () => {
  await withPage(VIEW, async (page) => {
    await openDemo(page, 'scene=mha&d_model=512&heads=6');
    let s = await state(page);
    assert.match(s.error, /not divisible/);
    assert.match(s.error, /512/);
    assert.deepEqual(s.shown.parameters, { d_k: null, fused: null, single_head: 1048576 });
    assert.ok(!ids(await heatmaps(page)).some((id) => id.startsWith('mha/head')), 'no grids');
    await setAndWait(page, { heads: 8 });
    s = await state(page);
    assert.equal(s.error, '');
    assert.equal(s.shown.d_k, 64);
    assert.equal(s.shown.parameters.fused, cli(['params', '--d-model', '512', '--heads', '8']).fused_parameters);
    assert.ok(ids(await heatmaps(page)).includes('mha/head7'));
    for (const scene of ['schemes', 'encoder']) {
      await setAndWait(page, { scene, d_model: 512, heads: 6 });
      assert.match((await state(page)).error, /not divisible/, `${scene}: the same error`);
    }
  });
});

test('bad input: numbers out of range in the URL give notes and defaults', async () => {
  await withPage(VIEW, async (page) => {
    await openDemo(page, '?scene=mha&heads=99&d_model=-4&seed=abc&positions=fourier&causal=2');
    const s = await state(page);
    for (const name of ['heads=99', 'd_model=-4', 'seed=abc', 'positions=fourier', 'causal=2']) {
      assert.ok(s.notes.some((n) => n.includes(name)), `a note for ${name}: ${JSON.stringify(s.notes)}`);
    }
    const d = { heads: '4', d_model: '16', seed: '7', positions: 'sinusoidal', causal: '0' };
    for (const [k, v] of Object.entries(d)) assert.equal(s.settings[k], v, `${k} keeps its default`);
    assert.equal(s.error, '');
    assert.equal(s.shown.weights.length, 4, 'the scene works with the defaults');
    assert.deepEqual(ids(await heatmaps(page)).filter((id) => id.startsWith('mha/head')),
      ['mha/head0', 'mha/head1', 'mha/head2', 'mha/head3']);
  });
});

test('bad input: a learned table smaller than the text errs in place; the other schemes are drawn', async () => {
  await withPage(VIEW, async (page) => {
    await openDemo(page, 'scene=schemes&slots=4');  // the lesson's email has 9 tokens
    const s = await state(page);
    assert.match(s.error, /learned table/);
    const learned = s.shown.schemes.learned;
    assert.equal(learned.ok, false);
    assert.match(learned.error, /position 4 is past the end of the learned table: it has 4 slots/);
    assert.throws(() => cliAttend({ text: s.settings.text, d_model: 16, heads: 2, positions: 'learned', max_len: 4 }),
      (e) => e.stderr.includes(learned.error), 'the CLI gives the same message');
    const drawn = ids(await heatmaps(page));
    for (const name of ['none', 'sinusoidal', 'rope', 'alibi', 'relative']) {
      assert.equal(s.shown.schemes[name].ok, true, `${name} still works`);
      assert.ok(drawn.includes(`schemes/${name}`), `schemes/${name} drawn: ${drawn}`);
    }
    assert.ok(!drawn.includes('schemes/learned'));
    // and they are really on screen
    const want = {};
    for (const name of ['sinusoidal', 'rope']) {
      want[`schemes/${name}`] = cliAttend({ text: s.settings.text, d_model: 16, heads: 2, positions: name, seed: 7 }).weights[0];
    }
    await checkGridPixels(page, want, 'viridis', 3);
    // the long email: sinusoidal and RoPE continue where the learned table stops
    assert.equal(s.shown.limits.learned.ok, false);
    assert.equal(s.shown.limits.sinusoidal.ok, true);
    assert.equal(s.shown.limits.rope.ok, true);
    // the same setting in the mha scene
    await setAndWait(page, { scene: 'mha', positions: 'learned', slots: 4 });
    assert.match((await state(page)).error, /learned table/);
  });
});

// Minimal RFC 4180 reader: quoted fields with "" escapes, commas and line breaks inside quotes.
function parseCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; } else if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else field += ch;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

test('CSV export: labels and the exact values of the heatmap', async () => {
  await withPage(VIEW, async (page) => {
    const text = 'He said "refund, please", then left.';  // labels with quotes and commas
    await openDemo(page, 'scene=mha&heads=2&text=' + encodeURIComponent(text));
    const maps = await heatmaps(page);
    for (const id of ['mha/head0', 'mha/head1', 'mha/rows']) {
      const h = heatmapById(maps, id);
      const csv = await page.evaluate((x) => window.attentionDemo.exportCsv(x), id);
      const rows = parseCsv(csv);
      assert.equal(rows.length, h.rows + 1, `${id}: a header and one line per row`);
      assert.deepEqual(rows[0].slice(1), h.col_labels, `${id}: the header holds the column (key) labels`);
      assert.match(rows[0][0], /\\ key$/);
      assert.deepEqual(rows.slice(1).map((r) => r[0]), h.row_labels, `${id}: each line starts with its row label`);
      const values = rows.slice(1).map((r) => r.slice(1).map((x) => Math.fround(Number(x))));
      assert.deepEqual(values, h.values, `${id}: the CSV values are the heatmap's, exactly`);
    }
    const h0 = heatmapById(maps, 'mha/head0');
    assert.ok(h0.col_labels.includes('"') && h0.col_labels.includes(','), `quote and comma tokens: ${h0.col_labels}`);
    assert.deepEqual(h0.row_labels, h0.col_labels, 'rows are queries, columns keys: the same tokens');
    await assert.rejects(page.evaluate(() => window.attentionDemo.exportCsv('mha/nope')), /no heatmap/);
  });
});

test('every attention scene loads without errors and reopens from its URL', async () => {
  const scenes = [
    ['mha', 'scene=mha&heads=2&positions=rope&causal=1&seed=3&head=1&row=2', ['mha/head1', 'mha/rows'], ''],
    ['order', 'scene=order&positions=rope&perm=2,0,1,3,4,5,6,7,8&seed=5', ['order/original', 'order/shuffled'], ''],
    ['schemes', 'scene=schemes&head=1&slots=4', ['schemes/none', 'schemes/rope', 'schemes/offset_weights'], 'learned table'],
    ['encoder', 'scene=encoder&positions=alibi&heads=4&causal=1', ['encoder/input', 'encoder/output', 'encoder/head3'], ''],
    ['exercises', 'scene=exercises&colormap=cividis', [], ''],
  ];
  for (const [scene, query, grids, error] of scenes) {
    await withPage(VIEW, async (page) => {
      await openDemo(page, query);
      const s = await state(page);
      assert.equal(s.scene, scene);
      assert.deepEqual(s.notes, [], `${scene}: no notes`);
      if (error) assert.match(s.error, new RegExp(error)); else assert.equal(s.error, '', `${scene}: no error`);
      for (const [k, v] of new URLSearchParams(query)) assert.equal(s.settings[k], v, `${scene}: ${k} from the URL`);
      const drawn = ids(await heatmaps(page));
      for (const g of grids) assert.ok(drawn.includes(g), `${scene}: ${g} drawn (${drawn})`);
      const stats = await api(page, 'frameStats');
      assert.ok(stats.draw_calls > 0 && stats.vertices > 0, `${scene}: drawn ${JSON.stringify(stats)}`);
      if (scene === 'mha') assert.equal(s.shown.enlarged, 1, 'head=1 enlarges head 1');
      if (scene === 'order') assert.deepEqual(s.shown.perm, [2, 0, 1, 3, 4, 5, 6, 7, 8]);
      if (scene === 'schemes') assert.equal(s.shown.head, 1);
      // the address bar reopens the same view
      const url = page.url();
      await page.goto(url);
      await waitReady(page);
      const again = await state(page);
      assert.deepEqual(again.settings, s.settings, `${scene}: ${url} reopens the same settings`);
      const strip = (x) => { const { compute_ms, ...rest } = x; return rest; };
      assert.deepEqual(strip(again.shown), strip(s.shown), `${scene}: and the same values`);
    });
  }
});
